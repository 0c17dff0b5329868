package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const tinyCSV = `series,ts_ms,value
a,1392388200000,0.132
a,1392388500000,0.134
a,1392388800000,1e-3
b,1392388200000,42
b,1392388200000,-7.25
a,1392389100000,NaN
`

func TestLoadCSV(t *testing.T) {
	d, err := loadCSV("tiny.csv", strings.NewReader(tinyCSV))
	if err != nil {
		t.Fatal(err)
	}
	if d.name != "tiny.csv" || len(d.series) != 2 || d.samples() != 6 {
		t.Fatalf("got %q with %d series, %d samples; want tiny.csv, 2, 6", d.name, len(d.series), d.samples())
	}
	a, b := d.series[0], d.series[1]
	if a.name != "a" || b.name != "b" {
		t.Fatalf("series names %q, %q", a.name, b.name)
	}
	if want := []int64{1392388200000, 1392388500000, 1392388800000, 1392389100000}; !slices.Equal(a.ms, want) {
		t.Errorf("a.ms = %v, want %v", a.ms, want)
	}
	if a.vals[0] != 0.132 || a.vals[2] != 0.001 || !math.IsNaN(a.vals[3]) {
		t.Errorf("a.vals = %v", a.vals)
	}
	if !slices.Equal(b.vals, []float64{42, -7.25}) {
		t.Errorf("b.vals = %v", b.vals)
	}

	for name, bad := range map[string]string{
		"empty":        "",
		"header":       "name,ts,value\na,1,2\n",
		"no rows":      "series,ts_ms,value\n",
		"fields":       "series,ts_ms,value\na,1\n",
		"ts":           "series,ts_ms,value\na,1.5,2\n",
		"value":        "series,ts_ms,value\na,1,x\n",
		"back in time": "series,ts_ms,value\na,2,1\na,1,1\n",
	} {
		if _, err := loadCSV(name, strings.NewReader(bad)); err == nil {
			t.Errorf("%s: loadCSV accepted %q", name, bad)
		}
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-data", "a.csv", "b.csv", "-reps", "3", "-chunks", "10,20", "-synthetic=false", "c.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.files, []string{"a.csv", "b.csv", "c.csv"}) || cfg.reps != 3 ||
		!slices.Equal(cfg.chunks, []int{10, 20}) || cfg.synthetic {
		t.Fatalf("got %+v", cfg)
	}
	cfg, err = parseFlags(nil)
	if err != nil || cfg.reps != 7 || !slices.Equal(cfg.chunks, []int{120, 8192}) || !cfg.synthetic {
		t.Fatalf("defaults: %+v, %v", cfg, err)
	}
	if _, err := parseFlags([]string{"-chunks", "0"}); err == nil {
		t.Error("accepted chunk size 0")
	}
}

func TestSplit(t *testing.T) {
	d := &dataset{series: []series{
		{ms: []int64{1, 2, 3, 4, 5}, vals: []float64{1, 2, 3, 4, 5}},
		{ms: []int64{7, 8}, vals: []float64{7, 8}},
	}}
	cs := split(d, nanos(d), 2)
	if len(cs) != 4 {
		t.Fatalf("%d chunks, want 4", len(cs))
	}
	if !slices.Equal(cs[2].ms, []int64{5}) || !slices.Equal(cs[2].ns, []int64{5e6}) || !slices.Equal(cs[3].vals, []float64{7, 8}) {
		t.Errorf("chunks %+v", cs)
	}
}

// testSeries has counter-, gauge- and constant-like stretches, a counter
// reset, a repeated timestamp and special values.
func testSeries() *chunkData {
	c := &chunkData{}
	ts := int64(1_700_000_000_000)
	v := 100.0
	for i := 0; i < 300; i++ {
		ts += 15_000 + int64(i%3) - 1
		if i == 50 {
			ts -= 15_000 // same timestamp twice
		}
		switch {
		case i < 100:
			v += float64(i % 7)
		case i == 100:
			v = 0
		case i < 200:
			v = float64(2000+i*37%500) / 100 // two decimals
		default:
			v = 42
		}
		c.ms = append(c.ms, ts)
		c.ns = append(c.ns, ts*1e6)
		c.vals = append(c.vals, v)
	}
	c.vals[150] = math.Inf(1)
	c.vals[151] = math.Inf(-1)
	return c
}

