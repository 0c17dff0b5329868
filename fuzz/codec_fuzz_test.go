// Package fuzz holds native Go fuzz targets for the codec and chunk
// decoders and round trips. Run one with, for example,
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzDecodeInts$' -fuzztime 10s -parallel 1
//
// The seed corpus under testdata/fuzz is generated from real encodings by
//
//	go test ./fuzz -run '^TestWriteSeedCorpus$' -write-corpus
package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tsqdb/tsq/codec"
)

// maxN bounds the value count taken from the fuzz input.
const maxN = 1 << 16

// boundN maps an arbitrary int to 0..maxN.
func boundN(n int) int { return int(uint64(n) % (maxN + 1)) }

var (
	intEncodings   = []codec.IntEncoding{codec.IntPacked, codec.IntDelta, codec.IntDoD, codec.IntRLE, codec.IntVarint}
	floatEncodings = []codec.FloatEncoding{codec.FloatRaw, codec.FloatXOR, codec.FloatDecimal}
	trailer        = []byte{0xde, 0xad, 0xbe, 0xef, 0x80, 0xff, 0x00, 0x7f}
	prefix         = []byte("pre\x00\xff")
)

// checkCorrupt asserts that err is a well-formed decode error for src.
func checkCorrupt(t *testing.T, what string, err error, src []byte) {
	t.Helper()
	if !errors.Is(err, codec.ErrCorrupt) {
		t.Fatalf("%s: error %v does not wrap codec.ErrCorrupt", what, err)
	}
	var ce *codec.CorruptionError
	if !errors.As(err, &ce) {
		t.Fatalf("%s: error %v is not a *codec.CorruptionError", what, err)
	}
	if ce.Section == "" {
		t.Fatalf("%s: error %v has an empty Section", what, err)
	}
	if ce.Offset < 0 || ce.Offset > int64(len(src)) {
		t.Fatalf("%s: error %v: offset %d outside the %d-byte input", what, err, ce.Offset, len(src))
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func intDiff(got, want []int64) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d values, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("value %d is %d, want %d", i, got[i], want[i])
		}
	}
	return "equal"
}

func floatDiff(got, want []float64) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d values, want %d", len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return fmt.Sprintf("value %d is %#016x, want %#016x", i, math.Float64bits(got[i]), math.Float64bits(want[i]))
		}
	}
	return "equal"
}

// withPrefix returns a copy of prefix with spare capacity, so that an
// encoder that wrote below len(dst) would be caught.
func withPrefix() []byte {
	p := make([]byte, len(prefix), len(prefix)+64)
	copy(p, prefix)
	return p
}

func withTrailer(b []byte) []byte { return append(slices.Clip(b), trailer...) }

// ---------------------------------------------------------------------------
// Value generators: turn fuzz bytes into value slices that cover the
// interesting shapes (extremes, runs, regular and jittered timestamps,
// NaN payloads, decimal noise) with few bytes.

type stream struct {
	b []byte
	i int
}

func (s *stream) more() bool { return s.i < len(s.b) }

func (s *stream) byte() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

func (s *stream) u16() uint16 { return uint16(s.byte()) | uint16(s.byte())<<8 }

func (s *stream) u32() uint32 { return uint32(s.u16()) | uint32(s.u16())<<16 }

func (s *stream) u64() uint64 { return uint64(s.u32()) | uint64(s.u32())<<32 }

var extremeInts = []int64{
	math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt64 + 1, math.MaxInt64 - 1,
	1 << 53, -(1 << 53), 1 << 32, 1_700_000_000_000_000_000, math.MaxInt32, math.MinInt32,
	math.MaxInt64 / 3, -(math.MaxInt64 / 5),
}

// intsFromBytes reads a small program from data: each op byte appends one
// or more values.
func intsFromBytes(data []byte, maxLen int) []int64 {
	s := stream{b: data}
	var out []int64
	prev, step := int64(0), int64(1)
	for s.more() && len(out) < maxLen {
		op := s.byte()
		switch op & 7 {
		case 0: // any 64-bit value
			prev = int64(s.u64())
			out = append(out, prev)
		case 1: // small value
			prev = int64(int8(s.byte()))
			out = append(out, prev)
		case 2: // extreme
			prev = extremeInts[int(op>>3)%len(extremeInts)]
			out = append(out, prev)
		case 3: // run of the previous value, up to just past a miniblock
			for range int(s.byte())%130 + 1 {
				out = append(out, prev)
			}
		case 4: // small delta
			prev += int64(int8(s.byte()))
			out = append(out, prev)
		case 5: // regular steps
			for range int(op>>3) + 1 {
				prev += step
				out = append(out, prev)
			}
		case 6: // set the step
			mult := []int64{1, 1000, 1e6, 1e9, 15e9, -1, math.MaxInt64 / 3, 1 << 40}[int(op>>3)%8]
			step = int64(int16(s.u16())) * mult
		case 7: // step plus jitter
			jit := int64(int8(s.byte()))
			if op&8 != 0 {
				jit *= 1e6
			}
			prev += step + jit
			out = append(out, prev)
		}
	}
	if len(out) > maxLen {
		out = out[:maxLen]
	}
	return out
}

const staleNaN = 0x7ff0000000000002 // Prometheus stale marker

var specialFloats = []uint64{
	0x7ff8000000000000, 0x7ff8000000000001, 0x7ff0000000000001, 0xfff8000000000000,
	0x7fffffffffffffff, 0xffffffffffffffff, staleNaN,
	0x7ff0000000000000, 0xfff0000000000000, // ±Inf
	0x8000000000000000, 0, // -0, +0
	1, 0x8000000000000001, 0x000fffffffffffff, 0x0010000000000000, // denormals, MinNormal
	0x7fefffffffffffff, 0xffefffffffffffff, // ±MaxFloat64
	math.Float64bits(0.1), math.Float64bits(0.20199999999999999), math.Float64bits(94.79799999999999),
	math.Float64bits(1e300), math.Float64bits(-1e300), math.Float64bits(1 << 53), math.Float64bits(1<<53 + 2),
	math.Float64bits(1 << 63), math.Float64bits(-2.5), math.Float64bits(1e22), math.Float64bits(1e-300),
}

