package codec

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Corruption table in the style of Prometheus' wlog tests: take a valid
// encoding of each type, then try every truncation and every single-byte
// change. Each must decode to n values or fail with a *CorruptionError that
// wraps ErrCorrupt, names a section and points inside the input; none may
// panic.

type corruptCase struct {
	name string
	enc  []byte
	n    int
	// decode returns the number of values decoded and bytes consumed.
	decode func(src []byte, n int) (vals, consumed int, err error)
}

func corruptCases() []corruptCase {
	var c Encoder
	var d Decoder
	decInts := func(src []byte, n int) (int, int, error) {
		v, k, err := d.DecodeInts(nil, src, n)
		return len(v), k, err
	}
	decFloats := func(src []byte, n int) (int, int, error) {
		v, k, err := d.DecodeFloats(nil, src, n)
		return len(v), k, err
	}
	decBools := func(src []byte, n int) (int, int, error) {
		v, k, err := DecodeBools(nil, src, n)
		return len(v), k, err
	}
	decStrings := func(src []byte, n int) (int, int, error) {
		var dict Strings
		v, k, err := d.DecodeStrings(&dict, nil, src, n, 1<<20)
		for _, code := range v {
			if code < 0 || int(code) >= dict.Len() {
				return 0, 0, fmt.Errorf("code %d outside dictionary of %d", code, dict.Len())
			}
		}
		return len(v), k, err
	}
	decUvarints := func(src []byte, n int) (int, int, error) {
		v, k, err := DecodeUvarints(nil, src, n)
		return len(v), k, err
	}
	decVarints := func(src []byte, n int) (int, int, error) {
		v, k, err := DecodeVarints(nil, src, n)
		return len(v), k, err
	}

	pick := func(table []namedInts, name string) []int64 {
		for _, tc := range table {
			if tc.name == name {
				return tc.vals[:min(len(tc.vals), 300)]
			}
		}
		panic("no int case " + name)
	}
	ints := intTable()
	var cases []corruptCase
	for _, name := range []string{"timestamps irregular ns (ms jitter)", "spikes", "runs", "extremes mixed", "multiples of 1e6 with strays", "two", "one"} {
		vals := pick(ints, name)
		for _, e := range allIntEncodings {
			cases = append(cases, corruptCase{"ints " + e.String() + " " + name, c.AppendIntsAs(nil, vals, e), len(vals), decInts})
		}
	}
	floats := floatTable()
	for _, name := range []string{"gauge 3 decimals with noise", "stale markers in a series", "all specials", "decimal noise", "one"} {
		var vals []float64
		for _, tc := range floats {
			if tc.name == name {
				vals = tc.vals[:min(len(tc.vals), 200)]
			}
		}
		for _, e := range allFloatEncodings {
			cases = append(cases, corruptCase{"floats " + e.String() + " " + name, c.AppendFloatsAs(nil, vals, e), len(vals), decFloats})
		}
	}
	for _, tc := range boolTable() {
		if tc.name == "random" || tc.name == "all true" || tc.name == "len 9" {
			cases = append(cases, corruptCase{"bools " + tc.name, AppendBools(nil, tc.vals), len(tc.vals), decBools})
		}
	}
	for _, tc := range stringTable() {
		if tc.name == "series" || tc.name == "binary" || tc.name == "two" {
			vals := tc.vals[:min(len(tc.vals), 150)]
			cases = append(cases, corruptCase{"strings " + tc.name, c.AppendStrings(nil, vals), len(vals), decStrings})
			dict, codes := dictOf(vals)
			cases = append(cases, corruptCase{"dict " + tc.name, c.AppendDict(nil, &dict, codes), len(vals), decStrings})
		}
	}
	us := []uint64{0, 1, 300, math.MaxUint64, 1 << 35}
	cases = append(cases, corruptCase{"uvarints", AppendUvarints(nil, us), len(us), decUvarints})
	vs := []int64{0, -1, 300, math.MinInt64, math.MaxInt64}
	cases = append(cases, corruptCase{"varints", AppendVarints(nil, vs), len(vs), decVarints})
	return cases
}

