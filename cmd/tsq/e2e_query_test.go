package main

import "testing"

// shellQueryAndExport runs a query, .export and a cancelled slow query in
// the tmux shell; it needs the query engine.
func shellQueryAndExport(t *testing.T, tm *tmux, store string) {
	t.Log("query engine not in this build: query, .export and Ctrl-C of a running query not exercised")
}
