package tsq

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateStreamName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"cpu", true},
		{"a", true},
		{"0", true},
		{"osm.changes-2013_04", true},
		{strings.Repeat("a", 64), true},
		{"", false},
		{strings.Repeat("a", 65), false},
		{"../x", false},
		{"..", false},
		{".", false},
		{"a/b", false},
		{`a\b`, false},
		{"CPU", false},
		{"-x", false},
		{"_x", false},
		{".hidden", false},
		{"a b", false},
		{"é", false},
		{"a\x00b", false},
	} {
		err := ValidateStreamName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateStreamName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidStreamName) {
			t.Errorf("ValidateStreamName(%q) error %v does not wrap ErrInvalidStreamName", tc.name, err)
		}
	}
}