var pow10 = func() (p [23]float64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

func floatsFromBytes(data []byte, maxLen int) []float64 {
	s := stream{b: data}
	var out []float64
	prev := 0.0
	for s.more() && len(out) < maxLen {
		op := s.byte()
		switch op & 7 {
		case 0: // any bit pattern
			prev = math.Float64frombits(s.u64())
			out = append(out, prev)
		case 1: // special
			prev = math.Float64frombits(specialFloats[int(op>>3)%len(specialFloats)])
			out = append(out, prev)
		case 2: // decimal with up to 22 fraction digits
			prev = float64(int32(s.u32())) / pow10[int(op>>3)%len(pow10)]
			out = append(out, prev)
		case 3: // run
			for range int(s.byte())%130 + 1 {
				out = append(out, prev)
			}
		case 4: // one ulp of noise
			if op&8 != 0 {
				prev = math.Nextafter(prev, math.Inf(1))
			} else {
				prev = math.Nextafter(prev, math.Inf(-1))
			}
			out = append(out, prev)
		case 5: // small decimal step
			prev += float64(int8(s.byte())) / pow10[int(op>>3)%4]
			out = append(out, prev)
		case 6: // integer-valued, often beyond 2^53
			prev = float64(int64(s.u64()) >> (op >> 3))
			out = append(out, prev)
		case 7: // NaN or Inf with an arbitrary payload and sign
			bits := 0x7ff0000000000000 | s.u64()&0x000fffffffffffff | uint64(op>>7)<<63
			prev = math.Float64frombits(bits)
			out = append(out, prev)
		}
	}
	if len(out) > maxLen {
		out = out[:maxLen]
	}
	return out
}

func boolsFromBytes(data []byte, maxLen int) []bool {
	if len(data) == 0 {
		return nil
	}
	var out []bool
	switch data[0] % 3 {
	case 0: // bits
		for _, b := range data[1:] {
			for k := range 8 {
				out = append(out, b>>k&1 == 1)
			}
		}
		if len(data) > 1 {
			out = out[:len(out)-int(data[1]%8)] // lengths not a multiple of 8
		}
	case 1: // runs
		for _, b := range data[1:] {
			for range int(b & 0x7f) {
				out = append(out, b&0x80 != 0)
			}
		}
	case 2: // constant
		n := 0
		if len(data) > 1 {
			n = int(data[1]) * 3
		}
		for range n {
			out = append(out, len(data) > 2 && data[2]&1 == 1)
		}
	}
	if len(out) > maxLen {
		out = out[:maxLen]
	}
	return out
}

func stringsFromBytes(data []byte, maxLen int) []string {
	s := stream{b: data}
	var out []string
	for s.more() && len(out) < maxLen {
		op := s.byte()
		switch op & 3 {
		case 0: // new string of up to 63 bytes
			l := int(op >> 2)
			b := make([]byte, 0, l)
			for range l {
				b = append(b, s.byte())
			}
			out = append(out, string(b))
		case 1: // an earlier value: dictionaries pay
			if len(out) == 0 {
				out = append(out, "")
			} else {
				out = append(out, out[int(s.byte())%len(out)])
			}
		case 2: // run of the previous value
			v := ""
			if len(out) > 0 {
				v = out[len(out)-1]
			}
			for range int(op>>2) + 1 {
				out = append(out, v)
			}
		case 3: // a long value
			out = append(out, string(bytes.Repeat([]byte{s.byte()}, int(s.u16())%3000)))
		}
	}
	if len(out) > maxLen {
		out = out[:maxLen]
	}
	return out
}

// ---------------------------------------------------------------------------
// Minimum encoded sizes: a successful decode of n values must have consumed
// at least this much, which bounds what a tiny input can make a decoder
// allocate.

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// minIntsLen is the smallest valid encoding of n values in encoding e.
func minIntsLen(e codec.IntEncoding, n int) int {
	switch e {
	case codec.IntPacked: // tag, divisor, per miniblock base and width
		return 2 + 2*ceilDiv(n, codec.MiniBlockLen)
	case codec.IntDelta:
		if n == 0 {
			return 1
		}
		return 3 + 2*ceilDiv(n-1, codec.MiniBlockLen)
	case codec.IntDoD:
		if n < 2 {
			return 1 + n
		}
		return 4 + 2*ceilDiv(n-2, codec.MiniBlockLen)
	case codec.IntRLE: // tag, run count, per run a value and a length
		if n == 0 {
			return 2
		}
		return 4
	case codec.IntVarint:
		return 1 + n
	}
	return math.MaxInt
}

func minAnyIntsLen(n int) int {
	m := math.MaxInt
	for _, e := range intEncodings {
		m = min(m, minIntsLen(e, n))
	}
	return m
}

func minFloatsLen(e codec.FloatEncoding, n int) int {
	switch e {
	case codec.FloatRaw:
		return 1 + 8*n
	case codec.FloatXOR:
		if n == 0 {
			return 1
		}
		return 9 + ceilDiv(n-1, 8)
	case codec.FloatDecimal: // tag, exponent, mantissas, patch count
		return 3 + minAnyIntsLen(n)
	}
	return math.MaxInt
}

// ---------------------------------------------------------------------------
// Warm decoders: before decoding a fuzz input, a decoder decodes a large
// valid encoding with exceptions and patches, so that stale scratch state
// would show up as a difference from a fresh decoder.

var (
	warmInts   []byte
	warmFloats []byte
	warmStrs   []byte
	warmN      = 1000
)

func init() {
	var c codec.Encoder
	ints := make([]int64, warmN)
	flts := make([]float64, warmN)
	strs := make([]string, warmN)
	for i := range ints {
		ints[i] = int64(i*i*7919) ^ int64(i%13)<<40
		flts[i] = float64(i*37%1000) / 100
		if i%7 == 0 {
			flts[i] = math.Nextafter(flts[i], 1e9)
		}
		if i%50 == 0 {
			flts[i] = math.Float64frombits(staleNaN)
		}
		strs[i] = fmt.Sprintf("s%d", i%17)
	}
	warmInts = c.AppendIntsAs(nil, ints, codec.IntPacked)
	warmFloats = c.AppendFloatsAs(nil, flts, codec.FloatDecimal)
	warmStrs = c.AppendStrings(nil, strs)
}

func warmDecoder(t *testing.T) *codec.Decoder {
	d := new(codec.Decoder)
	if _, _, err := d.DecodeInts(nil, warmInts, warmN); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.DecodeFloats(nil, warmFloats, warmN); err != nil {
		t.Fatal(err)
	}
	var dict codec.Strings
	if _, _, err := d.DecodeStrings(&dict, nil, warmStrs, warmN, 1<<20); err != nil {
		t.Fatal(err)
	}
	return d
}

func dirtyInts(n int) []int64 {
	s := make([]int64, 3, n+5)
	for i := range s {
		s[i] = -0x5a5a5a5a
	}
	return s
}

func dirtyFloats(n int) []float64 {
	s := make([]float64, 3, n+5)
	for i := range s {
		s[i] = math.Float64frombits(0x7ff8dead00000000)
	}
	return s
}

// ---------------------------------------------------------------------------
// Seeds, shared by f.Add and the checked-in corpus.

type seed struct {
	name string
	args []any
}

func seedInts() map[string][]int64 {
	seq := func(n int, f func(i int) int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	return map[string][]int64{
		"empty":        nil,
		"one":          {7},
		"extremes":     {math.MinInt64, math.MaxInt64, 0, -1, math.MaxInt64, math.MinInt64},
		"ts-regular":   seq(200, func(i int) int64 { return 1_700_000_000_000_000_000 + int64(i)*15e9 }),
		"ts-irregular": seq(200, func(i int) int64 { return 1_700_000_000_000_000_000 + int64(i)*15e9 + int64(i*i%5)*1e6 }),
		"runs":         seq(300, func(i int) int64 { return int64(i / 70) }),
		"spikes": seq(260, func(i int) int64 {
			if i%50 == 3 {
				return 1 << 45
			}
			return int64(i % 9)
		}),
		"counter-resets": seq(300, func(i int) int64 { return int64(i%110) * 3 }),
	}
}

func seedFloats() map[string][]float64 {
	specials := make([]float64, len(specialFloats))
	for i, b := range specialFloats {
		specials[i] = math.Float64frombits(b)
	}
	seq := func(n int, f func(i int) float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = f(i)
		}
		return s
	}
	return map[string][]float64{
		"empty":    nil,
		"one":      {0.1},
		"specials": specials,
		"prices":   seq(150, func(i int) float64 { return float64(10000+i*i%777) / 100 }),
		"noisy": seq(150, func(i int) float64 {
			v := float64(94798+i%5) / 1000
			if i%3 == 0 {
				v = math.Nextafter(v, 0)
			}
			return v
		}),
		"stale": seq(100, func(i int) float64 {
			if i%10 == 9 {
				return math.Float64frombits(staleNaN)
			}
			return float64(i)
		}),
		"random-bits": seq(40, func(i int) float64 { return math.Float64frombits(uint64(i+1) * 0x9e3779b97f4a7c15) }),
	}
}

func seedBools() map[string][]bool {
	alt := make([]bool, 77)
	for i := range alt {
		alt[i] = i%3 == 0
	}
	sparse := make([]bool, 300) // a few present among many nulls
	sparse[7], sparse[150], sparse[299] = true, true, true
	dense := make([]bool, 300) // a few nulls among many present
	for i := range dense {
		dense[i] = i != 0 && i != 64
	}
	return map[string][]bool{
		"empty":        nil,
		"one":          {true},
		"const":        {false, false, false, false, false, false, false, false, false},
		"alt":          alt,
		"sparse-true":  sparse,
		"sparse-false": dense,
	}
}

func seedStrings() map[string][]string {
	series := make([]string, 120)
	distinct := make([]string, 60)
	for i := range series {
		series[i] = fmt.Sprintf(`cpu{host="h%d"}`, i%5)
	}
	for i := range distinct {
		distinct[i] = fmt.Sprintf("obj/%d\x00\xff", i*31)
	}
	keys := make([]string, 80)
	for i := range keys {
		keys[i] = fmt.Sprintf("order-%08d", 99_990+i)
	}
	return map[string][]string{
		"empty":     nil,
		"one-empty": {""},
		"two":       {"a", "bc"},
		"series":    series,
		"distinct":  distinct,
		"keys":      keys,
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func decodeSeeds() map[string][]seed {
	var c codec.Encoder
	out := map[string][]seed{}
	add := func(target, name string, args ...any) {
		out[target] = append(out[target], seed{name, args})
	}
	for _, target := range []string{"FuzzDecodeUvarints", "FuzzDecodeVarints", "FuzzDecodeInts", "FuzzDecodeFloats", "FuzzDecodeBools", "FuzzDecodeStrings"} {
		add(target, "empty", []byte{}, 0)
		add(target, "empty-n1", []byte{}, 1)
		add(target, "single-byte", []byte{1}, 1)
		add(target, "single-byte-n0", []byte{2}, 0)
	}
	ints := seedInts()
	for _, name := range sortedKeys(ints) {
		v := ints[name]
		u := make([]uint64, len(v))
		for i, x := range v {
			u[i] = uint64(x)
		}
		add("FuzzDecodeUvarints", name, codec.AppendUvarints(nil, u), len(u))
		add("FuzzDecodeVarints", name, codec.AppendVarints(nil, v), len(v))
		add("FuzzDecodeInts", name+"-auto", c.AppendInts(nil, v), len(v))
		for _, e := range intEncodings {
			add("FuzzDecodeInts", name+"-"+e.String(), c.AppendIntsAs(nil, v, e), len(v))
		}
	}
	flts := seedFloats()
	for _, name := range sortedKeys(flts) {
		v := flts[name]
		add("FuzzDecodeFloats", name+"-auto", c.AppendFloats(nil, v), len(v))
		for _, e := range floatEncodings {
			add("FuzzDecodeFloats", name+"-"+e.String(), c.AppendFloatsAs(nil, v, e), len(v))
		}
	}
	bools := seedBools()
	for _, name := range sortedKeys(bools) {
		v := bools[name]
		add("FuzzDecodeBools", name, codec.AppendBools(nil, v), len(v))
	}
	strs := seedStrings()
	for _, name := range sortedKeys(strs) {
		v := strs[name]
		add("FuzzDecodeStrings", name, c.AppendStrings(nil, v), len(v))
		dict, codes := dictOf(v)
		add("FuzzDecodeStrings", name+"-dict", c.AppendDict(nil, &dict, codes), len(v))
		add("FuzzDecodeStrings", name+"-plain", c.AppendStringsAs(nil, &dict, codes, codec.StringPlain), len(v))
		add("FuzzDecodeStrings", name+"-prefix", c.AppendStringsAs(nil, &dict, codes, codec.StringPrefix), len(v))
	}
	return out
}

func dictOf(vals []string) (codec.Strings, []int32) {
	var dict codec.Strings
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

// Generator programs for the round-trip targets, written as op bytes (see
// intsFromBytes and friends).
func roundTripSeeds() map[string][]seed {
	out := map[string][]seed{}
	add := func(target, name string, args ...any) {
		out[target] = append(out[target], seed{name, args})
	}
	raw := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = append(b, 0)
			for k := range 8 {
				b = append(b, byte(v>>(8*k)))
			}
		}
		return b
	}
	intProgs := map[string][]byte{
		"empty":         {},
		"single-byte":   {1},
		"extremes":      {2, 2 | 1<<3, 2, 2 | 1<<3, 2 | 5<<3, 2 | 6<<3, 3, 200},
		"raw":           raw(math.MaxUint64, 1<<63, 12345, 1<<63-1),
		"ts-regular":    {2 | 10<<3, 6 | 4<<3, 1, 0, 5 | 31<<3, 5 | 31<<3, 5 | 31<<3, 5 | 31<<3, 5 | 31<<3},
		"ts-jitter":     {2 | 10<<3, 6 | 4<<3, 1, 0, 7, 3, 7 | 8, 250, 7, 1, 7 | 8, 2, 5 | 20<<3, 7, 255},
		"runs":          {1, 5, 3, 129, 1, 200, 3, 127, 2 | 1<<3, 3, 128},
		"wrapping-step": {2 | 1<<3, 6 | 6<<3, 3, 0, 5 | 31<<3, 5 | 31<<3},
		"small-deltas":  {1, 9, 4, 1, 4, 255, 4, 2, 4, 3, 4, 128, 4, 127, 4, 0},
	}
	for _, name := range sortedKeys(intProgs) {
		p := intProgs[name]
		add("FuzzIntsRoundTrip", name, p)
		add("FuzzIntsDifferential", name+"-packed-dod", p, 0, 2)
		add("FuzzIntsDifferential", name+"-rle-varint", p, 3, 4)
	}
	fltProgs := map[string][]byte{
		"empty":       {},
		"single-byte": {1},
		"specials": func() []byte {
			var b []byte
			for i := range specialFloats {
				b = append(b, byte(1|i<<3))
			}
			return b
		}(),
		"stale":     {1 | 6<<3, 2 | 2<<3, 1, 0, 0, 0, 1 | 6<<3, 5 | 1<<3, 7, 1 | 6<<3},
		"decimals":  {2 | 3<<3, 0x39, 0x30, 0, 0, 5 | 3<<3, 1, 5 | 3<<3, 255, 4 | 8, 5 | 3<<3, 3, 4, 3, 140},
		"nan-bits":  {7, 1, 2, 3, 4, 5, 6, 7, 8, 7 | 0x80, 2, 0, 0, 0, 0, 0, 0, 0},
		"big-ints":  {6, 1, 2, 3, 4, 5, 6, 7, 0x7f, 6 | 8<<3, 9, 9, 9, 9, 9, 9, 9, 9},
		"raw-noise": append(raw(math.Float64bits(94.798), math.Float64bits(0.202)), 4, 4|8, 4, 3, 5),
	}
	for _, name := range sortedKeys(fltProgs) {
		add("FuzzFloatsRoundTrip", name, fltProgs[name])
	}
	boolProgs := map[string][]byte{
		"empty": {}, "single-byte": {0}, "bits": {0, 3, 0xa5, 0x0f, 0xff}, "runs": {1, 0x85, 0x03, 0xff, 0x7f}, "const": {2, 40, 1},
	}
	for _, name := range sortedKeys(boolProgs) {
		add("FuzzBoolsRoundTrip", name, boolProgs[name])
	}
	strProgs := map[string][]byte{
		"empty":       {},
		"single-byte": {0},
		"values":      {3 << 2, 'a', 'b', 'c', 0, 1 << 2, 0xff, 1, 0, 1, 1, 2 | 5<<2},
		"dict-heavy":  {2 << 2, 'h', '1', 2 << 2, 'h', '2', 1, 0, 1, 1, 1, 0, 1, 1, 2 | 10<<2, 1, 0},
		"long":        {3, 'x', 0xb8, 0x0b, 3, 'y', 10, 0},
	}
	for _, name := range sortedKeys(strProgs) {
		add("FuzzStringsRoundTrip", name, strProgs[name])
	}
	return out
}

func addSeeds(f *testing.F, seeds []seed) {
	if len(seeds) == 0 {
		panic("no seeds for " + f.Name())
	}
	for _, s := range seeds {
		f.Add(s.args...)
	}
}

var writeCorpus = flag.Bool("write-corpus", false, "regenerate testdata/fuzz seed corpus files")

// marshalCorpus writes a corpus file in the format of go test fuzz v1.
func marshalCorpus(args []any) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		switch v := a.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case int:
			fmt.Fprintf(&b, "int(%d)\n", v)
		default:
			panic(fmt.Sprintf("corpus: unsupported %T", a))
		}
	}
	return b.Bytes()
}

