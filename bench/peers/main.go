// Command peers compares tsq's chunk encoding with the chunk encodings of
// Prometheus (tsdb/chunkenc XOR) and VictoriaMetrics (lib/encoding over
// lib/decimal) on the same time series: bytes per sample, encode and decode
// time per sample, and whether the round trip is bit-exact.
//
//	go run . -data file.csv [-data more.csv | more.csv ...] [-chunks 120,8192] [-reps 7] [-synthetic=true]
//
// With -ingest it compares the stores instead: tsq's against Prometheus'
// TSDB, appending a replicated CSV file and scanning it back:
//
//	go run . -ingest -data file.csv [-ingest-samples 10000000] [-reps 3]
//
// It prints a TSV table on stdout and a summary on stderr. See
// ../README.md.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// listFlag collects a flag that may repeat or hold comma-separated values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

type config struct {
	files     []string
	chunks    []int
	reps      int
	synthetic bool

	ingest        bool // ingest mode: stores, not codecs (ingest.go)
	ingestSamples int
	// ingestOnly, if set, restricts the ingest runs to the systems, sync
	// policies and goroutine counts it names ("tsq", "prom", "interval",
	// "always", "1", "8"; any one of each kind given restricts that kind).
	ingestOnly []string
	cpuProfile string // ingest mode: CPU profile of the tsq appends
	traceFile  string // ingest mode: execution trace of every run
	memProfile string // ingest mode: allocation profile after the runs
}

