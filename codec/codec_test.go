package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// These tests use only the exported API, so that they hold across changes
// to the internals.

var (
	allIntEncodings   = []IntEncoding{IntPacked, IntDelta, IntDoD, IntRLE, IntVarint}
	allFloatEncodings = []FloatEncoding{FloatRaw, FloatXOR, FloatDecimal}
)

// trailer is appended after encodings to check that decoders stop exactly
// at the end of theirs and never touch what follows.
var trailer = []byte{0xde, 0xad, 0xbe, 0xef, 0xff, 0x80, 0x00, 0x7f}

type namedInts struct {
	name string
	vals []int64
}

type namedFloats struct {
	name string
	vals []float64
}

const tsBase = int64(1_700_000_000_000_000_000) // ns

func intTable() []namedInts {
	r := rand.New(rand.NewPCG(1, 2))
	seq := func(n int, f func(i int) int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	runs := func() []int64 {
		var s []int64
		for k, l := range []int{500, 1, 300, 2, 129, 7} {
			for range l {
				s = append(s, int64(k%3)*1000-1)
			}
		}
		return s
	}
	counter := func() []int64 {
		s := make([]int64, 1000)
		var c int64
		for i := range s {
			if i%211 == 210 {
				c = 0 // reset
			} else {
				c += r.Int64N(50)
			}
			s[i] = c
		}
		return s
	}
	return []namedInts{
		{"empty", nil},
		{"one", []int64{42}},
		{"one zero", []int64{0}},
		{"one min", []int64{math.MinInt64}},
		{"one max", []int64{math.MaxInt64}},
		{"two", []int64{1, 2}},
		{"two equal", []int64{-5, -5}},
		{"two extremes", []int64{math.MinInt64, math.MaxInt64}},
		{"two extremes reversed", []int64{math.MaxInt64, math.MinInt64}},
		{"three extremes", []int64{math.MaxInt64, math.MinInt64, math.MaxInt64}},
		{"runs", runs()},
		{"constant", seq(1000, func(int) int64 { return 123456789 })},
		{"constant min", seq(300, func(int) int64 { return math.MinInt64 })},
		{"constant max", seq(300, func(int) int64 { return math.MaxInt64 })},
		{"alternating extremes", seq(300, func(i int) int64 {
			if i%2 == 0 {
				return math.MinInt64
			}
			return math.MaxInt64
		})},
		{"extremes mixed", seq(300, func(i int) int64 {
			return []int64{math.MinInt64, -1, 0, 1, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1}[i%7]
		})},
		{"near max ascending", seq(260, func(i int) int64 { return math.MaxInt64 - 259 + int64(i) })},
		{"near min descending", seq(260, func(i int) int64 { return math.MinInt64 + 259 - int64(i) })},
		{"wrapping deltas", seq(400, func(i int) int64 { return int64(uint64(i) * 0x9e3779b97f4a7c15) })},
		{"timestamps regular ns", seq(1000, func(i int) int64 { return tsBase + int64(i)*15e9 })},
		{"timestamps regular ns 129", seq(129, func(i int) int64 { return tsBase + int64(i)*1e9 })},
		{"timestamps irregular ns (ms jitter)", seq(1000, func(i int) int64 { return tsBase + int64(i)*15e9 + r.Int64N(5)*1e6 })},
		{"timestamps irregular ns (ns jitter)", seq(1000, func(i int) int64 { return tsBase + int64(i)*10e9 + r.Int64N(1e6) })},
		{"timestamps with gaps", seq(700, func(i int) int64 {
			t := tsBase + int64(i)*60e9
			if i > 300 {
				t += 3600e9
			}
			return t
		})},
		{"counter with resets", counter()},
		{"small random", seq(1000, func(int) int64 { return r.Int64N(200) - 100 })},
		{"random 64 bit", seq(500, func(int) int64 { return int64(r.Uint64()) })},
		{"spikes", seq(600, func(i int) int64 {
			if i%97 == 13 {
				return 1 << 50
			}
			if i%89 == 7 {
				return -1 << 48
			}
			return int64(i % 16)
		})},
		{"multiples of 1e6 with strays", seq(1000, func(i int) int64 {
			if i%300 == 299 {
				return int64(i)*1e6 + 1
			}
			return int64(i) * 1e6
		})},
		// 2^64-1 is a multiple of 3 and 5, so these negative values share
		// a divisor with the positive ones in wrapping arithmetic.
		{"negative with wrapping divisor 3", seq(300, func(i int) int64 {
			if i%2 == 0 {
				return int64(3 * i)
			}
			return -1 - int64(3*i)
		})},
		{"negative with wrapping divisor 5", seq(300, func(i int) int64 {
			if i%3 == 0 {
				return 5 * int64(i)
			}
			return -1 - 5*int64(i)
		})},
		{"len 127", seq(127, func(i int) int64 { return int64(i * i) })},
		{"len 128", seq(128, func(i int) int64 { return int64(i * i) })},
		{"len 129", seq(129, func(i int) int64 { return int64(i * i) })},
		{"len 256", seq(256, func(i int) int64 { return int64(i*i) - 5000 })},
		{"len 257", seq(257, func(i int) int64 { return int64(i*i) - 5000 })},
		{"powers of two", seq(64, func(i int) int64 { return int64(uint64(1) << i) })},
	}
}

func fbits(b uint64) float64 { return math.Float64frombits(b) }

const staleNaN = 0x7ff0000000000002 // Prometheus stale marker

func floatTable() []namedFloats {
	r := rand.New(rand.NewPCG(3, 4))
	seq := func(n int, f func(i int) float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	specials := []float64{
		fbits(0x7ff8000000000000), fbits(0x7ff8000000000001), fbits(0x7ff0000000000001),
		fbits(0xfff8000000000000), fbits(0x7fffffffffffffff), fbits(0xffffffffffffffff),
		fbits(staleNaN), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, fbits(0x000fffffffffffff),
		0x1p-1022, math.MaxFloat64, -math.MaxFloat64,
		0.1, 0.20199999999999999, 94.79799999999999, 1e300, -1e300, 1e-300,
		1 << 53, 1<<53 + 2, 1 << 63, 1e18, -(1 << 60), 9007199254740993,
	}
	return []namedFloats{
		{"empty", nil},
		{"one", []float64{1.5}},
		{"one zero", []float64{0}},
		{"two", []float64{0.1, 0.2}},
		{"nan payloads", []float64{fbits(0x7ff8000000000000), fbits(0x7ff8000000000001), fbits(0x7ff0000000000001), fbits(0xfff8000000000000), fbits(0x7fffffffffffffff), fbits(0xfff0000000000001), fbits(0x7ff4000000000000)}},
		{"stale marker", []float64{fbits(staleNaN)}},
		{"stale markers in a series", seq(300, func(i int) float64 {
			if i%10 == 9 {
				return fbits(staleNaN)
			}
			return float64(i) / 4
		})},
		{"+inf", []float64{math.Inf(1)}},
		{"-inf", []float64{math.Inf(-1)}},
		{"-0", []float64{math.Copysign(0, -1)}},
		{"+0 and -0", []float64{0, math.Copysign(0, -1), 0, math.Copysign(0, -1)}},
		{"smallest denormal", []float64{math.SmallestNonzeroFloat64}},
		{"denormals", []float64{math.SmallestNonzeroFloat64, fbits(2), fbits(0x000fffffffffffff), -math.SmallestNonzeroFloat64}},
		{"max float64", []float64{math.MaxFloat64, -math.MaxFloat64}},
		{"decimal noise", []float64{0.1, 0.20199999999999999, 94.79799999999999, 94.798, 0.30000000000000004}},
		{"1e300", []float64{1e300, -1e300, 1e300}},
		{"integers >= 2^53", []float64{1 << 53, 1<<53 + 2, 1 << 54, 1 << 63, 1e18, 1e22, 9007199254740993}},
		{"mixed signs", seq(300, func(i int) float64 { return float64(i%7-3) * 1.25 })},
		{"all specials", specials},
		{"specials repeated", seq(400, func(i int) float64 { return specials[i%len(specials)] })},
		{"prices 2 decimals", seq(1000, func(int) float64 { return float64(r.IntN(100000)) / 100 })},
		{"gauge 3 decimals with noise", seq(500, func(i int) float64 {
			v := float64(50000+r.IntN(1000)) / 1000
			if i%5 == 0 {
				v = math.Nextafter(v, math.Inf(1))
			}
			return v
		})},
		{"counter", seq(1000, func(i int) float64 { return float64(i * 17) })},
		{"constant", seq(500, func(int) float64 { return 42.5 })},
		{"normal", seq(500, func(int) float64 { return r.NormFloat64() })},
		{"random bit patterns", seq(300, func(int) float64 { return fbits(r.Uint64()) })},
		{"len 129", seq(129, func(i int) float64 { return float64(i) * 0.001 })},
	}
}

func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func firstFloatDiff(a, b []float64) string {
	if len(a) != len(b) {
		return fmt.Sprintf("length %d, want %d", len(a), len(b))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return fmt.Sprintf("value %d: %016x (%v), want %016x (%v)", i, math.Float64bits(a[i]), a[i], math.Float64bits(b[i]), b[i])
		}
	}
	return "equal"
}

func firstIntDiff(a, b []int64) string {
	if len(a) != len(b) {
		return fmt.Sprintf("length %d, want %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("value %d: %d, want %d", i, a[i], b[i])
		}
	}
	return "equal"
}

// checkCorruption asserts that err is a well-formed decode error for src.
func checkCorruption(t testing.TB, err error, src []byte) {
	t.Helper()
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("error %v does not wrap ErrCorrupt", err)
	}
	var ce *CorruptionError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v is not a *CorruptionError", err)
	}
	if ce.Section == "" {
		t.Fatalf("error %v has an empty Section", err)
	}
	if ce.Offset < 0 || ce.Offset > int64(len(src)) {
		t.Fatalf("error %v: offset %d outside the %d-byte input", err, ce.Offset, len(src))
	}
}

