package main

import (
	"reflect"
	"testing"
)

func TestSplitter(t *testing.T) {
	var sp splitter
	got := sp.feed("SELECT 1; SELECT ';' -- a ; comment\n FROM x;\nSELECT\n")
	want := []string{"SELECT 1", "SELECT ';' \n FROM x"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q want %q", got, want)
	}
	if sp.pending() != "SELECT" {
		t.Fatalf("pending %q", sp.pending())
	}
	if got := sp.feed(" 2 ;;"); !reflect.DeepEqual(got, []string{"SELECT\n 2"}) {
		t.Fatalf("got %q", got)
	}
	for text, want := range map[string]bool{
		"SELECT 1;":       true,
		"SELECT 1; ":      true,
		"SELECT ';":       false,
		"SELECT 1":        false,
		"SELECT 1; x":     false,
		"SELECT 1 -- ;":   false,
		"SELECT \"a;b\";": true,
	} {
		if complete(text) != want {
			t.Errorf("complete(%q) = %v", text, !want)
		}
	}
}
