package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// result is what an in-process run of tsq printed and returned.
type result struct {
	code           int
	stdout, stderr string
}

// runTSQ runs tsq in-process with args and stdin, the history and data
// directories inside the test's temp dir.
func runTSQ(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	home := t.TempDir()
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string {
		switch k {
		case "HOME":
			return home
		case "XDG_STATE_HOME", "XDG_DATA_HOME":
			return filepath.Join(home, k)
		}
		return ""
	}}
	code := run(context.Background(), e, args)
	return result{code, out.String(), errb.String()}
}

// demoStore builds the demo store in a temp dir, once per test binary.
var demoStoreDir string

func demoStore(t *testing.T) string {
	t.Helper()
	if demoStoreDir != "" {
		return demoStoreDir
	}
	dir, err := os.MkdirTemp("", "tsq-cmd-test-")
	if err != nil {
		t.Fatal(err)
	}
	r := runTSQ(t, "", "--store", dir, "demo", "--no-shell")
	if !strings.Contains(r.stdout, "Built a demo store") {
		t.Fatalf("demo failed (%d): %s %s", r.code, r.stdout, r.stderr)
	}
	demoStoreDir = dir
	return dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if demoStoreDir != "" {
		os.RemoveAll(demoStoreDir)
	}
	os.Exit(code)
}

// writeFile writes body to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
