package jsontext

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestAppendString: every string, valid UTF-8 or not, becomes valid JSON
// that reads back as the string (invalid bytes as U+FFFD), strings and
// bytes alike.
func TestAppendString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{"q\"b\\", `"q\"b\\"`},
		{"\n\r\t\b\f\x01\x1f", `"\n\r\t\b\f\u0001\u001f"`},
		{"é€😀", `"é€😀"`},
		{"a\xffb\xc3", `"a\ufffdb\ufffd"`},
		{"\u2028\u2029", `"\u2028\u2029"`},
	} {
		for _, got := range []string{string(AppendString(nil, c.in)), string(AppendString(nil, []byte(c.in)))} {
			if got != c.want {
				t.Errorf("%q: %s, want %s", c.in, got, c.want)
			}
			var back string
			if err := json.Unmarshal([]byte(got), &back); err != nil || utf8.ValidString(c.in) && back != c.in {
				t.Errorf("%q: %s reads back as %q, %v", c.in, got, back, err)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\xff\u2028\"")
	f.Fuzz(func(t *testing.T, s string) {
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q gave invalid JSON %s: %v", s, out, err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("%q read back as %q", s, back)
		}
	})
}
