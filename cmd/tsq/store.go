package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	tsq "github.com/tsqdb/tsq"
)

// openStore opens the store of --store (or the default). A read-only
// open takes no writer lock, so it runs beside a process that writes; it
// needs the store to exist.
func (e *env) openStore(readOnly bool) (*tsq.Store, error) {
	dir, err := e.storeDir()
	if err != nil {
		return nil, err
	}
	if readOnly {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no store at %s (give --store DIR, or make one with tsq demo or tsq import)", dir)
		}
	}
	st, err := tsq.Open(dir, &tsq.Options{ReadOnly: readOnly})
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return st, nil
}

// openSessionStore opens the store of a shell or a script read-only,
// creating it empty first if it does not exist (as sqlite3 makes its
// database): INSERT, CREATE TABLE and .import then fill it.
func (e *env) openSessionStore() (*tsq.Store, error) {
	dir, err := e.storeDir()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		w, err := tsq.Open(dir, nil)
		if err != nil {
			return nil, fmt.Errorf("create store %s: %w", dir, err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("create store %s: %w", dir, err)
		}
		fmt.Fprintf(e.stderr, "tsq: created an empty store at %s (.import, INSERT or CREATE TABLE ... AS fills it; tsq demo makes one with data to try)\n", dir)
	}
	return e.openStore(true)
}
