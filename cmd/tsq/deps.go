package main

import "fmt"

// The subcommands reach the query engine, export, import, compaction and
// retention through the functions of the dep_*.go files, one file per
// package they need. A file whose package has not landed in this build
// holds functions that return errUnavailable, so the command says so
// clearly instead of pretending.

// errUnavailable says that what needs a part of tsq that this build lacks.
func errUnavailable(what, part string) error {
	return fmt.Errorf("%s: %s is not part of this build of tsq yet", what, part)
}