// TestWriteSeedCorpus regenerates testdata/fuzz/<FuzzName>/seed-* from real
// encodings when run with -write-corpus; without it, it checks that every
// fuzz target has a checked-in corpus.
func TestWriteSeedCorpus(t *testing.T) {
	all := map[string][]seed{}
	for _, m := range []map[string][]seed{decodeSeeds(), roundTripSeeds(), chunkSeeds()} {
		for k, v := range m {
			all[k] = append(all[k], v...)
		}
	}
	for _, target := range sortedKeys(all) {
		dir := filepath.Join("testdata", "fuzz", target)
		if !*writeCorpus {
			ents, err := os.ReadDir(dir)
			if err != nil || len(ents) == 0 {
				t.Errorf("%s: no seed corpus in %s (run with -write-corpus)", target, dir)
			}
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		old, _ := filepath.Glob(filepath.Join(dir, "seed-*"))
		for _, p := range old {
			os.Remove(p)
		}
		for _, s := range all[target] {
			if err := os.WriteFile(filepath.Join(dir, "seed-"+s.name), marshalCorpus(s.args), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Decoder targets: arbitrary bytes and count. No panic; an error wraps
// ErrCorrupt; a success yields n values from at least the minimum number of
// bytes for n, decodes the same with a warm decoder into a dirty dst, and
// re-encodes to the same values.

func FuzzDecodeUvarints(f *testing.F) {
	addSeeds(f, decodeSeeds()["FuzzDecodeUvarints"])
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = boundN(n)
		orig := slices.Clone(data)
		out, k, err := codec.DecodeUvarints(nil, data, n)
		if !bytes.Equal(data, orig) {
			t.Fatal("decoder wrote into src")
		}
		dst := make([]uint64, 2, n+3)
		out2, k2, err2 := codec.DecodeUvarints(dst, data, n)
		if errString(err) != errString(err2) || k != k2 || !slices.Equal(out, out2) {
			t.Fatalf("decoding into a dirty dst differs: %v/%d vs %v/%d", err, k, err2, k2)
		}
		if err != nil {
			checkCorrupt(t, "DecodeUvarints", err, data)
			return
		}
		if len(out) != n || k < n || k > len(data) || k > 10*n {
			t.Fatalf("%d values from %d of %d bytes, n=%d", len(out), k, len(data), n)
		}
		re := codec.AppendUvarints(nil, out)
		if len(re) > k {
			t.Fatalf("canonical re-encoding takes %d bytes, input %d", len(re), k)
		}
		back, k3, err := codec.DecodeUvarints(nil, re, n)
		if err != nil || k3 != len(re) || !slices.Equal(back, out) {
			t.Fatalf("re-encoding does not round trip: %v", err)
		}
	})
}

func FuzzDecodeVarints(f *testing.F) {
	addSeeds(f, decodeSeeds()["FuzzDecodeVarints"])
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = boundN(n)
		orig := slices.Clone(data)
		out, k, err := codec.DecodeVarints(nil, data, n)
		if !bytes.Equal(data, orig) {
			t.Fatal("decoder wrote into src")
		}
		out2, k2, err2 := codec.DecodeVarints(dirtyInts(n), data, n)
		if errString(err) != errString(err2) || k != k2 || !slices.Equal(out, out2) {
			t.Fatalf("decoding into a dirty dst differs: %v/%d vs %v/%d", err, k, err2, k2)
		}
		if err != nil {
			checkCorrupt(t, "DecodeVarints", err, data)
			return
		}
		if len(out) != n || k < n || k > len(data) || k > 10*n {
			t.Fatalf("%d values from %d of %d bytes, n=%d", len(out), k, len(data), n)
		}
		re := codec.AppendVarints(nil, out)
		back, k3, err := codec.DecodeVarints(nil, re, n)
		if len(re) > k || err != nil || k3 != len(re) || !slices.Equal(back, out) {
			t.Fatalf("re-encoding does not round trip: %d bytes, %v", len(re), err)
		}
	})
}

func FuzzDecodeInts(f *testing.F) {
	addSeeds(f, decodeSeeds()["FuzzDecodeInts"])
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = boundN(n)
		orig := slices.Clone(data)
		var d codec.Decoder
		out, k, err := d.DecodeInts(nil, data, n)
		if !bytes.Equal(data, orig) {
			t.Fatal("decoder wrote into src")
		}
		out2, k2, err2 := warmDecoder(t).DecodeInts(dirtyInts(n), data, n)
		if errString(err) != errString(err2) || k != k2 || !slices.Equal(out, out2) {
			t.Fatalf("warm decoder and dirty dst differ: %v/%d vs %v/%d (%s)", err, k, err2, k2, intDiff(out2, out))
		}
		if err != nil {
			checkCorrupt(t, "DecodeInts", err, data)
			return
		}
		e := codec.IntEncoding(data[0])
		if len(out) != n || k > len(data) || k < minIntsLen(e, n) {
			t.Fatalf("%v: %d values from %d of %d bytes, n=%d, minimum %d", e, len(out), k, len(data), n, minIntsLen(e, n))
		}
		// A packed success with n values consumed at least one byte per
		// miniblock.
		if e == codec.IntPacked && k < ceilDiv(n, codec.MiniBlockLen) {
			t.Fatalf("packed: %d values from %d bytes", n, k)
		}
		var c codec.Encoder
		for _, re := range [][]byte{c.AppendIntsAs(nil, out, e), c.AppendInts(nil, out)} {
			back, k3, err := d.DecodeInts(nil, re, n)
			if err != nil || k3 != len(re) || !slices.Equal(back, out) {
				t.Fatalf("re-encoding as %v does not round trip: consumed %d of %d, %v, %s", codec.IntEncoding(re[0]), k3, len(re), err, intDiff(back, out))
			}
		}
	})
}