// roundTrip encodes c with cd (twice, to exercise buffer reuse) and checks
// the decoding.
func roundTrip(t *testing.T, cd codec, c *chunkData, wantExact bool) {
	t.Helper()
	buf, err := cd.encode(make([]byte, 0, 3), &chunkData{ms: c.ms[:5], ns: c.ns[:5], vals: c.vals[:5]})
	if err != nil {
		t.Fatal(err)
	}
	buf, err = cd.encode(buf, c)
	if err != nil {
		t.Fatal(err)
	}
	blk := slices.Clone(buf)
	for range 2 { // reused decoder state
		var out chunkData
		if err := cd.decode(blk, &out); err != nil {
			t.Fatal(err)
		}
		var r result
		compare(&r, c, &out)
		if r.tsMismatch != 0 {
			t.Fatalf("%s: %d timestamps differ", cd.name(), r.tsMismatch)
		}
		if got := r.exact(); got != wantExact {
			t.Fatalf("%s: exact = %t (%d values changed, max relative error %g), want %t",
				cd.name(), got, r.changed, r.maxRelErr, wantExact)
		}
		if r.maxRelErr > 1e-11 {
			t.Fatalf("%s: max relative error %g", cd.name(), r.maxRelErr)
		}
	}
	if !bytes.Equal(blk, buf) {
		t.Fatalf("%s: decode changed the block", cd.name())
	}
}

func TestPromRoundTrip(t *testing.T) {
	c := testSeries()
	c.vals[10] = math.NaN()
	c.vals[11] = 1.0 / 3
	roundTrip(t, newProm(), c, true)
}

func TestTSQRoundTrip(t *testing.T) {
	c := testSeries()
	c.vals[10] = math.NaN()
	c.vals[11] = 1.0 / 3
	c.vals[12] = math.Copysign(0, -1)
	roundTrip(t, &tsqCodec{}, c, true)
}

func TestVMRoundTrip(t *testing.T) {
	// VM's decimal conversion keeps these values bit-exact...
	roundTrip(t, &vmCodec{}, testSeries(), true)
	// ... but not full-precision ones, within a small relative error.
	c := testSeries()
	for i := range c.vals {
		c.vals[i] = float64(i) + 1.0/3
	}
	roundTrip(t, &vmCodec{}, c, false)
}

func TestVMRejectsShortBlock(t *testing.T) {
	var out chunkData
	if err := (&vmCodec{}).decode(make([]byte, vmHeaderSize-1), &out); err == nil {
		t.Fatal("decoded a block shorter than its header")
	}
}

func TestRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.csv")
	if err := os.WriteFile(path, []byte(tinyCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cfg := &config{files: []string{path}, chunks: []int{2, 100}, reps: 1}
	if err := run(cfg, &stdout, &stderr); err != nil {
		t.Fatal(err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if want := 1 + 2*len(newCodecs()); len(lines) != want {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), want, stdout.String())
	}
	if lines[0] != "file\tcodec\tchunk\tsamples\tbytes_per_sample\tencode_ns_per_sample\tdecode_ns_per_sample\texact" {
		t.Errorf("header %q", lines[0])
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 8 || f[0] != "tiny.csv" || f[3] != "6" {
			t.Errorf("row %q", l)
		}
	}
	if !strings.Contains(stderr.String(), "summary") {
		t.Errorf("no summary on stderr:\n%s", stderr.String())
	}
}

func TestSynthetic(t *testing.T) {
	a, b := synthetic(), synthetic()
	names := []string{"synth-counter", "synth-gauge2", "synth-randomwalk", "synth-const"}
	for i, d := range a {
		if d.name != names[i] || d.samples() != synthSeries*synthSamples {
			t.Fatalf("dataset %d: %s with %d samples", i, d.name, d.samples())
		}
		for j, s := range d.series {
			if !slices.Equal(s.ms, b[i].series[j].ms) || !slices.Equal(s.vals, b[i].series[j].vals) {
				t.Fatalf("%s: not deterministic", d.name)
			}
			if !slices.IsSorted(s.ms) {
				t.Fatalf("%s: timestamps not ordered", s.name)
			}
		}
	}
	for _, s := range a[1].series { // gauge2: two decimals
		for _, v := range s.vals {
			if c := math.Round(v * 100); c/100 != v {
				t.Fatalf("%s: %v has more than two decimals", s.name, v)
			}
		}
	}
}
