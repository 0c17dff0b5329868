package main

import (
	"context"
	"fmt"
	"strings"
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
	var rows [][2]string
	for _, n := range commandNames() {
		rows = append(rows, [2]string{"  " + n, commands[n].short})
	}
	var b strings.Builder
	writeHelp(&b, rows, 13)
	fmt.Fprint(w, b.String())
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The store defaults to $XDG_DATA_HOME/tsq, else ~/.local/share/tsq.")
	fmt.Fprintln(w, "Start with: tsq demo")
	return nil
}

// helpWidth is the width of the shell's .help first column.
const helpWidth = 30

// writeHelp writes rows of (form, description) as two columns within 80
// columns, the descriptions from column indent, wrapped at spaces; a
// form too long for its column has its description on the next line.
func writeHelp(b *strings.Builder, rows [][2]string, indent int) {
	const width = 80
	for _, r := range rows {
		b.WriteString(r[0])
		col := len(r[0])
		if col > indent-2 {
			b.WriteString("\n")
			col = 0
		}
		line := 0
		for _, w := range strings.Fields(r[1]) {
			switch {
			case line == 0:
			case indent+line+1+len(w) > width:
				b.WriteString("\n")
				col, line = 0, 0
			default:
				b.WriteString(" ")
				line++
			}
			if line == 0 {
				b.WriteString(strings.Repeat(" ", indent-col))
			}
			b.WriteString(w)
			line += len(w)
		}
		b.WriteString("\n")
	}
}
