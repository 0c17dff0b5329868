package testdata

import (
	"os"
	"testing"
)

// Golden compares got with the golden file path, first rewriting the
// file with got when update is set (a test's -update flag). A mismatch
// fails the test: the bytes of a format changed, which needs a new
// version, docs/FORMAT.md and new golden files.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("%s changed; if intended, bump the format version, update docs/FORMAT.md and run with -update.\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
