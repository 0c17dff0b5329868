package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/internal/render"
	"github.com/tsqdb/tsq/query"
	"golang.org/x/term"
)

// session is the state of a shell, interactive or scripted: the store,
// output settings and the last statement (for .plot and .export).
type session struct {
	e     *env
	st    *tsq.Store
	mode  render.Mode
	rows  int            // .maxrows: table rows shown before truncating
	timer bool           // .timer: print each statement's run time
	zone  *time.Location // .tz: the clock timestamps are shown on; nil: UTC
	bail  bool           // stop a script at the first error
	// out is where results go: stdout, or the file of .output.
	out     io.Writer
	outFile *os.File
	color   bool     // out is a terminal and NO_COLOR is unset: dim NULLs, colour plots
	tty     *os.File // stdout when it is a terminal, for its width
	plotAll bool     // tsq query --plot: draw every result instead of printing it
	last    string
	errors  int // errors reported
	depth   int // .read files being run
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func newSession(e *env, st *tsq.Store) *session {
	s := &session{e: e, st: st, out: e.stdout, bail: true}
	if f, ok := e.stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		s.tty = f
		s.color = e.getenv("NO_COLOR") == ""
	}
	return s
}

// width returns the terminal's columns now, 0 when stdout is not one.
func (s *session) width() int {
	if s.tty == nil {
		return 0
	}
	w, _, err := term.GetSize(int(s.tty.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// close closes an .output file.
func (s *session) close() error {
	if s.outFile != nil {
		err := s.outFile.Close()
		s.outFile = nil
		return err
	}
	return nil
}

// statement runs one statement and renders its result.
func (s *session) statement(ctx context.Context, text string) error {
	if isCopy(text) {
		return s.copyTo(ctx, text)
	}
	if isSet(text) {
		return s.set(text)
	}
	if s.plotAll {
		return s.plot(ctx, text)
	}
	start := time.Now()
	var rr array.RecordReader
	var err error
	if writes(text) != "" { // never s.last: .plot and .export would run it again
		rr, err = runWrite(ctx, s.e, text)
	} else {
		s.last = text
		rr, err = runQuery(ctx, s.e, s.st, text)
	}
	if err != nil {
		return err
	}
	defer rr.Release()
	_, err = render.Write(s.out, withContext(ctx, rr), render.Options{Mode: s.mode, MaxRows: s.rows, Color: s.color && s.outFile == nil, Zone: s.zone})
	if err != nil {
		return err
	}
	if s.timer {
		fmt.Fprintf(s.e.stdout, "Run Time: %.3fs\n", time.Since(start).Seconds())
	}
	return nil
}

// report prints err for the statement src (starting at script line line,
// 0 when interactive): one line, then, for a *query.Error, the statement's
// line with a caret under the offending token.
func (s *session) report(err error, src string, line int) {
	w := s.e.stderr
	if errors.Is(err, errReported) {
		return // and counted
	}
	s.errors++
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(w, "Interrupted")
		return
	}
	var qe *query.Error
	if errors.As(err, &qe) && src != "" {
		// Place the error in the script: the statement began at line.
		if line > 0 {
			fmt.Fprintf(w, "Error: line %d col %d: %s\n", line+qe.Line-1, qe.Col, qe.Msg)
		} else {
			fmt.Fprintf(w, "Error: %s\n", qe.Msg)
		}
		if c := strings.TrimRight(qe.Caret(src), "\n"); c != "" {
			fmt.Fprintln(w, c)
		}
		return
	}
	if line > 0 {
		fmt.Fprintf(w, "Error: line %d: %s\n", line, errText(err))
		return
	}
	fmt.Fprintf(w, "Error: %s\n", errText(err))
}
