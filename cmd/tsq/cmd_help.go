package main

import (
	"context"
	"fmt"
	"text/tabwriter"
)

func init() {
	register(&command{name: "help", short: "show the commands, or one command's flags", usage: "[COMMAND]", summary: "Show the commands, or one command's flags.", run: runHelp})
}

func runHelp(_ context.Context, e *env, args []string) error {
	if len(args) == 1 {
		c, ok := commands[args[0]]
		if !ok {
			return fmt.Errorf("help: unknown command %q", args[0])
		}
		he := *e
		he.stderr = e.stdout
		return c.run(context.Background(), &he, []string{"-h"})
	}
	w := e.stdout
	fmt.Fprintln(w, "tsq: a time-series store and its shell.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: tsq [--store DIR] [COMMAND] [flags]")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, n := range commandNames() {
		fmt.Fprintf(tw, "  %s\t%s\n", n, commands[n].short)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The store defaults to $XDG_DATA_HOME/tsq, else ~/.local/share/tsq.")
	fmt.Fprintln(w, "Start with: tsq demo")
	return nil
}