func TestCorruption(t *testing.T) {
	for _, cc := range corruptCases() {
		t.Run(cc.name, func(t *testing.T) {
			try := func(what string, src []byte) {
				t.Helper()
				orig := slices.Clone(src)
				vals, k, err := cc.decode(src, cc.n)
				if !slices.Equal(src, orig) {
					t.Fatalf("%s: decoder wrote into src", what)
				}
				if err != nil {
					checkCorruption(t, err, src)
					return
				}
				if vals != cc.n {
					t.Fatalf("%s: decoded %d values, want %d", what, vals, cc.n)
				}
				if k < 0 || k > len(src) {
					t.Fatalf("%s: consumed %d of %d bytes", what, k, len(src))
				}
			}
			// The valid encoding decodes.
			if vals, k, err := cc.decode(cc.enc, cc.n); err != nil || vals != cc.n || k != len(cc.enc) {
				t.Fatalf("valid encoding: %d values, consumed %d of %d, err %v", vals, k, len(cc.enc), err)
			}
			for k := range len(cc.enc) {
				try(fmt.Sprintf("truncated to %d of %d", k, len(cc.enc)), cc.enc[:k:k])
			}
			flips := []byte{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff, 0x7f, 0x55}
			every := len(cc.enc) <= 256 && !testing.Short()
			bad := make([]byte, len(cc.enc))
			for i := range cc.enc {
				if every {
					for b := range 256 {
						if byte(b) == cc.enc[i] {
							continue
						}
						copy(bad, cc.enc)
						bad[i] = byte(b)
						try(fmt.Sprintf("byte %d set to %#02x", i, b), bad)
					}
					continue
				}
				for _, x := range flips {
					copy(bad, cc.enc)
					bad[i] ^= x
					try(fmt.Sprintf("byte %d ^ %#02x", i, x), bad)
				}
			}
			// Wrong counts against the valid encoding.
			for _, n := range []int{0, 1, cc.n - 1, cc.n + 1, 2 * cc.n, cc.n + 128, 1 << 16} {
				if n < 0 {
					continue
				}
				vals, k, err := cc.decode(cc.enc, n)
				if err != nil {
					checkCorruption(t, err, cc.enc)
				} else if vals != n || k > len(cc.enc) {
					t.Fatalf("count %d: %d values, consumed %d of %d", n, vals, k, len(cc.enc))
				}
			}
		})
	}
}

