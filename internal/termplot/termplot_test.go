package termplot

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func wave(name string, n int, phase float64) Series {
	s := Series{Name: name}
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	for i := 0; i < n; i++ {
		s.Times = append(s.Times, t0+int64(i)*int64(time.Minute))
		s.Values = append(s.Values, 10*math.Sin(float64(i)/10+phase))
	}
	return s
}

func TestLine(t *testing.T) {
	var buf bytes.Buffer
	err := Line(&buf, []Series{wave("a", 200, 0), wave("b", 200, 1)}, Options{Width: 40, Height: 10})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	t.Log("\n" + out)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 10+2+2 {
		t.Fatalf("%d lines", len(lines))
	}
	braille := 0
	for _, r := range out {
		if r >= 0x2801 && r <= 0x28ff {
			braille++
		}
	}
	if braille < 40 {
		t.Fatalf("only %d braille cells", braille)
	}
	for _, want := range []string{"12-01 00:00", "12-01 03:19", "━━ a", "━━ b", "(UTC)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	// The top label is the maximum and the bottom the minimum.
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "9.99") || !strings.HasPrefix(strings.TrimSpace(lines[9]), "-10") {
		t.Errorf("value labels: %q %q", lines[0], lines[9])
	}
	lw := strings.Index(lines[0], "┤")
	for _, l := range lines[:10] {
		if n := utf8.RuneCountInString(l); n != lw+1+40 {
			t.Errorf("row width %d: %q", n, l)
		}
	}
}

func TestLineColorAndLimits(t *testing.T) {
	var ss []Series
	for i := 0; i < MaxSeries+2; i++ {
		ss = append(ss, wave(string(rune('a'+i)), 50, float64(i)))
	}
	var buf bytes.Buffer
	if err := Line(&buf, ss, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\x1b[36m") || !strings.Contains(buf.String(), "(2 more series not drawn)") {
		t.Fatalf("no colour or no count:\n%s", buf.String())
	}
	if err := Line(&buf, []Series{{Name: "x", Times: []int64{1}, Values: []float64{math.NaN()}}}, Options{}); err == nil {
		t.Fatal("no error for an all-NaN chart")
	}
	// One point and a flat line still draw.
	buf.Reset()
	if err := Line(&buf, []Series{{Name: "x", Times: []int64{5, 6}, Values: []float64{3, 3}}}, Options{Width: 10, Height: 4}); err != nil {
		t.Fatal(err)
	}
}

func TestSparkline(t *testing.T) {
	got := Sparkline([]float64{0, 1, 2, 3, 4, 5, 6, 7}, 8)
	if got != "▁▂▃▄▅▆▇█" {
		t.Fatalf("got %q", got)
	}
	if got := Sparkline([]float64{1, 1, 1, 1}, 10); utf8.RuneCountInString(got) != 4 {
		t.Fatalf("got %q", got)
	}
	if got := Sparkline([]float64{1, math.NaN(), math.NaN(), 2}, 4); got != "▁  █" {
		t.Fatalf("got %q", got)
	}
	if Sparkline(nil, 5) != "" {
		t.Fatal("empty")
	}
}

func TestSparklineFromZero(t *testing.T) {
	if got := SparklineFromZero([]float64{500, 502, 500, 0}, 4); got != "███▁" {
		t.Fatalf("got %q", got)
	}
	if got := Sparkline([]float64{500, 502, 500, 0}, 4); got != "███▁" {
		t.Fatalf("got %q", got)
	}
	if got := Sparkline([]float64{500, 502, 500, 501}, 4); got != "▁█▁▅" {
		t.Fatalf("got %q", got)
	}
}