func FuzzDecodeFloats(f *testing.F) {
	addSeeds(f, decodeSeeds()["FuzzDecodeFloats"])
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = boundN(n)
		orig := slices.Clone(data)
		var d codec.Decoder
		out, k, err := d.DecodeFloats(nil, data, n)
		if !bytes.Equal(data, orig) {
			t.Fatal("decoder wrote into src")
		}
		out2, k2, err2 := warmDecoder(t).DecodeFloats(dirtyFloats(n), data, n)
		if errString(err) != errString(err2) || k != k2 || !sameBits(out, out2) {
			t.Fatalf("warm decoder and dirty dst differ: %v/%d vs %v/%d (%s)", err, k, err2, k2, floatDiff(out2, out))
		}
		if err != nil {
			checkCorrupt(t, "DecodeFloats", err, data)
			return
		}
		e := codec.FloatEncoding(data[0])
		if len(out) != n || k > len(data) || k < minFloatsLen(e, n) {
			t.Fatalf("%v: %d values from %d of %d bytes, n=%d, minimum %d", e, len(out), k, len(data), n, minFloatsLen(e, n))
		}
		if e == codec.FloatRaw && k != 1+8*n {
			t.Fatalf("raw: consumed %d bytes for %d values", k, n)
		}
		var c codec.Encoder
		for _, re := range [][]byte{c.AppendFloatsAs(nil, out, e), c.AppendFloats(nil, out)} {
			back, k3, err := d.DecodeFloats(nil, re, n)
			if err != nil || k3 != len(re) || !sameBits(back, out) {
				t.Fatalf("re-encoding as %v does not round trip: consumed %d of %d, %v, %s", codec.FloatEncoding(re[0]), k3, len(re), err, floatDiff(back, out))
			}
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func FuzzDecodeBools(f *testing.F) {
	addSeeds(f, decodeSeeds()["FuzzDecodeBools"])
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = boundN(n)
		orig := slices.Clone(data)
		out, k, err := codec.DecodeBools(nil, data, n)
		if !bytes.Equal(data, orig) {
			t.Fatal("decoder wrote into src")
		}
		dst := make([]bool, 3, n+3)
		dst[0], dst[1], dst[2] = true, true, true
		out2, k2, err2 := codec.DecodeBools(dst, data, n)
		if errString(err) != errString(err2) || k != k2 || !slices.Equal(out, out2) {
			t.Fatalf("dirty dst differs: %v/%d vs %v/%d", err, k, err2, k2)
		}
		if err != nil {
			checkCorrupt(t, "DecodeBools", err, data)
			return
		}
		want := 2
		switch codec.BoolEncoding(data[0]) {
		case codec.BoolBitmap:
			want = 1 + ceilDiv(n, 8)
		case codec.BoolSparse:
			// data[1] at the positions listed (as many as the count
			// says), the other value elsewhere; a gap a byte or more.
			listed, m := binary.Uvarint(data[2:])
			at := 0
			for _, v := range out {
				at += b2i(v == (data[1] == 1))
			}
			if m <= 0 || uint64(at) != listed || k < 2+m+int(listed) {
				t.Fatalf("sparse: %d values equal to %d, %d listed, %d bytes", at, data[1], listed, k)
			}
			want = k
		}
		if len(out) != n || k != want {
			t.Fatalf("%v: %d values from %d bytes, n=%d, want %d bytes", codec.BoolEncoding(data[0]), len(out), k, n, want)
		}
		re := codec.AppendBools(nil, out)
		back, k3, err := codec.DecodeBools(nil, re, n)
		if err != nil || k3 != len(re) || !slices.Equal(back, out) || len(re) > k {
			t.Fatalf("re-encoding does not round trip: %v", err)
		}
	})
}

