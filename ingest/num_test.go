package ingest

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkFloat fails unless parseFloat agrees with strconv.ParseFloat on
// s, bit for bit, errors included.
func checkFloat(t *testing.T, s string) {
	t.Helper()
	want, werr := strconv.ParseFloat(s, 64)
	got, gerr := parseFloat([]byte(s))
	if (werr == nil) != (gerr == nil) || math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Fatalf("parseFloat(%q) = %v, %v; strconv: %v, %v", s, got, gerr, want, werr)
	}
}

func TestParseFloat(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "0.0", "-0.0", "1", "0.132", "-12.5", "+3.25",
		"123456789012345", "1234567890123456", "12345678901234567890", "0.000000000000001",
		"9007199254740993", "999999999999999.9", ".5", "5.", "-", "+", "", ".", "1..2", "1.2.3",
		"1e5", "1E-3", "NaN", "inf", "-Inf", "0x1p-2", "1_000", "12a", "--1", "0.1", "0.3",
		"100000000000000000000000", "4.9e-324", "1.7976931348623157e308"} {
		checkFloat(t, s)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		n := rng.IntN(17) + 1
		b := make([]byte, 0, n+2)
		if rng.IntN(4) == 0 {
			b = append(b, '-')
		}
		dot := rng.IntN(n + 1)
		for i := range n {
			if i == dot && i > 0 {
				b = append(b, '.')
			}
			b = append(b, byte('0'+rng.IntN(10)))
		}
		checkFloat(t, string(b))
	}
}

func TestParseIntEdges(t *testing.T) {
	for _, s := range []string{"0", "-0", "+7", "-", "", "12a", "1392388200000", "999999999999999999",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999", "1.5"} {
		want, err := strconv.ParseInt(s, 10, 64)
		got, ok := parseInt([]byte(s))
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("parseInt(%q) = %d, %v; strconv: %d, %v", s, got, ok, want, err)
		}
	}
}

func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0.132", "-12.5", "1e5", "123456789012345.6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkFloat(t, s) })
}
