//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestImportSIGINT interrupts `tsq import -` mid-stream (the process gets
// SIGINT as from Ctrl-C): it exits non-zero with a one-line error, and
// the stream, which had 100 rows, is unchanged, with no staging left.
func TestImportSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := buildTSQ(t, dir)
	store := filepath.Join(dir, "s")
	if r := runTSQ(t, "", "--store", store, "import", "--time", "ts", "--series", "acct", "--key", "id", writeEvents(t, 100, false)); r.code != 0 {
		t.Fatalf("first import: %+v", r)
	}
	cmd := exec.Command(bin, "--store", store, "import", "--stream", "orders", "--format", "jsonl", "--time", "ts", "-")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Feed rows until the import has staged some (its staging directory
	// appears), then interrupt while the input is still open.
	staging := filepath.Join(store, "staging")
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; ; i++ {
		var b strings.Builder
		for j := range 2000 {
			fmt.Fprintf(&b, `{"ts":%d,"acct":"b","id":"x/%d","amount":%d}`+"\n", 1700000000000+int64(i*2000+j), j, j)
		}
		if _, err := io.WriteString(in, b.String()); err != nil {
			t.Fatalf("feeding the import: %v; stderr %q", err, stderr.String())
		}
		if ents, _ := os.ReadDir(staging); len(ents) > 0 && i >= 50 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the import staged nothing in 30 s")
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("tsq import did not stop within 30 s of SIGINT")
	}
	in.Close()
	if werr == nil || cmd.ProcessState.ExitCode() == 0 {
		t.Fatalf("interrupted import exited 0; stdout %q", stdout.String())
	}
	if msg := stderr.String(); strings.Count(strings.TrimRight(msg, "\n"), "\n") != 0 || !strings.Contains(msg, "import") {
		t.Fatalf("want one error line naming the import, got %q", msg)
	}
	if stdout.Len() != 0 {
		t.Fatalf("interrupted import printed a summary: %q", stdout.String())
	}
	r := runTSQ(t, "", "--store", store, "query", "--mode", "csv", "-c", "SELECT count(*) FROM orders")
	if r.stdout != "count(*)\n100\n" {
		t.Fatalf("the interrupted import changed the stream: %+v", r)
	}
	if ents, _ := os.ReadDir(staging); len(ents) != 0 {
		t.Fatalf("staging left after the interrupted import: %v", ents)
	}
}