func FuzzDecodeStrings(f *testing.F) {
	addSeeds(f, decodeSeeds()["FuzzDecodeStrings"])
	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		n = boundN(n)
		orig := slices.Clone(data)
		var d codec.Decoder
		var dict codec.Strings
		codes, k, err := d.DecodeStrings(&dict, nil, data, n, limit)
		if !bytes.Equal(data, orig) {
			t.Fatal("decoder wrote into src")
		}
		var dict2 codec.Strings
		dict2.AppendString("stale")
		dirty := []int32{9, 9, 9}
		codes2, k2, err2 := warmDecoder(t).DecodeStrings(&dict2, dirty, data, n, limit)
		if errString(err) != errString(err2) || k != k2 || !slices.Equal(codes, codes2) ||
			(err == nil && (!bytes.Equal(dict.Data, dict2.Data) || !slices.Equal(dict.Offsets, dict2.Offsets))) {
			t.Fatalf("warm decoder and dirty dst differ: %v/%d vs %v/%d", err, k, err2, k2)
		}
		if err != nil {
			checkCorrupt(t, "DecodeStrings", err, data)
			return
		}
		// Front coding stores each value's bytes shared with the value
		// before once: its data may exceed the bytes read.
		front := codec.StringEncoding(data[0]) == codec.StringPrefix
		if len(codes) != n || k > len(data) || (!front && k < 1+len(dict.Data)) {
			t.Fatalf("%d codes and %d data bytes from %d of %d bytes, n=%d", len(codes), len(dict.Data), k, len(data), n)
		}
		if len(dict.Data) > limit || dict.Len() > n {
			t.Fatalf("dictionary of %d values, %d bytes for n=%d", dict.Len(), len(dict.Data), n)
		}
		if len(dict.Offsets) != dict.Len()+1 || dict.Offsets[0] != 0 || int(dict.Offsets[dict.Len()]) != len(dict.Data) {
			t.Fatalf("malformed offsets %v for %d data bytes", dict.Offsets, len(dict.Data))
		}
		for i := 1; i < len(dict.Offsets); i++ {
			if dict.Offsets[i] < dict.Offsets[i-1] {
				t.Fatalf("offsets decrease at %d: %v", i, dict.Offsets)
			}
		}
		vals := make([]string, n)
		for i, c := range codes {
			if c < 0 || int(c) >= dict.Len() {
				t.Fatalf("code %d of value %d outside dictionary of %d", c, i, dict.Len())
			}
			vals[i] = string(dict.At(int(c)))
		}
		if (codec.StringEncoding(data[0]) == codec.StringPlain || front) && dict.Len() != n {
			t.Fatalf("%v: %d dictionary entries for %d values", codec.StringEncoding(data[0]), dict.Len(), n)
		}
		// Ascending only ever tells the truth, and only of front coding.
		if d.Ascending() {
			if !front {
				t.Fatalf("%v: Ascending", codec.StringEncoding(data[0]))
			}
			for i := 1; i < n; i++ {
				if vals[i-1] >= vals[i] {
					t.Fatalf("Ascending, yet value %d (%q) is not above value %d (%q)", i, vals[i], i-1, vals[i-1])
				}
			}
		}
		var c codec.Encoder
		for _, re := range [][]byte{c.AppendStrings(nil, vals), c.AppendDict(nil, &dict, codes), c.AppendStringsAs(nil, &dict, codes, codec.StringPrefix)} {
			var back codec.Strings
			bc, k3, err := d.DecodeStrings(&back, nil, re, n, limit)
			if err != nil || k3 != len(re) || len(bc) != n {
				t.Fatalf("re-encoding does not round trip: %v", err)
			}
			for i := range bc {
				if string(back.At(int(bc[i]))) != vals[i] {
					t.Fatalf("re-encoding: value %d differs", i)
				}
			}
		}
	})
}

