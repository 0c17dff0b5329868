package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	prompt "github.com/elk-language/go-prompt"
	"golang.org/x/term"
)

// historyMax is how many history entries the shell loads.
const historyMax = 1000

// interactive runs the shell on a terminal with go-prompt: completion,
// history, multi-line statements ended by ';'. Ctrl-C at the prompt clears
// the line; during a statement it cancels the statement's context, not the
// shell. Ctrl-D on an empty line leaves, restoring the terminal mode.
func (s *session) interactive(ctx context.Context) error {
	fd := int(os.Stdin.Fd())
	saved, err := term.GetState(fd)
	if err != nil {
		return fmt.Errorf("shell: read terminal mode: %w", err)
	}
	defer term.Restore(fd, saved)
	// SIGTERM or SIGHUP while the prompt waits for a key would otherwise
	// go unnoticed: restore the terminal and leave.
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(quit)
	go func() {
		if sig, ok := <-quit; ok {
			term.Restore(fd, saved)
			fmt.Fprintf(s.e.stderr, "\ntsq: %v\n", sig)
			os.Exit(1)
		}
	}()

	// Between prompts the terminal is in cooked mode, so Ctrl-C arrives as
	// SIGINT: it cancels the running statement, if any.
	var (
		mu     sync.Mutex
		cancel context.CancelFunc
	)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			mu.Lock()
			if cancel != nil {
				cancel()
			}
			mu.Unlock()
		}
	}()

	hist := s.e.historyPath()
	comp := newCompleter(s.st)
	p := prompt.New(func(string) {},
		prompt.WithPrefix("tsq> "),
		prompt.WithCompleter(comp.complete),
		prompt.WithHistory(loadHistory(hist)),
		prompt.WithExecuteOnEnterCallback(func(p *prompt.Prompt, _ int) (int, bool) {
			t := strings.TrimSpace(p.Buffer().Text())
			return 1, t == "" || strings.HasPrefix(t, ".") || complete(t)
		}),
		prompt.WithCompletionWordSeparator(wordSep),
		prompt.WithMaxSuggestion(8),
	)
	fmt.Fprintf(s.e.stdout, "tsq %s shell on %s. Statements end with ';'. .help for commands, Ctrl-D to leave.\n", version, s.st.Dir())
	for {
		text := p.Input()
		if text == "" && p.Buffer().Document().LastKeyStroke() == prompt.ControlD {
			return nil
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		appendHistory(hist, text)
		qctx, c := context.WithCancel(ctx)
		mu.Lock()
		cancel = c
		mu.Unlock()
		err := s.input(qctx, text)
		mu.Lock()
		cancel = nil
		mu.Unlock()
		c()
		comp.forget()
		if errors.Is(err, errQuit) {
			return nil
		}
		if err != nil {
			s.report(err, text, 0)
		}
	}
}

// input runs what was typed at the prompt: a dot command, or statements.
func (s *session) input(ctx context.Context, text string) error {
	if strings.HasPrefix(text, ".") {
		return s.dot(ctx, text)
	}
	var sp splitter
	stmts := sp.feed(text)
	if rest := sp.pending(); rest != "" {
		stmts = append(stmts, rest)
	}
	for _, st := range stmts {
		if err := s.statement(ctx, st); err != nil {
			s.report(err, st, 0)
			if ctx.Err() != nil {
				return nil
			}
		}
	}
	return nil
}

// historyPath is $XDG_STATE_HOME/tsq/history, else ~/.local/state/tsq/history.
func (e *env) historyPath() string {
	if d := e.getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "tsq", "history")
	}
	home := e.getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "tsq", "history")
}

// loadHistory reads the last historyMax entries, one per line (a
// multi-line statement is stored on one line).
func loadHistory(path string) []string {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var h []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if t := sc.Text(); t != "" {
			h = append(h, t)
		}
	}
	if len(h) > historyMax {
		h = h[len(h)-historyMax:]
	}
	return h
}

// appendHistory adds one entry; failures to keep history are not errors
// of the statement, so they are ignored.
func appendHistory(path, text string) {
	if path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, strings.ReplaceAll(strings.ReplaceAll(text, "\r", " "), "\n", " "))
}
