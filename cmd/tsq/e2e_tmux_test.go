package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmux drives tsq in a real terminal: a private tmux server (its own
// socket) with one pane running a wrapper script that records `stty -g`
// before and after tsq and tsq's exit status.
type tmux struct {
	t      *testing.T
	socket string
	dir    string
}

// needTmux skips without tmux, unless TSQ_E2E=1 demands the test run.
func needTmux(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("TSQ_E2E") == "1" {
			t.Fatal("TSQ_E2E=1 but tmux is not installed (apt-get install tmux)")
		}
		t.Skip("tmux not installed; set TSQ_E2E=1 to make this a failure")
	}
	return p
}

// buildTSQ compiles the command into dir.
func buildTSQ(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "tsq")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startTmux runs `tsq args...` in a new 160x50 pane, with its history
// under the pane's directory.
func startTmux(t *testing.T, bin string, args ...string) *tmux {
	t.Helper()
	return startTmuxState(t, bin, "", args...)
}

// startTmuxState is startTmux with XDG_STATE_HOME set to state (default
// a state directory of its own).
func startTmuxState(t *testing.T, bin, state string, args ...string) *tmux {
	t.Helper()
	dir := t.TempDir()
	if state == "" {
		state = filepath.Join(dir, "state")
	}
	tm := &tmux{t: t, socket: filepath.Join(dir, "sock"), dir: dir}
	// The wrapper traps SIGINT so that Ctrl-C during a statement, sent to
	// the whole foreground process group, leaves it running, as an
	// interactive shell's job control would; tsq gets the default handling.
	script := fmt.Sprintf(`trap 'echo wrapper-got-sigint > /dev/null' INT
stty -g > %[1]s/stty.before
XDG_STATE_HOME=%[4]s %[2]s %[3]s
rc=$?
stty -g > %[1]s/stty.tmp && mv %[1]s/stty.tmp %[1]s/stty.after
echo $rc > %[1]s/rc.tmp && mv %[1]s/rc.tmp %[1]s/rc
sleep 60
`, dir, bin, strings.Join(args, " "), state)
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	tm.run("new-session", "-d", "-x", "160", "-y", "50", "sh", filepath.Join(dir, "run.sh"))
	t.Cleanup(func() { exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	tm.waitFor("tsq>", 15*time.Second)
	return tm
}

func (tm *tmux) run(args ...string) string {
	tm.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...)
	if os.Getenv("TERM") == "" || os.Getenv("TERM") == "dumb" {
		// CI runs without a terminal; tmux still needs to know one.
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (e.g. "Tab", "C-c"). Each key is sent alone
// and followed by a pause: go-prompt reads the terminal every 10 ms and
// takes a read of several bytes for pasted text (a Tab in it becomes
// spaces), so keys must not arrive in one read with text.
func (tm *tmux) keys(k ...string) {
	for _, x := range k {
		tm.run("send-keys", "-t", "0", x)
		time.Sleep(150 * time.Millisecond)
	}
}

// text types s literally and waits for its echo, so that the keys sent
// next arrive in a read of their own. tmux reads an argument ending in
// ';' as a command separator, so that one is escaped.
func (tm *tmux) text(s string) {
	tm.t.Helper()
	arg := s
	if strings.HasSuffix(arg, ";") {
		arg = arg[:len(arg)-1] + "\\;"
	}
	tm.run("send-keys", "-t", "0", "-l", arg)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.HasSuffix(tm.inputLine(), s) {
		if time.Now().After(deadline) {
			tm.t.Fatalf("typed %q, the prompt shows %q:\n%s", s, tm.inputLine(), tm.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
}

// inputLine returns the last prompt line on the screen, trimmed.
func (tm *tmux) inputLine() string {
	lines := strings.Split(tm.screen(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "tsq>") {
			return strings.TrimRight(lines[i], " ")
		}
	}
	return ""
}

func (tm *tmux) screen() string { return tm.run("capture-pane", "-p", "-t", "0", "-S", "-200") }

// waitFor polls the screen until it contains want.
func (tm *tmux) waitFor(want string, d time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tm.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("screen never showed %q:\n%s", want, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFile waits for the wrapper to write name and returns it.
func (tm *tmux) waitFile(name string, d time.Duration) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		b, err := os.ReadFile(filepath.Join(tm.dir, name))
		if err == nil {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("%s never written; screen:\n%s", name, tm.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestShellTmux is the end-to-end shell test in a real terminal:
// completion with Tab, a query shown as a table, .export to a file, Ctrl-C
// cancelling a running query while the shell survives, and Ctrl-D leaving
// with exit 0 and the terminal mode as it was.
func TestShellTmux(t *testing.T) {
	needTmux(t)
	if testing.Short() {
		t.Skip("short")
	}
	bin := buildTSQ(t, t.TempDir())
	store := e2eStore(t)
	tm := startTmux(t, bin, "--store", store)

	// Completion: a partial keyword and Tab.
	tm.text("SEL")
	tm.keys("Tab")
	tm.waitFor("tsq> SELECT", 5*time.Second)
	tm.keys("C-u") // clear the line
	tm.text(".stre")
	tm.keys("Tab")
	tm.waitFor("tsq> .streams", 5*time.Second)
	tm.keys("Enter")
	tm.waitFor("16128 rows", 5*time.Second)
	tm.text(".mode table")
	tm.keys("Enter")

	shellQueryAndExport(t, tm, store)

	// Ctrl-C at the prompt clears the line and keeps the shell.
	tm.text("SELECT half a statement")
	tm.keys("C-c")
	tm.text(".mode line")
	tm.keys("Enter")
	tm.text(".stats")
	tm.keys("Enter")
	tm.waitFor("rows over time", 5*time.Second)

	t.Logf("screen before Ctrl-D:\n%s", tm.screen())
	// Ctrl-D leaves; exit 0, terminal mode restored.
	tm.keys("C-d")
	if rc := tm.waitFile("rc", 10*time.Second); rc != "0" {
		t.Fatalf("exit status %s; screen:\n%s", rc, tm.screen())
	}
	before, after := tm.waitFile("stty.before", time.Second), tm.waitFile("stty.after", 5*time.Second)
	if before != after {
		t.Fatalf("terminal mode changed:\nbefore %s\nafter  %s", before, after)
	}
	hist, err := os.ReadFile(filepath.Join(tm.dir, "state", "tsq", "history"))
	if err != nil || !strings.Contains(string(hist), ".streams") {
		t.Fatalf("history not kept: %v %q", err, hist)
	}

	// A new shell with the same history recalls the last line with Up.
	tm2 := startTmuxState(t, bin, filepath.Join(tm.dir, "state"), "--store", store)
	tm2.keys("Up")
	tm2.waitFor("tsq> .stats", 5*time.Second)
	tm2.keys("C-u", "C-d")
	if rc := tm2.waitFile("rc", 10*time.Second); rc != "0" {
		t.Fatalf("second shell: exit status %s", rc)
	}
}