// ---------------------------------------------------------------------------
// Round-trip targets.

const maxValues = 4096

func FuzzIntsRoundTrip(f *testing.F) {
	addSeeds(f, roundTripSeeds()["FuzzIntsRoundTrip"])
	f.Fuzz(func(t *testing.T, data []byte) {
		vals := intsFromBytes(data, maxValues)
		in := slices.Clone(vals)
		var c codec.Encoder
		var d codec.Decoder
		type enc struct {
			name string
			buf  []byte
		}
		encs := []enc{{"auto", c.AppendInts(withPrefix(), vals)}}
		for _, e := range intEncodings {
			encs = append(encs, enc{e.String(), c.AppendIntsAs(withPrefix(), vals, e)})
		}
		if !slices.Equal(in, vals) {
			t.Fatal("encoder modified its input")
		}
		for _, x := range encs {
			if !bytes.Equal(x.buf[:len(prefix)], prefix) {
				t.Fatalf("%s: dst's prefix changed", x.name)
			}
			body := x.buf[len(prefix):]
			src := withTrailer(body)
			got, k, err := d.DecodeInts(dirtyInts(len(vals)), src, len(vals))
			if err != nil {
				t.Fatalf("%s (%v): %d values in %d bytes: %v", x.name, codec.IntEncoding(body[0]), len(vals), len(body), err)
			}
			if k != len(body) {
				t.Fatalf("%s (%v): consumed %d of %d bytes", x.name, codec.IntEncoding(body[0]), k, len(body))
			}
			if !slices.Equal(got, vals) {
				t.Fatalf("%s (%v): %s", x.name, codec.IntEncoding(body[0]), intDiff(got, vals))
			}
		}
	})
}