// TestUnknownTags checks that each self-describing decoder rejects tags it
// does not know, at offset 0.
func TestUnknownTags(t *testing.T) {
	var d Decoder
	for tag := range 256 {
		src := []byte{byte(tag), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
		known := map[string]bool{
			"ints":    tag >= 1 && tag <= 5,
			"floats":  tag >= 1 && tag <= 3,
			"bools":   tag >= 1 && tag <= 3,
			"strings": tag >= 1 && tag <= 3,
		}
		errs := map[string]error{}
		_, _, errs["ints"] = d.DecodeInts(nil, src, 1)
		_, _, errs["floats"] = d.DecodeFloats(nil, src, 1)
		_, _, errs["bools"] = DecodeBools(nil, src, 1)
		var dict Strings
		_, _, errs["strings"] = d.DecodeStrings(&dict, nil, src, 1, 100)
		for what, err := range errs {
			if known[what] {
				if err != nil {
					checkCorruption(t, err, src)
				}
				continue
			}
			if err == nil {
				t.Fatalf("%s: tag %d accepted", what, tag)
			}
			checkCorruption(t, err, src)
			var ce *CorruptionError
			_ = asCorruption(err, &ce)
			if ce.Offset != 0 {
				t.Fatalf("%s: unknown tag %d reported at offset %d: %v", what, tag, ce.Offset, err)
			}
		}
	}
	// Empty input.
	_, _, err := d.DecodeInts(nil, nil, 0)
	checkCorruption(t, err, nil)
	_, _, err = d.DecodeFloats(nil, nil, 0)
	checkCorruption(t, err, nil)
	_, _, err = DecodeBools(nil, nil, 0)
	checkCorruption(t, err, nil)
	var dict Strings
	_, _, err = d.DecodeStrings(&dict, nil, nil, 0, 10)
	checkCorruption(t, err, nil)
}

func asCorruption(err error, ce **CorruptionError) bool {
	for err != nil {
		if e, ok := err.(*CorruptionError); ok {
			*ce = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// TestNegativeCount: n comes from the caller, but a negative count must be
// an error, as DecodeInts and DecodeFloats already make it, not a panic.
func TestNegativeCount(t *testing.T) {
	var c Encoder
	var d Decoder
	inputs := map[string][]byte{
		"uvarints": AppendUvarints(nil, []uint64{1, 2, 3}),
		"varints":  AppendVarints(nil, []int64{1, 2, 3}),
		"ints":     c.AppendInts(nil, []int64{1, 2, 3}),
		"floats":   c.AppendFloats(nil, []float64{1, 2, 3}),
		"bools":    AppendBools(nil, []bool{true, false, true}),
		"boolsc":   AppendBools(nil, []bool{true, true, true}),
		"strings":  c.AppendStrings(nil, []string{"a", "b", "c"}),
		"dict":     c.AppendStrings(nil, []string{"a", "a", "a", "a"}),
	}
	for name, src := range inputs {
		for _, n := range []int{-1, -8, math.MinInt} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("panic: %v", p)
					}
				}()
				var err error
				switch name {
				case "uvarints":
					_, _, err = DecodeUvarints(nil, src, n)
				case "varints":
					_, _, err = DecodeVarints(nil, src, n)
				case "ints":
					_, _, err = d.DecodeInts(nil, src, n)
				case "floats":
					_, _, err = d.DecodeFloats(nil, src, n)
				case "bools", "boolsc":
					_, _, err = DecodeBools(nil, src, n)
				case "strings", "dict":
					var dict Strings
					_, _, err = d.DecodeStrings(&dict, nil, src, n, 100)
				}
				if err == nil {
					t.Fatal("negative count accepted")
				}
				checkCorruption(t, err, src)
			})
		}
	}
}

// TestHugeCount: for encodings whose size grows with the count (all but
// RLE ints and constant bools, which may legitimately describe n values in
// a few bytes and so allocate O(n)), a count far beyond what the input can
// hold must fail cleanly before allocating for it.
func TestHugeCount(t *testing.T) {
	var c Encoder
	var d Decoder
	plainStrings := append([]byte{byte(StringPlain)}, c.AppendIntsAs(nil, []int64{1, 2}, IntPacked)...)
	plainStrings = append(plainStrings, "abc"...)
	for _, n := range []int{1 << 40, 1 << 61, math.MaxInt / 8, math.MaxInt/8 + 1, math.MaxInt - 6, math.MaxInt} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			check := func(what string, src []byte, decode func() error) {
				t.Helper()
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s: count %d: panic: %v", what, n, p)
					}
				}()
				if err := decode(); err == nil {
					t.Errorf("%s: count %d accepted", what, n)
				} else {
					checkCorruption(t, err, src)
				}
			}
			for _, e := range allFloatEncodings {
				src := c.AppendFloatsAs(nil, []float64{1.5, 2.25, 3.125}, e)
				check("floats "+e.String(), src, func() error { _, _, err := d.DecodeFloats(nil, src, n); return err })
			}
			for _, e := range []IntEncoding{IntPacked, IntDelta, IntDoD, IntVarint} {
				src := c.AppendIntsAs(nil, []int64{1, 2, 3}, e)
				check("ints "+e.String(), src, func() error { _, _, err := d.DecodeInts(nil, src, n); return err })
			}
			src := AppendBools(nil, []bool{true, false})
			check("bools bitmap", src, func() error { _, _, err := DecodeBools(nil, src, n); return err })
			check("strings plain", plainStrings, func() error {
				var dict Strings
				_, _, err := d.DecodeStrings(&dict, nil, plainStrings, n, 100)
				return err
			})
			u := []byte{1, 2, 3}
			check("uvarints", u, func() error { _, _, err := DecodeUvarints(nil, u, n); return err })
			check("varints", u, func() error { _, _, err := DecodeVarints(nil, u, n); return err })
		})
	}
}
