package codec

import (
	"fmt"
	"testing"
)

// TestNestedInts: DecodeStrings reports the encodings of the ints each
// string encoding nests, and AppendStringsNested with them writes the
// same bytes; other given encodings are written as given.
func TestNestedInts(t *testing.T) {
	var c Encoder
	var d Decoder
	vals := make([]string, 600)
	for i := range vals {
		vals[i] = fmt.Sprintf("key-%06d", i*7)
	}
	hosts := make([]string, 600)
	for i := range hosts {
		hosts[i] = fmt.Sprintf("host%02d", i%13)
	}
	for _, e := range []StringEncoding{StringPlain, StringDict, StringPrefix} {
		for _, src := range [][]string{vals, hosts} {
			var dict Strings
			for _, v := range src {
				dict.AppendString(v)
			}
			codes := make([]int32, len(src))
			for i := range codes {
				codes[i] = int32(i)
			}
			enc := c.AppendStringsAs(nil, &dict, codes, e)
			var got Strings
			if _, _, err := d.DecodeStrings(&got, nil, enc, len(src), 1<<20); err != nil {
				t.Fatal(err)
			}
			nested := d.Nested()
			if nested[0] == 0 || (e == StringPlain) != (nested[1] == 0) {
				t.Fatalf("%v: nested %v", e, nested)
			}
			if again := c.AppendStringsNested(nil, &dict, codes, e, nested); string(again) != string(enc) {
				t.Fatalf("%v: re-encoded with its nested encodings %v, the bytes differ", e, nested)
			}
			forced := NestedInts{IntVarint, IntVarint}
			out := c.AppendStringsNested(nil, &dict, codes, e, forced)
			if _, _, err := d.DecodeStrings(&got, nil, out, len(src), 1<<20); err != nil {
				t.Fatal(err)
			}
			if n := d.Nested(); n[0] != IntVarint || (e != StringPlain && n[1] != IntVarint) {
				t.Fatalf("%v: forced varints, nested %v", e, n)
			}
			if again := c.AppendStringsAs(nil, &dict, codes, e); string(again) != string(enc) {
				t.Fatalf("%v: the nested encodings outlived AppendStringsNested", e)
			}
		}
	}
}