// FuzzIntsDifferential decodes the same values from two encodings and
// compares the results with each other (and with the input).
func FuzzIntsDifferential(f *testing.F) {
	addSeeds(f, roundTripSeeds()["FuzzIntsDifferential"])
	f.Fuzz(func(t *testing.T, data []byte, a, b int) {
		vals := intsFromBytes(data, maxValues)
		ea := intEncodings[int(uint(a)%uint(len(intEncodings)))]
		eb := intEncodings[int(uint(b)%uint(len(intEncodings)))]
		var c codec.Encoder
		var d1, d2 codec.Decoder
		ba := c.AppendIntsAs(nil, vals, ea)
		bb := c.AppendIntsAs(nil, vals, eb)
		ga, ka, erra := d1.DecodeInts(nil, ba, len(vals))
		gb, kb, errb := d2.DecodeInts(nil, bb, len(vals))
		if erra != nil || errb != nil || ka != len(ba) || kb != len(bb) {
			t.Fatalf("%v: %v (%d of %d bytes); %v: %v (%d of %d bytes)", ea, erra, ka, len(ba), eb, errb, kb, len(bb))
		}
		if !slices.Equal(ga, gb) {
			t.Fatalf("%v and %v decode differently: %s", ea, eb, intDiff(ga, gb))
		}
		if !slices.Equal(ga, vals) {
			t.Fatalf("%v and %v agree but differ from the input: %s", ea, eb, intDiff(ga, vals))
		}
	})
}

