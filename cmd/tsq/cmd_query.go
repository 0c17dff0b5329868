package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"
)

func init() {
	register(&command{name: "query", short: "run statements from -c, a file or stdin; print or plot the results", usage: "[-c STATEMENT | FILE | -] [--mode M] [--plot] [--maxrows N]",
		summary: "Run statements from -c, a file or stdin and print their results (or plot them).",
		run:     runQueryCmd})
}

func runQueryCmd(ctx context.Context, e *env, args []string) error {
	fs := e.flags("query")
	stmt := fs.String("c", "", "the `statement`s to run")
	mode := fs.String("mode", "table", "output `mode`: table, csv, json, line, jsonl, logfmt or markdown")
	plot := fs.Bool("plot", false, "draw each result as a line chart instead of printing it")
	maxRows := fs.Int("maxrows", -1, "table rows shown before truncating (-1: all)")
	cont := fs.Bool("continue", false, "go on after an error (the exit status is still 1)")
	tz := fs.String("tz", "", "show timestamps on this time `zone`'s clock (as .tz)")
	if err := e.parse(fs, args); err != nil {
		return err
	}
	var src io.Reader
	switch {
	case *stmt != "" && fs.NArg() > 0:
		return errors.New("query: give -c or a file, not both")
	case *stmt != "":
		src = strings.NewReader(*stmt)
	case fs.NArg() > 1:
		return errors.New("query: one file at most")
	case fs.NArg() == 1 && fs.Arg(0) != "-":
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		src = f
	default:
		src = e.stdin
	}
	st, err := e.openSessionStore()
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
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
	s.rows, s.bail, s.plotAll = *maxRows, !*cont, *plot
	return s.script(ctx, src)
}