// intEncoders lists the ways to encode ints: auto and each encoding.
type intEnc struct {
	name string
	fn   func(c *Encoder, dst []byte, src []int64) []byte
}

func intEncoders() []intEnc {
	encs := []intEnc{{"auto", func(c *Encoder, dst []byte, src []int64) []byte { return c.AppendInts(dst, src) }}}
	for _, e := range allIntEncodings {
		encs = append(encs, intEnc{e.String(), func(c *Encoder, dst []byte, src []int64) []byte { return c.AppendIntsAs(dst, src, e) }})
	}
	return encs
}

type floatEnc struct {
	name string
	fn   func(c *Encoder, dst []byte, src []float64) []byte
}

func floatEncoders() []floatEnc {
	encs := []floatEnc{{"auto", func(c *Encoder, dst []byte, src []float64) []byte { return c.AppendFloats(dst, src) }}}
	for _, e := range allFloatEncodings {
		encs = append(encs, floatEnc{e.String(), func(c *Encoder, dst []byte, src []float64) []byte { return c.AppendFloatsAs(dst, src, e) }})
	}
	return encs
}

func TestIntsRoundTrip(t *testing.T) {
	for _, tc := range intTable() {
		for _, enc := range intEncoders() {
			t.Run(tc.name+"/"+enc.name, func(t *testing.T) {
				var c Encoder
				buf := enc.fn(&c, nil, tc.vals)
				if len(buf) == 0 {
					t.Fatal("empty encoding")
				}
				if enc.name != "auto" && IntEncoding(buf[0]).String() != enc.name {
					t.Fatalf("tag %v, want %s", IntEncoding(buf[0]), enc.name)
				}
				in := slices.Clone(tc.vals)
				var d Decoder
				got, k, err := d.DecodeInts(nil, buf, len(tc.vals))
				if err != nil {
					t.Fatalf("decode %d bytes: %v", len(buf), err)
				}
				if k != len(buf) {
					t.Fatalf("consumed %d of %d bytes", k, len(buf))
				}
				if !slices.Equal(got, tc.vals) {
					t.Fatalf("round trip: %s", firstIntDiff(got, tc.vals))
				}
				if !slices.Equal(in, tc.vals) {
					t.Fatal("encoder modified its input")
				}
				// Encoding again with the warm encoder gives the same bytes.
				if again := enc.fn(&c, nil, tc.vals); !bytes.Equal(again, buf) {
					t.Fatalf("re-encoding with a warm Encoder differs: %d vs %d bytes", len(again), len(buf))
				}
			})
		}
	}
}

// TestAutoIntsReasonable checks that the self-describing entry point never
// loses much against the encodings it chooses from.
func TestAutoIntsReasonable(t *testing.T) {
	for _, tc := range intTable() {
		var c Encoder
		auto := len(c.AppendInts(nil, tc.vals))
		best := math.MaxInt
		for _, e := range allIntEncodings {
			best = min(best, len(c.AppendIntsAs(nil, tc.vals, e)))
		}
		// AppendInts may estimate; allow a little slack but no blow-up.
		if auto > best+best/4+16 {
			t.Errorf("%s: AppendInts wrote %d bytes, best encoding %d", tc.name, auto, best)
		}
	}
}

func TestFloatsRoundTrip(t *testing.T) {
	for _, tc := range floatTable() {
		for _, enc := range floatEncoders() {
			t.Run(tc.name+"/"+enc.name, func(t *testing.T) {
				var c Encoder
				in := slices.Clone(tc.vals)
				buf := enc.fn(&c, nil, tc.vals)
				if len(buf) == 0 {
					t.Fatal("empty encoding")
				}
				if enc.name != "auto" && FloatEncoding(buf[0]).String() != enc.name {
					t.Fatalf("tag %v, want %s", FloatEncoding(buf[0]), enc.name)
				}
				var d Decoder
				got, k, err := d.DecodeFloats(nil, buf, len(tc.vals))
				if err != nil {
					t.Fatalf("decode %d bytes: %v", len(buf), err)
				}
				if k != len(buf) {
					t.Fatalf("consumed %d of %d bytes", k, len(buf))
				}
				if !sameFloats(got, tc.vals) {
					t.Fatalf("round trip: %s", firstFloatDiff(got, tc.vals))
				}
				if !sameFloats(in, tc.vals) {
					t.Fatal("encoder modified its input")
				}
				if again := enc.fn(&c, nil, tc.vals); !bytes.Equal(again, buf) {
					t.Fatalf("re-encoding with a warm Encoder differs: %d vs %d bytes", len(again), len(buf))
				}
			})
		}
	}
}

