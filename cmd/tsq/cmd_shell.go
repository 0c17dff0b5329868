package main

import (
	"context"
	"os"
	"os/signal"

	"golang.org/x/term"
)

func init() {
	register(&command{name: "shell", short: "the interactive shell (the default); a script runner when stdin is not a terminal", usage: "[--continue] [--mode M]",
		summary: "Interactive shell (the default command). On a terminal it has completion, history and\n" +
			"multi-line statements; with stdin not a terminal it runs stdin as a script.",
		run: runShell})
}

func runShell(ctx context.Context, e *env, args []string) error {
	fs := e.flags("shell")
	cont := fs.Bool("continue", false, "script mode: go on after an error (the exit status is still 1)")
	mode := fs.String("mode", "table", "output `mode`: table, csv, json, line, jsonl, logfmt or markdown")
	tz := fs.String("tz", "", "show timestamps on this time `zone`'s clock (as .tz)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	st, err := e.openSessionStore()
	if err != nil {
		return err
	}
	defer st.Close()
	s := newSession(e, st)
	defer s.close()
	if err := s.dot(ctx, ".mode "+*mode); err != nil {
		return err
	}
	if *tz != "" {
		if err := s.dot(ctx, ".tz "+*tz); err != nil {
			return err
		}
	}
	s.bail = !*cont
	if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return s.interactive(ctx)
	}
	// A script stops on Ctrl-C: the running statement is cancelled, and
	// the exit status is 1.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	return s.script(ctx, e.stdin)
}
