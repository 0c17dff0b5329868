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
