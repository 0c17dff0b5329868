package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
)

// script runs statements and dot commands read from r, with no prompt: the
// shell when stdin is not a terminal, and tsq query. It stops at the first
// error, with a non-zero exit, when s.bail is set (.bail off or --continue
// go on).
func (s *session) script(ctx context.Context, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var (
		sp     splitter
		line   int
		start  int // line where the pending statement began
		failed bool
	)
	fail := func(err error, src string, at int) error {
		s.report(err, src, at)
		failed = true
		if s.bail || ctx.Err() != nil {
			return exitError{1}
		}
		return nil
	}
	run := func(stmt string) error {
		if err := s.statement(ctx, stmt); err != nil {
			return fail(err, stmt, start)
		}
		return nil
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if sp.pending() == "" && sp.quote == 0 {
			t := strings.TrimSpace(text)
			if strings.HasPrefix(t, ".") {
				err := s.dot(ctx, t)
				if errors.Is(err, errQuit) {
					break
				}
				if err != nil {
					if e := fail(err, "", line); e != nil {
						return e
					}
				}
				continue
			}
			if t == "" || strings.HasPrefix(t, "--") {
				continue
			}
			start = line
		}
		for _, stmt := range sp.feed(text + "\n") {
			if err := run(stmt); err != nil {
				return err
			}
			start = line
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if rest := sp.pending(); rest != "" {
		if err := run(rest); err != nil {
			return err
		}
	}
	if failed {
		return exitError{1}
	}
	return nil
}