func TestAutoFloatsNotLargerThanRaw(t *testing.T) {
	for _, tc := range floatTable() {
		var c Encoder
		auto := len(c.AppendFloats(nil, tc.vals))
		raw := len(c.AppendFloatsAs(nil, tc.vals, FloatRaw))
		if auto > raw {
			t.Errorf("%s: AppendFloats wrote %d bytes, raw is %d", tc.name, auto, raw)
		}
	}
}

// Every single-value float: each special alone, in every encoding.
func TestFloatSpecialsAlone(t *testing.T) {
	for _, tc := range floatTable() {
		for _, v := range tc.vals {
			for _, enc := range floatEncoders() {
				var c Encoder
				var d Decoder
				src := []float64{v}
				buf := enc.fn(&c, nil, src)
				got, k, err := d.DecodeFloats(nil, buf, 1)
				if err != nil || k != len(buf) || !sameFloats(got, src) {
					t.Fatalf("%s %016x: got %v (consumed %d of %d), err %v", enc.name, math.Float64bits(v), got, k, len(buf), err)
				}
			}
		}
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	prefix := []byte("prefix\x00\xff\x80")
	withPrefix := func(extraCap int) []byte {
		p := make([]byte, len(prefix), len(prefix)+extraCap)
		copy(p, prefix)
		return p
	}
	check := func(t *testing.T, name string, plain, out []byte) {
		t.Helper()
		if !bytes.Equal(out[:len(prefix)], prefix) {
			t.Fatalf("%s changed dst's prefix: %q", name, out[:len(prefix)])
		}
		if !bytes.Equal(out[len(prefix):], plain) {
			t.Fatalf("%s appended %d bytes after a prefix, %d without", name, len(out)-len(prefix), len(plain))
		}
	}
	for _, extra := range []int{0, 1 << 16} {
		t.Run(fmt.Sprintf("cap+%d", extra), func(t *testing.T) {
			for _, tc := range intTable() {
				for _, enc := range intEncoders() {
					var c Encoder
					check(t, tc.name+"/"+enc.name, enc.fn(&c, nil, tc.vals), enc.fn(&c, withPrefix(extra), tc.vals))
				}
			}
			for _, tc := range floatTable() {
				for _, enc := range floatEncoders() {
					var c Encoder
					check(t, tc.name+"/"+enc.name, enc.fn(&c, nil, tc.vals), enc.fn(&c, withPrefix(extra), tc.vals))
				}
			}
			for _, tc := range boolTable() {
				check(t, "bools "+tc.name, AppendBools(nil, tc.vals), AppendBools(withPrefix(extra), tc.vals))
			}
			for _, tc := range stringTable() {
				var c Encoder
				check(t, "strings "+tc.name, c.AppendStrings(nil, tc.vals), c.AppendStrings(withPrefix(extra), tc.vals))
				dict, codes := dictOf(tc.vals)
				check(t, "dict "+tc.name, c.AppendDict(nil, &dict, codes), c.AppendDict(withPrefix(extra), &dict, codes))
			}
			u := []uint64{0, 1, 127, 128, math.MaxUint64}
			check(t, "uvarints", AppendUvarints(nil, u), AppendUvarints(withPrefix(extra), u))
			v := []int64{0, -1, 1, math.MinInt64, math.MaxInt64}
			check(t, "varints", AppendVarints(nil, v), AppendVarints(withPrefix(extra), v))
		})
	}
}

// TestDecodersStopAtTheirEnd appends a trailer after each encoding: the
// decoders must report exactly the encoding's length as consumed, return
// the values, and leave src (encoding and trailer) untouched.
func TestDecodersStopAtTheirEnd(t *testing.T) {
	withTrailer := func(b []byte) ([]byte, []byte) {
		src := append(slices.Clip(b), trailer...)
		return src, slices.Clone(src)
	}
	for _, tc := range intTable() {
		for _, enc := range intEncoders() {
			var c Encoder
			var d Decoder
			buf := enc.fn(&c, nil, tc.vals)
			src, orig := withTrailer(buf)
			got, k, err := d.DecodeInts(nil, src, len(tc.vals))
			if err != nil || k != len(buf) || !slices.Equal(got, tc.vals) {
				t.Fatalf("ints %s/%s: consumed %d of %d, err %v, %s", tc.name, enc.name, k, len(buf), err, firstIntDiff(got, tc.vals))
			}
			if !bytes.Equal(src, orig) {
				t.Fatalf("ints %s/%s: decoder wrote into src", tc.name, enc.name)
			}
		}
	}
	for _, tc := range floatTable() {
		for _, enc := range floatEncoders() {
			var c Encoder
			var d Decoder
			buf := enc.fn(&c, nil, tc.vals)
			src, orig := withTrailer(buf)
			got, k, err := d.DecodeFloats(nil, src, len(tc.vals))
			if err != nil || k != len(buf) || !sameFloats(got, tc.vals) {
				t.Fatalf("floats %s/%s: consumed %d of %d, err %v, %s", tc.name, enc.name, k, len(buf), err, firstFloatDiff(got, tc.vals))
			}
			if !bytes.Equal(src, orig) {
				t.Fatalf("floats %s/%s: decoder wrote into src", tc.name, enc.name)
			}
		}
	}
	for _, tc := range boolTable() {
		buf := AppendBools(nil, tc.vals)
		src, orig := withTrailer(buf)
		got, k, err := DecodeBools(nil, src, len(tc.vals))
		if err != nil || k != len(buf) || !slices.Equal(got, tc.vals) {
			t.Fatalf("bools %s: consumed %d of %d, err %v, got %v", tc.name, k, len(buf), err, got)
		}
		if !bytes.Equal(src, orig) {
			t.Fatalf("bools %s: decoder wrote into src", tc.name)
		}
	}
	for _, tc := range stringTable() {
		var c Encoder
		dict, codes := dictOf(tc.vals)
		for name, buf := range map[string][]byte{"strings": c.AppendStrings(nil, tc.vals), "dict": c.AppendDict(nil, &dict, codes)} {
			var d Decoder
			src, orig := withTrailer(buf)
			var out Strings
			got, k, err := d.DecodeStrings(&out, nil, src, len(tc.vals), 1<<30)
			if err != nil || k != len(buf) {
				t.Fatalf("%s %s: consumed %d of %d, err %v", name, tc.name, k, len(buf), err)
			}
			checkStrings(t, name+" "+tc.name, &out, got, tc.vals)
			if !bytes.Equal(src, orig) {
				t.Fatalf("%s %s: decoder wrote into src", name, tc.name)
			}
		}
	}
	u := []uint64{0, 1, 127, 128, 16383, 16384, math.MaxUint64}
	buf := AppendUvarints(nil, u)
	src, _ := withTrailer(buf)
	gu, k, err := DecodeUvarints(nil, src, len(u))
	if err != nil || k != len(buf) || !slices.Equal(gu, u) {
		t.Fatalf("uvarints: %v consumed %d of %d, err %v", gu, k, len(buf), err)
	}
	v := []int64{0, -1, 1, -64, 64, math.MinInt64, math.MaxInt64}
	buf = AppendVarints(nil, v)
	src, _ = withTrailer(buf)
	gv, k, err := DecodeVarints(nil, src, len(v))
	if err != nil || k != len(buf) || !slices.Equal(gv, v) {
		t.Fatalf("varints: %v consumed %d of %d, err %v", gv, k, len(buf), err)
	}
}

// TestDecodeReusesDst decodes twice into the same slice: the second decode
// must reuse its backing array.
func TestDecodeReusesDst(t *testing.T) {
	var c Encoder
	var d Decoder
	for _, tc := range intTable() {
		if len(tc.vals) == 0 {
			continue
		}
		for _, enc := range intEncoders() {
			buf := enc.fn(&c, nil, tc.vals)
			dst := make([]int64, 3, len(tc.vals)+5)
			for i := range dst {
				dst[i] = -77 // stale content must not leak
			}
			got, _, err := d.DecodeInts(dst, buf, len(tc.vals))
			if err != nil || !slices.Equal(got, tc.vals) {
				t.Fatalf("%s/%s: %v %s", tc.name, enc.name, err, firstIntDiff(got, tc.vals))
			}
			if &got[0] != &dst[:1][0] {
				t.Fatalf("%s/%s: DecodeInts reallocated a dst with enough capacity", tc.name, enc.name)
			}
			got2, _, err := d.DecodeInts(got, buf, len(tc.vals))
			if err != nil || !slices.Equal(got2, tc.vals) || &got2[0] != &got[0] {
				t.Fatalf("%s/%s: second decode into the same slice: %v, reused %v", tc.name, enc.name, err, &got2[0] == &got[0])
			}
		}
	}
	for _, tc := range floatTable() {
		if len(tc.vals) == 0 {
			continue
		}
		for _, enc := range floatEncoders() {
			buf := enc.fn(&c, nil, tc.vals)
			dst := make([]float64, 1, len(tc.vals))
			dst[0] = math.NaN()
			got, _, err := d.DecodeFloats(dst, buf, len(tc.vals))
			if err != nil || !sameFloats(got, tc.vals) || &got[0] != &dst[0] {
				t.Fatalf("%s/%s: %v %s, reused %v", tc.name, enc.name, err, firstFloatDiff(got, tc.vals), &got[0] == &dst[0])
			}
			got2, _, err := d.DecodeFloats(got, buf, len(tc.vals))
			if err != nil || !sameFloats(got2, tc.vals) || &got2[0] != &got[0] {
				t.Fatalf("%s/%s: second decode into the same slice: %v", tc.name, enc.name, err)
			}
		}
	}
	for _, tc := range boolTable() {
		if len(tc.vals) == 0 {
			continue
		}
		buf := AppendBools(nil, tc.vals)
		dst := make([]bool, 0, len(tc.vals))
		got, _, err := DecodeBools(dst, buf, len(tc.vals))
		if err != nil || !slices.Equal(got, tc.vals) || &got[0] != &dst[:1][0] {
			t.Fatalf("bools %s: %v", tc.name, err)
		}
	}
	u := []uint64{1, 2, 300}
	du := make([]uint64, 0, 8)
	gu, _, err := DecodeUvarints(du, AppendUvarints(nil, u), 3)
	if err != nil || !slices.Equal(gu, u) || &gu[0] != &du[:1][0] {
		t.Fatalf("uvarints: %v %v", gu, err)
	}
	v := []int64{-1, 2, -300}
	dv := make([]int64, 0, 8)
	gv, _, err := DecodeVarints(dv, AppendVarints(nil, v), 3)
	if err != nil || !slices.Equal(gv, v) || &gv[0] != &dv[:1][0] {
		t.Fatalf("varints: %v %v", gv, err)
	}
}

// allocCases are realistic columns whose encodings exercise every path:
// miniblocks with exceptions, decimal patches, XOR and raw floats.
func allocInts() []namedInts {
	var out []namedInts
	for _, tc := range intTable() {
		switch tc.name {
		case "timestamps regular ns", "timestamps irregular ns (ns jitter)", "counter with resets", "spikes", "runs", "multiples of 1e6 with strays", "random 64 bit":
			out = append(out, tc)
		}
	}
	return out
}

func allocFloats() []namedFloats {
	var out []namedFloats
	for _, tc := range floatTable() {
		switch tc.name {
		case "prices 2 decimals", "gauge 3 decimals with noise", "stale markers in a series", "normal", "random bit patterns", "specials repeated":
			out = append(out, tc)
		}
	}
	return out
}

func TestDecodeNoAllocsWhenWarm(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	var c Encoder
	for _, tc := range allocInts() {
		for _, enc := range intEncoders() {
			buf := enc.fn(&c, nil, tc.vals)
			var d Decoder
			dst := make([]int64, len(tc.vals))
			var err error
			allocs := testing.AllocsPerRun(20, func() {
				dst, _, err = d.DecodeInts(dst, buf, len(tc.vals))
			})
			if err != nil {
				t.Fatal(err)
			}
			if allocs != 0 {
				t.Errorf("DecodeInts %s/%s (%v): %v allocs per run with a warm Decoder", tc.name, enc.name, IntEncoding(buf[0]), allocs)
			}
		}
	}
	for _, tc := range allocFloats() {
		for _, enc := range floatEncoders() {
			buf := enc.fn(&c, nil, tc.vals)
			var d Decoder
			dst := make([]float64, len(tc.vals))
			var err error
			allocs := testing.AllocsPerRun(20, func() {
				dst, _, err = d.DecodeFloats(dst, buf, len(tc.vals))
			})
			if err != nil {
				t.Fatal(err)
			}
			if allocs != 0 {
				t.Errorf("DecodeFloats %s/%s (%v): %v allocs per run with a warm Decoder", tc.name, enc.name, FloatEncoding(buf[0]), allocs)
			}
		}
	}
}

func TestEncodeNoAllocsWhenWarm(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	for _, tc := range allocInts() {
		var c Encoder
		dst := make([]byte, 0, 16+10*len(tc.vals)+64)
		allocs := testing.AllocsPerRun(20, func() {
			dst = c.AppendInts(dst[:0], tc.vals)
		})
		if allocs != 0 {
			t.Errorf("AppendInts %s: %v allocs per run with a warm Encoder", tc.name, allocs)
		}
	}
	for _, tc := range allocFloats() {
		var c Encoder
		dst := make([]byte, 0, 16+10*len(tc.vals)+64)
		allocs := testing.AllocsPerRun(20, func() {
			dst = c.AppendFloats(dst[:0], tc.vals)
		})
		if allocs != 0 {
			t.Errorf("AppendFloats %s: %v allocs per run with a warm Encoder", tc.name, allocs)
		}
	}
}

type namedBools struct {
	name string
	vals []bool
}

func boolTable() []namedBools {
	r := rand.New(rand.NewPCG(5, 6))
	seq := func(n int, f func(i int) bool) []bool {
		s := make([]bool, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	return []namedBools{
		{"empty", nil},
		{"one true", []bool{true}},
		{"one false", []bool{false}},
		{"two", []bool{false, true}},
		{"all true", seq(100, func(int) bool { return true })},
		{"all false", seq(1000, func(int) bool { return false })},
		{"alternating", seq(99, func(i int) bool { return i%2 == 0 })},
		{"len 7", seq(7, func(i int) bool { return i == 6 })},
		{"len 8", seq(8, func(i int) bool { return i == 7 })},
		{"len 9", seq(9, func(i int) bool { return i == 8 })},
		{"last differs", seq(65, func(i int) bool { return i == 64 })},
		{"random", seq(333, func(int) bool { return r.IntN(2) == 0 })},
		{"sparse true", seq(1467, func(i int) bool { return i%300 == 7 })},
		{"sparse false", seq(1000, func(i int) bool { return i != 3 && i != 999 })},
		{"sparse far", seq(100_000, func(i int) bool { return i == 0 || i == 99_999 })},
		{"one in nine", seq(900, func(i int) bool { return i%9 == 0 })},
	}
}

// sparseRef is the size of BoolSparse for src, listing its rarer value
// (true on a tie), or a size past any bitmap when that value is one in
// eight or more.
func sparseRef(src []bool) int {
	var pos [2][]int
	for i, v := range src {
		k := 0
		if v {
			k = 1
		}
		pos[k] = append(pos[k], i)
	}
	p := pos[1]
	if len(pos[0]) < len(pos[1]) {
		p = pos[0]
	}
	if 8*len(p) >= len(src) {
		return math.MaxInt
	}
	size := 2 + len(binary.AppendUvarint(nil, uint64(len(p))))
	last := -1
	for _, i := range p {
		size += len(binary.AppendUvarint(nil, uint64(i-last-1)))
		last = i
	}
	return size
}

func TestBoolsRoundTrip(t *testing.T) {
	for _, tc := range boolTable() {
		t.Run(tc.name, func(t *testing.T) {
			buf := AppendBools(nil, tc.vals)
			got, k, err := DecodeBools(nil, buf, len(tc.vals))
			if err != nil || k != len(buf) || !slices.Equal(got, tc.vals) {
				t.Fatalf("got %v consumed %d of %d, err %v", got, k, len(buf), err)
			}
			wantTag := BoolBitmap
			if len(tc.vals) > 0 && !slices.Contains(tc.vals, !tc.vals[0]) {
				wantTag = BoolConst
			} else if sparseRef(tc.vals) < 1+(len(tc.vals)+7)/8 {
				wantTag = BoolSparse
			}
			if BoolEncoding(buf[0]) != wantTag {
				t.Fatalf("encoding %v, want %v", BoolEncoding(buf[0]), wantTag)
			}
		})
	}
}

type namedStrings struct {
	name string
	vals []string
}

func stringTable() []namedStrings {
	r := rand.New(rand.NewPCG(7, 8))
	seq := func(n int, f func(i int) string) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	return []namedStrings{
		{"empty", nil},
		{"one empty string", []string{""}},
		{"one", []string{"hello"}},
		{"two", []string{"a", "bc"}},
		{"all empty", seq(300, func(int) string { return "" })},
		{"constant", seq(300, func(int) string { return `cpu{host="a"}` })},
		{"series", seq(1000, func(int) string { return fmt.Sprintf(`cpu{host="h%d"}`, r.IntN(7)) })},
		{"distinct", seq(300, func(i int) string { return fmt.Sprintf("obj/%08d", i*7919) })},
		{"binary", seq(200, func(i int) string { return string([]byte{byte(i), 0, 0xff, byte(i >> 3)}) })},
		{"long", seq(5, func(i int) string { return strings.Repeat(string(rune('a'+i)), 10000) })},
		{"utf8 and invalid", []string{"héllo", "\xff\xfe", "日本", "", "\x00"}},
		{"sequential keys", seq(1000, func(i int) string { return fmt.Sprintf("order-%08d", 5000+i) })},
		{"nested prefixes", []string{"", "a", "ab", "abc", "abc", "ab", "abd", "", "x", "xyz"}},
		{"sorted paths", seq(500, func(i int) string { return fmt.Sprintf("/var/log/app%d/part-%05d.log", i/100, i%100*37) })},
	}
}

func dictOf(vals []string) (Strings, []int32) {
	var dict Strings
	idx := map[string]int32{}
	codes := make([]int32, len(vals))
	for i, v := range vals {
		c, ok := idx[v]
		if !ok {
			c = int32(dict.Len())
			idx[v] = c
			dict.AppendString(v)
		}
		codes[i] = c
	}
	return dict, codes
}

func checkStrings(t *testing.T, name string, dict *Strings, codes []int32, want []string) {
	t.Helper()
	if len(codes) != len(want) {
		t.Fatalf("%s: %d codes, want %d", name, len(codes), len(want))
	}
	for i, c := range codes {
		if c < 0 || int(c) >= dict.Len() {
			t.Fatalf("%s: code %d of value %d outside dictionary of %d", name, c, i, dict.Len())
		}
		if got := string(dict.At(int(c))); got != want[i] {
			t.Fatalf("%s: value %d is %q, want %q", name, i, got, want[i])
		}
	}
}

func TestStringsRoundTrip(t *testing.T) {
	for _, tc := range stringTable() {
		t.Run(tc.name, func(t *testing.T) {
			var c Encoder
			var d Decoder
			var dict Strings
			buf := c.AppendStrings(nil, tc.vals)
			codes, k, err := d.DecodeStrings(&dict, nil, buf, len(tc.vals), 1<<30)
			if err != nil || k != len(buf) {
				t.Fatalf("consumed %d of %d, err %v", k, len(buf), err)
			}
			checkStrings(t, "AppendStrings", &dict, codes, tc.vals)

			d2, c2 := dictOf(tc.vals)
			buf = c.AppendDict(nil, &d2, c2)
			codes, k, err = d.DecodeStrings(&dict, codes, buf, len(tc.vals), 1<<30)
			if err != nil || k != len(buf) {
				t.Fatalf("AppendDict: consumed %d of %d, err %v", k, len(buf), err)
			}
			checkStrings(t, "AppendDict", &dict, codes, tc.vals)
			if !slices.Equal(codes, c2) {
				t.Fatalf("AppendDict: codes %v, want %v", codes, c2)
			}
		})
	}
}

// TestStringsPrefix: front coding round-trips every table entry when
// forced (AppendStringsAs, from a dictionary and from a subset of its
// codes, as a filter re-encodes), and AppendStrings picks it for
// sequential keys only, where it is much smaller than plain.
func TestStringsPrefix(t *testing.T) {
	var c Encoder
	var d Decoder
	var dict Strings
	for _, tc := range stringTable() {
		t.Run(tc.name, func(t *testing.T) {
			d2, c2 := dictOf(tc.vals)
			buf := c.AppendStringsAs(nil, &d2, c2, StringPrefix)
			if buf[0] != byte(StringPrefix) {
				t.Fatalf("tag %d", buf[0])
			}
			codes, k, err := d.DecodeStrings(&dict, nil, buf, len(tc.vals), 1<<30)
			if err != nil || k != len(buf) {
				t.Fatalf("consumed %d of %d, err %v", k, len(buf), err)
			}
			checkStrings(t, "prefix", &dict, codes, tc.vals)
			if got, want := d.Ascending(), increasing(tc.vals); got != want {
				t.Fatalf("Ascending %v, the values strictly increase: %v", got, want)
			}
			var half []int32
			var want []string
			for i, code := range c2 {
				if i%3 != 1 {
					half = append(half, code)
					want = append(want, tc.vals[i])
				}
			}
			buf = c.AppendStringsAs(nil, &d2, half, StringPrefix)
			codes, k, err = d.DecodeStrings(&dict, codes, buf, len(half), 1<<30)
			if err != nil || k != len(buf) {
				t.Fatalf("subset: consumed %d of %d, err %v", k, len(buf), err)
			}
			checkStrings(t, "prefix subset", &dict, codes, want)
			if got, inc := d.Ascending(), increasing(want); got != inc {
				t.Fatalf("subset: Ascending %v, the values strictly increase: %v", got, inc)
			}
		})
	}
	must := map[string]bool{"sequential keys": true, "sorted paths": true, "distinct": true, // "obj/000…"
		"binary": false, "utf8 and invalid": false, "long": false, "one": false, "two": false}
	for _, tc := range stringTable() {
		auto := c.AppendStrings(nil, tc.vals)
		chose := len(auto) > 0 && auto[0] == byte(StringPrefix)
		if want, ok := must[tc.name]; ok && chose != want {
			t.Errorf("%s: AppendStrings chose %v", tc.name, StringEncoding(auto[0]))
		}
		if chose {
			var plain Encoder
			d2, c2 := dictOf(tc.vals)
			p := plain.AppendStringsAs(nil, &d2, c2, StringPlain)
			if len(auto) >= len(p) || (len(tc.vals) >= 100 && 2*len(auto) > len(p)) {
				t.Errorf("%s: front coded %d bytes, plain %d", tc.name, len(auto), len(p))
			}
			t.Logf("%s: front coded %d bytes, plain %d", tc.name, len(auto), len(p))
		}
	}
}

// increasing reports whether vals strictly increase.
func increasing(vals []string) bool {
	for i := 1; i < len(vals); i++ {
		if vals[i-1] >= vals[i] {
			return false
		}
	}
	return true
}

// TestStringsAscending: Ascending tells front-coded values that
// strictly increase, one against its prefix or its extension included,
// and no other encoding's.
func TestStringsAscending(t *testing.T) {
	var c Encoder
	var d Decoder
	var dict Strings
	for _, vals := range [][]string{
		{"a", "ab", "abc", "b", "ba"}, // each extends or passes the one before
		{"ab", "a"},                   // a prefix after its extension
		{"a", "a"},                    // equal
		{"obj1", "obj3", "obj2"},
		{"", "a", "b"},
		{"x"},
		{},
		{"k\xff", "k\xff\x00", "l"},
	} {
		d2, c2 := dictOf(vals)
		for _, e := range []StringEncoding{StringPrefix, StringPlain, StringDict} {
			buf := c.AppendStringsAs(nil, &d2, c2, e)
			if _, _, err := d.DecodeStrings(&dict, nil, buf, len(vals), 1<<20); err != nil {
				t.Fatal(err)
			}
			if want := e == StringPrefix && increasing(vals); d.Ascending() != want {
				t.Errorf("%q as %v: Ascending %v, want %v", vals, e, d.Ascending(), want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 300 {
		vals := make([]string, 1+rng.IntN(50))
		for i := range vals {
			vals[i] = fmt.Sprintf("k%0*d", 1+rng.IntN(3), rng.IntN(2000))
		}
		if rng.IntN(2) == 0 {
			slices.Sort(vals)
			vals = slices.Compact(vals)
		}
		d2, c2 := dictOf(vals)
		buf := c.AppendStringsAs(nil, &d2, c2, StringPrefix)
		if _, _, err := d.DecodeStrings(&dict, nil, buf, len(vals), 1<<20); err != nil {
			t.Fatal(err)
		}
		if d.Ascending() != increasing(vals) {
			t.Fatalf("%q: Ascending %v", vals, d.Ascending())
		}
	}
}

// TestStringsPrefixCorrupt: bad lengths of a front coding are errors
// naming the value, never a panic or an allocation past the limit.
func TestStringsPrefixCorrupt(t *testing.T) {
	var c Encoder
	enc := func(prefix, suffix []int64, data string) []byte {
		b := []byte{byte(StringPrefix)}
		b = c.AppendInts(b, prefix)
		b = c.AppendInts(b, suffix)
		return append(b, data...)
	}
	for _, tc := range []struct {
		name string
		src  []byte
		n    int
		want string
	}{
		{"first value has a prefix", enc([]int64{1, 0}, []int64{1, 1}, "ab"), 2, "string 0: prefix length 1"},
		{"prefix past the value before", enc([]int64{0, 3}, []int64{2, 0}, "ab"), 2, "string 1: prefix length 3"},
		{"negative prefix", enc([]int64{0, -1}, []int64{2, 0}, "ab"), 2, "string 1: prefix length -1"},
		{"negative suffix", enc([]int64{0, 0}, []int64{2, -1}, "ab"), 2, "string 1: suffix length -1"},
		{"past the limit", enc([]int64{0, 60, 60}, []int64{60, 0, 0}, strings.Repeat("a", 60)), 3, "limit 100"},
		{"truncated suffixes", enc([]int64{0, 1}, []int64{2, 3}, "abcd"), 2, ""},
		{"truncated lengths", []byte{byte(StringPrefix), 1}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			var dict Strings
			_, _, err := d.DecodeStrings(&dict, nil, tc.src, tc.n, 100)
			checkCorruption(t, err, tc.src)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

func TestStringsMaxBytes(t *testing.T) {
	vals := []string{"abc", "de", "abc", "fghij"}
	var c Encoder
	buf := c.AppendStrings(nil, vals)
	var dict Strings
	var d Decoder
	codes, _, err := d.DecodeStrings(&dict, nil, buf, len(vals), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	total := len(dict.Data)
	if _, _, err := d.DecodeStrings(&dict, codes, buf, len(vals), total); err != nil {
		t.Fatalf("limit equal to the data: %v", err)
	}
	_, _, err = d.DecodeStrings(&dict, codes, buf, len(vals), total-1)
	checkCorruption(t, err, buf)
	_, _, err = d.DecodeStrings(&dict, codes, buf, len(vals), 0)
	checkCorruption(t, err, buf)
}

func TestVarintsRoundTrip(t *testing.T) {
	us := []uint64{0, 1, 127, 128, 255, 256, 16383, 16384, 1<<32 - 1, 1 << 32, 1<<63 - 1, 1 << 63, math.MaxUint64}
	buf := AppendUvarints(nil, us)
	got, k, err := DecodeUvarints(nil, buf, len(us))
	if err != nil || k != len(buf) || !slices.Equal(got, us) {
		t.Fatalf("uvarints: %v consumed %d of %d, err %v", got, k, len(buf), err)
	}
	vs := []int64{0, 1, -1, 63, -64, 64, -65, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	buf = AppendVarints(nil, vs)
	gv, k, err := DecodeVarints(nil, buf, len(vs))
	if err != nil || k != len(buf) || !slices.Equal(gv, vs) {
		t.Fatalf("varints: %v consumed %d of %d, err %v", gv, k, len(buf), err)
	}
	// Sizes: zigzag keeps small magnitudes in one byte.
	for _, v := range []int64{0, -1, 1, -64, 63} {
		if n := len(AppendVarints(nil, []int64{v})); n != 1 {
			t.Errorf("varint %d takes %d bytes", v, n)
		}
	}
	if n := len(AppendUvarints(nil, []uint64{math.MaxUint64})); n != 10 {
		t.Errorf("uvarint MaxUint64 takes %d bytes, want 10", n)
	}
	if n := len(AppendVarints(nil, []int64{math.MinInt64})); n != 10 {
		t.Errorf("varint MinInt64 takes %d bytes, want 10", n)
	}
}

func TestZigzag(t *testing.T) {
	cases := []struct {
		v int64
		u uint64
	}{
		{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {2, 4},
		{math.MaxInt64, math.MaxUint64 - 1},
		{math.MinInt64, math.MaxUint64},
		{math.MaxInt64 - 1, math.MaxUint64 - 3},
		{math.MinInt64 + 1, math.MaxUint64 - 2},
		{math.MaxInt32, 1<<32 - 2},
		{math.MinInt32, 1<<32 - 1},
	}
	for _, c := range cases {
		if got := Zigzag(c.v); got != c.u {
			t.Errorf("Zigzag(%d) = %d, want %d", c.v, got, c.u)
		}
		if got := Unzigzag(c.u); got != c.v {
			t.Errorf("Unzigzag(%d) = %d, want %d", c.u, got, c.v)
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 10000 {
		v := int64(r.Uint64())
		if got := Unzigzag(Zigzag(v)); got != v {
			t.Fatalf("Unzigzag(Zigzag(%d)) = %d", v, got)
		}
		u := r.Uint64()
		if got := Zigzag(Unzigzag(u)); got != u {
			t.Fatalf("Zigzag(Unzigzag(%d)) = %d", u, got)
		}
	}
	// Order: magnitudes map to increasing codes.
	for v := int64(-1000); v < 1000; v++ {
		a, b := Zigzag(v), Zigzag(-v)
		if v > 0 && !(b < a) {
			t.Fatalf("Zigzag(%d)=%d not below Zigzag(%d)=%d", -v, b, v, a)
		}
	}
}

func TestWithin(t *testing.T) {
	inner := &CorruptionError{Section: "packed", Offset: 3, Err: errors.New("bad")}
	t.Run("rebases and prefixes", func(t *testing.T) {
		err := Within(inner, "ints delta", 10)
		var ce *CorruptionError
		if !errors.As(err, &ce) {
			t.Fatalf("got %T", err)
		}
		if ce.Offset != 13 || ce.Section != "ints delta: packed" {
			t.Fatalf("offset %d section %q", ce.Offset, ce.Section)
		}
		if !errors.Is(err, ErrCorrupt) || !errors.Is(err, inner.Err) {
			t.Fatal("rebased error lost ErrCorrupt or its cause")
		}
		if inner.Offset != 3 || inner.Section != "packed" {
			t.Fatal("Within modified the original error")
		}
	})
	t.Run("nested twice", func(t *testing.T) {
		err := Within(Within(inner, "b", 5), "a", 100)
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Offset != 108 || ce.Section != "a: b: packed" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("empty section keeps section", func(t *testing.T) {
		err := Within(inner, "", 7)
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Offset != 10 || ce.Section != "packed" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("zero base", func(t *testing.T) {
		err := Within(inner, "x", 0)
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Offset != 3 || ce.Section != "x: packed" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("keeps path", func(t *testing.T) {
		e := &CorruptionError{Path: "seg.tsq", Section: "s", Offset: 1, Err: io.ErrUnexpectedEOF}
		err := Within(e, "o", 1)
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Path != "seg.tsq" || !strings.Contains(err.Error(), "seg.tsq") || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("other errors pass through", func(t *testing.T) {
		other := errors.New("disk on fire")
		if got := Within(other, "x", 5); got != other {
			t.Fatalf("got %v", got)
		}
		if got := Within(nil, "x", 5); got != nil {
			t.Fatalf("Within(nil) = %v", got)
		}
	})
	t.Run("wrapped corruption error", func(t *testing.T) {
		err := Within(fmt.Errorf("ctx: %w", inner), "outer", 2)
		var ce *CorruptionError
		if !errors.As(err, &ce) || ce.Offset != 5 || ce.Section != "outer: packed" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("decoder errors are rebased", func(t *testing.T) {
		// A nested decode failure reports its offset in the caller's buffer.
		var c Encoder
		buf := c.AppendIntsAs(nil, []int64{1, 2, 3, 4}, IntDelta)
		prefix := []byte{0, 0, 0, 0, 0}
		bad := append(slices.Clone(prefix), buf[:len(buf)-1]...)
		var d Decoder
		_, _, err := d.DecodeInts(nil, bad[len(prefix):], 4)
		var ce *CorruptionError
		if !errors.As(err, &ce) {
			t.Fatalf("got %v", err)
		}
		outer := Within(err, "column x", len(prefix))
		var oe *CorruptionError
		if !errors.As(outer, &oe) || oe.Offset != ce.Offset+int64(len(prefix)) || !strings.HasPrefix(oe.Section, "column x: ints") {
			t.Fatalf("got %v from %v", outer, err)
		}
	})
}

func TestCorruptionErrorMessage(t *testing.T) {
	e := &CorruptionError{Section: "ints packed", Offset: 12, Err: errors.New("boom")}
	if got := e.Error(); got != "corrupt ints packed at offset 12: boom" {
		t.Fatalf("got %q", got)
	}
	e.Path = "a/b"
	if got := e.Error(); got != "corrupt ints packed in a/b at offset 12: boom" {
		t.Fatalf("got %q", got)
	}
}

func TestEncodingNames(t *testing.T) {
	for _, e := range allIntEncodings {
		if strings.HasPrefix(e.String(), "IntEncoding(") {
			t.Errorf("%d has no name", e)
		}
	}
	for _, e := range allFloatEncodings {
		if strings.HasPrefix(e.String(), "FloatEncoding(") {
			t.Errorf("%d has no name", e)
		}
	}
	if IntEncoding(99).String() != "IntEncoding(99)" || FloatEncoding(0).String() != "FloatEncoding(0)" ||
		BoolEncoding(7).String() != "BoolEncoding(7)" || StringEncoding(9).String() != "StringEncoding(9)" {
		t.Error("unknown encodings are not named by number")
	}
}

// TestAppendDictUsedEntries: AppendDict writes only the dictionary
// entries the codes use: the caller's dictionary as it is when every
// entry is used (in any order), else the used entries in order of first
// use (a dictionary larger than the values, which DecodeStrings would
// reject, or one filtered by compaction, which must keep nothing of the
// rows it left out). Every output decodes to the values.
func TestAppendDictUsedEntries(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dict  []string
		codes []int32
		want  []string // the dictionary written
	}{
		{"3 entries 1 value", []string{"a", "b", "c"}, []int32{0}, []string{"a"}},
		{"2 entries 0 values", []string{"a", "b"}, nil, nil},
		{"1 entry 0 values", []string{"x"}, []int32{}, nil},
		{"5 entries 4 values", []string{"a", "b", "c", "d", "e"}, []int32{4, 4, 0, 1}, []string{"e", "a", "b"}},
		{"all used in order", []string{"a", "b", "c"}, []int32{0, 1, 1, 2, 0}, []string{"a", "b", "c"}},
		{"all used out of order", []string{"a", "b", "c"}, []int32{2, 0, 1, 2}, []string{"a", "b", "c"}},
		{"one unused of many values", []string{"ok", "secret", "warn"}, []int32{0, 2, 2, 0, 0, 2, 0, 2}, []string{"ok", "warn"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dict Strings
			for _, s := range tc.dict {
				dict.AppendString(s)
			}
			var c Encoder
			var d Decoder
			buf := c.AppendDict(nil, &dict, tc.codes)
			var out Strings
			codes, k, err := d.DecodeStrings(&out, nil, buf, len(tc.codes), 1<<20)
			if err != nil {
				t.Fatalf("AppendDict output %x does not decode: %v", buf, err)
			}
			if k != len(buf) {
				t.Fatalf("consumed %d of %d bytes", k, len(buf))
			}
			for i, code := range codes {
				if string(out.At(int(code))) != tc.dict[tc.codes[i]] {
					t.Fatalf("value %d differs", i)
				}
			}
			var got []string
			for i := range out.Len() {
				got = append(got, string(out.At(i)))
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("dictionary written %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStringsPrefixWords: front-coded values built in words (at most 16
// bytes, prefix under 16) and by copying (longer, a 16-byte prefix, the
// last suffixes of the data) decode exactly, for every prefix length
// 0..20 against every value length 0..24.
func TestStringsPrefixWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var vals []string
	prev := []byte{}
	for range 4000 {
		p := rng.IntN(min(len(prev), 20) + 1)
		n := p + rng.IntN(25-min(p, 24))
		v := append([]byte(nil), prev[:p]...)
		for len(v) < n {
			v = append(v, byte(rng.Uint32()))
		}
		vals = append(vals, string(v))
		prev = v
	}
	var c Encoder
	var d Decoder
	var dict Strings
	d2, c2 := dictOf(vals)
	buf := c.AppendStringsAs(nil, &d2, c2, StringPrefix)
	codes, k, err := d.DecodeStrings(&dict, nil, buf, len(vals), 1<<30)
	if err != nil || k != len(buf) {
		t.Fatalf("consumed %d of %d, err %v", k, len(buf), err)
	}
	checkStrings(t, "prefix words", &dict, codes, vals)
}

// TestBoolsSparseCorrupt: a sparse encoding that lists more positions
// than values, a position past the end, a value byte other than 0 or 1,
// or too few gaps is a corruption error saying what, never a panic.
func TestBoolsSparseCorrupt(t *testing.T) {
	sp := func(v byte, k uint64, gaps ...uint64) []byte {
		b := binary.AppendUvarint([]byte{byte(BoolSparse), v}, k)
		for _, g := range gaps {
			b = binary.AppendUvarint(b, g)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		src  []byte
		n    int
		want string
	}{
		{"more positions than values", sp(1, 5, 0, 0, 0, 0, 0), 4, "exceeds limit 4"},
		{"first position past the end", sp(1, 1, 4), 4, "sparse bool position 0: gap 4"},
		{"later position past the end", sp(1, 2, 1, 2), 4, "sparse bool position 1: gap 2 after position 1"},
		{"huge gap", sp(0, 1, 1<<63), 4, "gap 9223372036854775808"},
		{"value byte 2", sp(2, 1, 0), 4, "sparse bool value byte 2"},
		{"too few gaps", sp(1, 3, 0, 0), 4, "truncated"},
		{"no count", []byte{byte(BoolSparse), 1}, 4, "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DecodeBools(nil, tc.src, tc.n)
			checkCorruption(t, err, tc.src)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
	// The last position may be the last value.
	got, _, err := DecodeBools(nil, sp(1, 2, 0, 2), 4)
	if err != nil || !slices.Equal(got, []bool{true, false, false, true}) {
		t.Fatalf("got %v, %v", got, err)
	}
}

// TestSampledDistinct: the sample skips the dictionary for columns of
// distinct values (keys, ids: the same bytes as without it), and never
// for a column where the dictionary pays — each value twice or more, in
// runs, in repeated halves, in cycles, shuffled.
func TestSampledDistinct(t *testing.T) {
	for _, n := range []int{sampleMin, 8192, 65536} {
		t.Run(fmt.Sprint(n), func(t *testing.T) { testSampledDistinct(t, n) })
	}
}

func testSampledDistinct(t *testing.T, n int) {
	var c Encoder
	c.dict = map[string]int32{}
	distinct := make([]string, n)
	for i := range distinct {
		distinct[i] = fmt.Sprintf("obj%08d", i*7)
	}
	if !c.sampledDistinct(distinct) {
		t.Fatal("distinct keys: the dictionary is attempted")
	}
	if got, want := c.AppendStrings(nil, distinct), c.appendDistinct(nil, distinct); !bytes.Equal(got, want) {
		t.Fatal("distinct keys: the sampled path writes other bytes")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	shapes := map[string]func(i int) int{
		"adjacent pairs": func(i int) int { return i / 2 },
		"halves":         func(i int) int { return i % (n / 2) },
		"random twice":   func(i int) int { return rng.IntN(n / 2) },
		"cycle of 3":     func(i int) int { return i % 3 },
		"cycle of n/8":   func(i int) int { return i % (n / 8) },
		"runs of 7":      func(i int) int { return i / 7 },
	}
	for name, f := range shapes {
		for _, shuffled := range []bool{false, true} {
			src := make([]string, n)
			for i := range src {
				src[i] = fmt.Sprintf("v%d", f(i))
			}
			if shuffled {
				rng.Shuffle(n, func(i, j int) { src[i], src[j] = src[j], src[i] })
			}
			if c.sampledDistinct(src) {
				t.Errorf("%s (shuffled %v): sampled as distinct", name, shuffled)
			}
			if buf := c.AppendStrings(nil, src); StringEncoding(buf[0]) != StringDict {
				t.Errorf("%s (shuffled %v): encoding %v", name, shuffled, StringEncoding(buf[0]))
			}
		}
	}
}