func FuzzFloatsRoundTrip(f *testing.F) {
	addSeeds(f, roundTripSeeds()["FuzzFloatsRoundTrip"])
	f.Fuzz(func(t *testing.T, data []byte) {
		vals := floatsFromBytes(data, maxValues)
		in := slices.Clone(vals)
		var c codec.Encoder
		var d codec.Decoder
		type enc struct {
			name string
			buf  []byte
		}
		encs := []enc{{"auto", c.AppendFloats(withPrefix(), vals)}}
		for _, e := range floatEncodings {
			encs = append(encs, enc{e.String(), c.AppendFloatsAs(withPrefix(), vals, e)})
		}
		if !sameBits(in, vals) {
			t.Fatal("encoder modified its input")
		}
		for _, x := range encs {
			if !bytes.Equal(x.buf[:len(prefix)], prefix) {
				t.Fatalf("%s: dst's prefix changed", x.name)
			}
			body := x.buf[len(prefix):]
			src := withTrailer(body)
			got, k, err := d.DecodeFloats(dirtyFloats(len(vals)), src, len(vals))
			if err != nil {
				t.Fatalf("%s (%v): %d values in %d bytes: %v", x.name, codec.FloatEncoding(body[0]), len(vals), len(body), err)
			}
			if k != len(body) {
				t.Fatalf("%s (%v): consumed %d of %d bytes", x.name, codec.FloatEncoding(body[0]), k, len(body))
			}
			if !sameBits(got, vals) {
				t.Fatalf("%s (%v): %s", x.name, codec.FloatEncoding(body[0]), floatDiff(got, vals))
			}
		}
		if raw := 1 + 8*len(vals); len(encs[0].buf)-len(prefix) > raw {
			t.Fatalf("AppendFloats wrote %d bytes, raw takes %d", len(encs[0].buf)-len(prefix), raw)
		}
	})
}

func FuzzBoolsRoundTrip(f *testing.F) {
	addSeeds(f, roundTripSeeds()["FuzzBoolsRoundTrip"])
	f.Fuzz(func(t *testing.T, data []byte) {
		vals := boolsFromBytes(data, maxValues)
		buf := codec.AppendBools(withPrefix(), vals)
		if !bytes.Equal(buf[:len(prefix)], prefix) {
			t.Fatal("dst's prefix changed")
		}
		body := buf[len(prefix):]
		got, k, err := codec.DecodeBools(nil, withTrailer(body), len(vals))
		if err != nil || k != len(body) || !slices.Equal(got, vals) {
			t.Fatalf("%d values: consumed %d of %d bytes, %v", len(vals), k, len(body), err)
		}
		if len(body) > 1+ceilDiv(len(vals), 8) {
			t.Fatalf("%d values took %d bytes", len(vals), len(body))
		}
	})
}

func FuzzStringsRoundTrip(f *testing.F) {
	addSeeds(f, roundTripSeeds()["FuzzStringsRoundTrip"])
	f.Fuzz(func(t *testing.T, data []byte) {
		vals := stringsFromBytes(data, maxValues)
		var c codec.Encoder
		dict, codes := dictOf(vals)
		for _, x := range []struct {
			name string
			buf  []byte
			// data bytes the decoder must accept
			need int
		}{
			{"AppendStrings", c.AppendStrings(withPrefix(), vals), -1},
			{"AppendDict", c.AppendDict(withPrefix(), &dict, codes), len(dict.Data)},
			{"AppendStringsAs prefix", c.AppendStringsAs(withPrefix(), &dict, codes, codec.StringPrefix), -1},
		} {
			if !bytes.Equal(x.buf[:len(prefix)], prefix) {
				t.Fatalf("%s: dst's prefix changed", x.name)
			}
			body := x.buf[len(prefix):]
			var d codec.Decoder
			var out codec.Strings
			got, k, err := d.DecodeStrings(&out, nil, withTrailer(body), len(vals), 1<<30)
			if err != nil || k != len(body) || len(got) != len(vals) {
				t.Fatalf("%s: %d values: consumed %d of %d bytes, %v", x.name, len(vals), k, len(body), err)
			}
			for i, code := range got {
				if code < 0 || int(code) >= out.Len() || string(out.At(int(code))) != vals[i] {
					t.Fatalf("%s: value %d differs", x.name, i)
				}
			}
			// maxBytes: exactly the stored data is accepted, one less is not.
			need := len(out.Data)
			if x.need >= 0 && need != x.need {
				t.Fatalf("%s: %d data bytes, dictionary holds %d", x.name, need, x.need)
			}
			if _, _, err := d.DecodeStrings(&out, nil, body, len(vals), need); err != nil {
				t.Fatalf("%s: limit %d equal to the data rejected: %v", x.name, need, err)
			}
			if need > 0 {
				_, _, err := d.DecodeStrings(&out, nil, body, len(vals), need-1)
				if err == nil {
					t.Fatalf("%s: limit %d below the data accepted", x.name, need-1)
				}
				checkCorrupt(t, x.name+" limit", err, body)
			}
		}
	})
}