func parseFlags(args []string) (*config, error) {
	// An own FlagSet: VictoriaMetrics' packages register flags of their own
	// on flag.CommandLine.
	fs := flag.NewFlagSet("peers", flag.ContinueOnError)
	var files listFlag
	fs.Var(&files, "data", "CSV file with header series,ts_ms,value (repeatable, comma-separated; extra arguments are data files too)")
	chunks := fs.String("chunks", "120,8192", "comma-separated chunk sizes in samples")
	reps := fs.Int("reps", 7, "timed repetitions per (file, codec, chunk); the median is reported")
	synth := fs.Bool("synthetic", true, "also run the synthetic shapes synth-counter, synth-gauge2, synth-randomwalk, synth-const")
	ingest := fs.Bool("ingest", false, "ingest mode: compare tsq's store with Prometheus' TSDB on the (replicated) -data file: append rate, fsyncs, bytes on disk, scan rate (default -reps 3)")
	ingestSamples := fs.Int("ingest-samples", 10_000_000, "ingest mode: replicate the file's series until at least this many samples")
	var only listFlag
	fs.Var(&only, "ingest-only", "ingest mode: run only these of tsq,prom / interval,always,always-async8 / 1,8 (comma-separated; a kind not named runs in full)")
	cpuProfile := fs.String("cpuprofile", "", "ingest mode: write a CPU profile of tsq's append phases to this file")
	traceFile := fs.String("trace", "", "ingest mode: write an execution trace (go tool trace) of every run to this file")
	memProfile := fs.String("memprofile", "", "ingest mode: write an allocation profile (all runs) to this file")
	// Flags and file names may interleave: "-data a.csv b.csv -reps 3".
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		i := 0
		for i < len(rest) && !(len(rest[i]) > 1 && rest[i][0] == '-') {
			files = append(files, rest[i])
			i++
		}
		if i == len(rest) {
			break
		}
		args = rest[i:]
	}
	cfg := &config{files: files, reps: *reps, synthetic: *synth, ingest: *ingest, ingestSamples: *ingestSamples,
		ingestOnly: only, cpuProfile: *cpuProfile, memProfile: *memProfile, traceFile: *traceFile}
	if cfg.ingest {
		repsSet := false
		fs.Visit(func(f *flag.Flag) { repsSet = repsSet || f.Name == "reps" })
		if !repsSet {
			cfg.reps = 3
		}
		if len(cfg.files) != 1 {
			return nil, fmt.Errorf("-ingest takes exactly one -data file, got %d", len(cfg.files))
		}
		if cfg.ingestSamples < 1 {
			return nil, fmt.Errorf("-ingest-samples must be at least 1")
		}
	}
	for _, p := range strings.Split(*chunks, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > maxPromSamples {
			return nil, fmt.Errorf("-chunks: %q is not a chunk size in 1..%d", p, maxPromSamples)
		}
		cfg.chunks = append(cfg.chunks, n)
	}
	if cfg.reps < 1 {
		return nil, fmt.Errorf("-reps must be at least 1")
	}
	if len(cfg.files) == 0 && !cfg.synthetic {
		return nil, fmt.Errorf("nothing to do: give -data files or -synthetic")
	}
	return cfg, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if err == flag.ErrHelp {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(2)
	}
	do := run
	if cfg.ingest {
		do = runIngest
	}
	if err := do(cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

// result is one row of the table.
type result struct {
	file       string
	codec      string
	chunk      int
	samples    int
	bytes      int
	blocks     int
	encNs      float64   // median encode ns per sample
	decNs      float64   // median decode ns per sample
	encReps    []float64 // encode ns per sample of each repetition
	decReps    []float64
	tsMismatch int     // decoded timestamps that differ
	changed    int     // decoded values whose bits differ
	maxRelErr  float64 // largest |decoded-orig|/|orig| over changed values
}

func (r *result) exact() bool { return r.tsMismatch == 0 && r.changed == 0 }

func run(cfg *config, stdout, stderr io.Writer) error {
	// Single-threaded: one P runs the benchmark and the (rare) GC work.
	runtime.GOMAXPROCS(1)

	var sets []*dataset
	for _, f := range cfg.files {
		d, err := loadCSVFile(f)
		if err != nil {
			return err
		}
		sets = append(sets, d)
	}
	if cfg.synthetic {
		sets = append(sets, synthetic()...)
	}

	codecs := newCodecs()

	out := bufio.NewWriter(stdout)
	fmt.Fprintln(out, "file\tcodec\tchunk\tsamples\tbytes_per_sample\tencode_ns_per_sample\tdecode_ns_per_sample\texact")
	var results []result
	for _, d := range sets {
		ns := nanos(d)
		for _, size := range cfg.chunks {
			chunks := split(d, ns, size)
			rs, err := measureAll(codecs, chunks, cfg.reps)
			if err != nil {
				return fmt.Errorf("%s, chunk %d: %w", d.name, size, err)
			}
			for _, r := range rs {
				r.file, r.chunk = d.name, size
				results = append(results, r)
				n := float64(r.samples)
				fmt.Fprintf(out, "%s\t%s\t%d\t%d\t%.3f\t%.2f\t%.2f\t%t\n",
					r.file, r.codec, r.chunk, r.samples, float64(r.bytes)/n, r.encNs, r.decNs, r.exact())
			}
			if err := out.Flush(); err != nil {
				return err
			}
		}
	}
	summarize(stderr, results)
	return nil
}

// nanos returns each series' timestamps in nanoseconds.
func nanos(d *dataset) [][]int64 {
	ns := make([][]int64, len(d.series))
	for i, s := range d.series {
		ns[i] = make([]int64, len(s.ms))
		for j, t := range s.ms {
			ns[i][j] = t * 1e6
		}
	}
	return ns
}

// split cuts every series into consecutive chunks of size samples (the last
// one of a series may be shorter). The chunks share the series' storage.
func split(d *dataset, ns [][]int64, size int) []chunkData {
	var cs []chunkData
	for i, s := range d.series {
		for lo := 0; lo < len(s.ms); lo += size {
			hi := min(lo+size, len(s.ms))
			cs = append(cs, chunkData{ms: s.ms[lo:hi:hi], ns: ns[i][lo:hi:hi], vals: s.vals[lo:hi:hi]})
		}
	}
	return cs
}

// measure encodes and decodes all chunks with cd: once untimed to keep the
// blocks, count their bytes and check the round trip, then reps times each
// for encoding and decoding. One scratch buffer serves every encode, and
// one output every decode, as in a store.
// prepared is one codec's untimed state for a set of chunks.
type prepared struct {
	cd     codec
	r      result
	blocks [][]byte
	buf    []byte
	out    chunkData
	enc    []float64 // ns per sample of each timed repetition
	dec    []float64
}

// prepare encodes every chunk once untimed, keeping the blocks, and checks
// the round trip, which also warms the decoder up.
func prepare(cd codec, chunks []chunkData) (*prepared, error) {
	p := &prepared{cd: cd}
	p.r.codec = cd.name()
	for i := range chunks {
		p.r.samples += len(chunks[i].vals)
	}
	var arena []byte
	ends := make([]int, len(chunks))
	var err error
	for i := range chunks {
		if p.buf, err = cd.encode(p.buf, &chunks[i]); err != nil {
			return nil, err
		}
		arena = append(arena, p.buf...)
		ends[i] = len(arena)
	}
	p.r.bytes, p.r.blocks = len(arena), len(chunks)
	p.blocks = make([][]byte, len(chunks))
	lo := 0
	for i, hi := range ends {
		p.blocks[i] = arena[lo:hi:hi]
		lo = hi
	}
	for i, b := range p.blocks {
		p.out.ms, p.out.ns = p.out.ms[:0], p.out.ns[:0]
		if err := cd.decode(b, &p.out); err != nil {
			return nil, fmt.Errorf("%s: decode chunk %d: %w", cd.name(), i, err)
		}
		compare(&p.r, &chunks[i], &p.out)
	}
	return p, nil
}

// timeRep times one encode pass and one decode pass over all chunks.
func (p *prepared) timeRep(chunks []chunkData) error {
	n := float64(p.r.samples)
	size := 0
	runtime.GC()
	start := time.Now()
	var err error
	for i := range chunks {
		if p.buf, err = p.cd.encode(p.buf, &chunks[i]); err != nil {
			return err
		}
		size += len(p.buf)
	}
	p.enc = append(p.enc, float64(time.Since(start).Nanoseconds())/n)
	runtime.GC()
	start = time.Now()
	got := 0
	for _, b := range p.blocks {
		if err := p.cd.decode(b, &p.out); err != nil {
			return err
		}
		got += len(p.out.vals)
	}
	p.dec = append(p.dec, float64(time.Since(start).Nanoseconds())/n)
	if size != p.r.bytes || got != p.r.samples {
		return fmt.Errorf("%s: timed pass disagrees with the untimed one (%d bytes, %d samples)", p.cd.name(), size, got)
	}
	return nil
}

// measureAll times every codec on the same chunks. Each repetition times
// the codecs back to back, so that a slow phase of a shared machine hits
// them alike; per-codec figures are medians over repetitions, and the
// summary's ratios are medians of per-repetition ratios.
func measureAll(codecs []codec, chunks []chunkData, reps int) ([]result, error) {
	ps := make([]*prepared, len(codecs))
	for i, cd := range codecs {
		p, err := prepare(cd, chunks)
		if err != nil {
			return nil, err
		}
		ps[i] = p
	}
	for range reps {
		for _, p := range ps {
			if err := p.timeRep(chunks); err != nil {
				return nil, err
			}
		}
	}
	out := make([]result, len(ps))
	for i, p := range ps {
		p.r.encNs, p.r.decNs = median(p.enc), median(p.dec)
		p.r.encReps, p.r.decReps = p.enc, p.dec
		out[i] = p.r
	}
	return out, nil
}

// compare adds to r the differences between chunk c and its decoding got,
// comparing timestamps in whichever unit the codec decoded to.
func compare(r *result, c, got *chunkData) {
	gotTS, wantTS := got.ms, c.ms
	if len(got.ns) > 0 {
		gotTS, wantTS = got.ns, c.ns
	}
	if len(gotTS) != len(wantTS) || len(got.vals) != len(c.vals) {
		r.tsMismatch += len(c.vals)
		r.changed += len(c.vals)
		return
	}
	for i, t := range wantTS {
		if gotTS[i] != t {
			r.tsMismatch++
		}
	}
	for i, v := range c.vals {
		g := got.vals[i]
		if math.Float64bits(g) == math.Float64bits(v) {
			continue
		}
		r.changed++
		if e := math.Abs(g-v) / math.Abs(v); e > r.maxRelErr || math.IsNaN(e) {
			r.maxRelErr = e
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// summarize prints tsq's ratios to each peer and the lossy round trips.
func summarize(w io.Writer, results []result) {
	type key struct {
		file  string
		chunk int
	}
	var keys []key
	by := map[key]map[string]*result{}
	for i := range results {
		r := &results[i]
		k := key{r.file, r.chunk}
		if by[k] == nil {
			by[k] = map[string]*result{}
			keys = append(keys, k)
		}
		by[k][r.codec] = r
	}

	fmt.Fprintln(w, "\nsummary: tsq/peer ratios (below 1: tsq smaller or faster); times: median over repetitions of the per-repetition ratio")
	fmt.Fprintln(w, "file\tchunk\tbytes/prom\tbytes/vm\tencode/prom\tencode/vm\tdecode/prom\tdecode/vm")
	ratio := func(a, b float64) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", a/b)
	}
	// repRatio is the median over repetitions of a's time over b's.
	repRatio := func(a, b []float64) string {
		if len(a) == 0 || len(a) != len(b) {
			return "-"
		}
		rs := make([]float64, len(a))
		for i := range a {
			rs[i] = a[i] / b[i]
		}
		return fmt.Sprintf("%.2f", median(rs))
	}
	for _, k := range keys {
		t, p, v := by[k]["tsq"], by[k]["prom"], by[k]["vm"]
		if t == nil || p == nil || v == nil {
			fmt.Fprintf(w, "%s\t%d\t(no tsq results)\n", k.file, k.chunk)
			continue
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", k.file, k.chunk,
			ratio(float64(t.bytes), float64(p.bytes)), ratio(float64(t.bytes), float64(v.bytes)),
			repRatio(t.encReps, p.encReps), repRatio(t.encReps, v.encReps),
			repRatio(t.decReps, p.decReps), repRatio(t.decReps, v.decReps))
	}

	fmt.Fprintln(w)
	for _, r := range results {
		if r.exact() {
			continue
		}
		fmt.Fprintf(w, "lossy: %s %s chunk %d: %d of %d values changed (%.4f%%), max relative error %.3g; %d timestamps differ\n",
			r.codec, r.file, r.chunk, r.changed, r.samples, 100*float64(r.changed)/float64(r.samples), r.maxRelErr, r.tsMismatch)
	}
	for _, r := range results {
		if r.codec == "vm" {
			fmt.Fprintf(w, "vm header: %s chunk %d: %.3f of %.3f bytes/sample are the %d-byte per-block header (%d blocks)\n",
				r.file, r.chunk, float64(r.blocks*vmHeaderSize)/float64(r.samples), float64(r.bytes)/float64(r.samples), vmHeaderSize, r.blocks)
		}
	}
}
