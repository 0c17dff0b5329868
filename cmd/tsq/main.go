// Command tsq is the tsq shell and tool: an interactive SQL-like shell over
// a store (the default), and subcommands to query, import, export, compact,
// check and tour it. Run `tsq help` for the list.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	_ "time/tzdata" // GROUP BY time(1d, 'Europe/Berlin') on machines without a zone database

	"github.com/tsqdb/tsq/chunk"
)

// env is what a command runs with: its streams, the store directory and
// the environment, passed in so tests can run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	store          string     // --store, resolved
	storeSet       bool       // --store was given
	skipCorrupt    bool       // --skip-corrupt: queries leave out corrupt blocks
	fileCache      *fileCache // files read by statements (queryfiles.go); see files()
}

// command is one subcommand.
type command struct {
	name    string
	short   string // one line for the command list
	summary string
	usage   string // arguments after the name
	run     func(ctx context.Context, e *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// exitError carries an exit status other than 1 without a message, or a
// message already printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(run(ctx, e, os.Args[1:]))
}

// run parses the global flags, dispatches and turns an error into one line
// on stderr and an exit status.
func run(ctx context.Context, e *env, args []string) int {
	name, rest, err := e.parseGlobal(args)
	if err == nil {
		c, ok := commands[name]
		if !ok {
			err = fmt.Errorf("unknown command %q (try: tsq help)", name)
		} else {
			err = c.run(ctx, e, rest)
		}
	}
	if cerr := e.fileCache.close(); cerr != nil && err == nil {
		err = fmt.Errorf("removing the files read: %w", cerr)
	}
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(e.stderr, "tsq: %s\n", errText(err))
	return 1
}

// parseGlobal reads --store DIR (also --store=DIR) and --skip-corrupt
// before the command name and returns the command and its arguments;
// with no command it is shell.
func (e *env) parseGlobal(args []string) (string, []string, error) {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--store" || a == "-store":
			if len(args) < 2 {
				return "", nil, errors.New("--store needs a directory")
			}
			e.store, e.storeSet = args[1], true
			args = args[2:]
		case strings.HasPrefix(a, "--store=") || strings.HasPrefix(a, "-store="):
			e.store, e.storeSet = a[strings.Index(a, "=")+1:], true
			args = args[1:]
		case a == "--skip-corrupt" || a == "-skip-corrupt":
			e.skipCorrupt = true
			args = args[1:]
		case a == "-h" || a == "--help":
			return "help", args[1:], nil
		case a == "--version":
			return "version", args[1:], nil
		case strings.HasPrefix(a, "-"):
			// A flag of the default command: tsq --continue < script.
			return "shell", args, nil
		default:
			return a, args[1:], nil
		}
	}
	return "shell", nil, nil
}

// storeDir returns --store or the default $XDG_DATA_HOME/tsq, else
// ~/.local/share/tsq.
func (e *env) storeDir() (string, error) {
	if e.store != "" {
		return e.store, nil
	}
	if d := e.getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "tsq"), nil
	}
	home := e.getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", errors.New("no --store given and no home directory to default to")
		}
		home = h
	}
	return filepath.Join(home, ".local", "share", "tsq"), nil
}

// flags returns a FlagSet for command c that also accepts --store after
// the command name.
func (e *env) flags(c string) *flag.FlagSet {
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Func("store", "store `directory`", func(s string) error { e.store, e.storeSet = s, true; return nil })
	if c == "query" || c == "export" || c == "shell" {
		fs.BoolVar(&e.skipCorrupt, "skip-corrupt", e.skipCorrupt, "leave out blocks whose bytes are corrupt, each said on stderr, instead of failing (salvage: export what is intact)")
	}
	fs.Usage = func() {} // parse prints the usage for -h only
	return fs
}

// parse parses args with fs and reports usage errors as one line.
// Flags may come after the arguments (tsq import data.csv --stream s),
// as users of most command-line tools expect; "--" ends the flags.
func (e *env) parse(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	var pos []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				e.usage(fs)
				return err
			}
			return fmt.Errorf("%s: %v", fs.Name(), err)
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if n := len(rest) - len(left); n > 0 && rest[n-1] == "--" {
			pos = append(pos, left...)
			break
		}
		pos, rest = append(pos, left[0]), left[1:]
	}
	// Leave the arguments in fs.Args, as a parse of them alone would.
	return fs.Parse(append([]string{"--"}, pos...))
}

// errText is err as one line without the "tsq: " prefixes library
// errors carry, at its start and where one wraps another ("compact "x":
// tsq: store is read-only"): the command says "tsq:" once.
func errText(err error) string {
	s := strings.ReplaceAll(strings.TrimPrefix(oneLine(err.Error()), "tsq: "), ": tsq: ", ": ")
	if errors.Is(err, chunk.ErrCorrupt) {
		s += " (tsq verify lists what is corrupt; --skip-corrupt reads past corrupt blocks: tsq export --skip-corrupt saves the rest)"
	}
	return s
}

// oneLine folds a multi-line error into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

func commandNames() []string {
	var n []string
	for k := range commands {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// usage prints a command's usage and flags on stderr.
func (e *env) usage(fs *flag.FlagSet) {
	cmd := commands[fs.Name()]
	fmt.Fprintf(e.stderr, "usage: tsq [--store DIR] %s %s\n\n%s\n\nflags:\n", cmd.name, cmd.usage, cmd.summary)
	fs.SetOutput(e.stderr)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
