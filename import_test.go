package tsq

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tsqdb/tsq/ingest"
	"github.com/tsqdb/tsq/internal/vfs"
)

func TestImportBasic(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 16 << 10, BlockRows: 1000})
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1), rec(day0+1, "a", 2), rec(day0+2, "b", 3)); err != nil {
		t.Fatal(err)
	}
	const n = 20000
	var calls int
	o := importOpts(t)
	o.Progress = func(p ImportProgress) { calls++ }
	st, err := s.Import(ctx, "ev", &jsonGen{rows: n}, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != n || st.FirstSeq != 4 || st.LastSeq != 3+n || st.Segments < 2 || st.StagedBytes == 0 || st.Format != ingest.JSONLines || calls == 0 {
		t.Fatalf("stats %+v calls %d", st, calls)
	}
	t.Logf("stats: %+v", st)
	check := func(s *Store) {
		if got := countT(t, s, "ev"); got != n+3 {
			t.Fatalf("count %d", got)
		}
		seqs := allSeqs(t, s, "ev")
		for i, q := range seqs {
			if q != uint64(i+1) {
				t.Fatalf("seq %d at %d", q, i)
			}
		}
		r, err := s.Get("ev", 4+12345)
		if err != nil {
			t.Fatal(err)
		}
		if r.Series != "s4" || r.Key != "k12345" || r.Time != day0+12345*1e9 || r.Op != OpPut {
			t.Fatalf("%+v", r)
		}
		if v, _ := r.Field("n"); v.Int() != 12345 {
			t.Fatalf("n %v", v)
		}
		if v, _ := r.Field("v"); v.Float() != 345.25 {
			t.Fatalf("v %v", v)
		}
		if v, _ := r.Field("nested.a"); v.Int() != 12345%3 {
			t.Fatalf("nested.a %v", v)
		}
		recs, err := s.Imports("ev")
		if err != nil || len(recs) != 1 || recs[0].ID != st.ID || recs[0].Rows != n || recs[0].FirstSeq != 4 || recs[0].LastSeq != n+3 || recs[0].Source != "gen.jsonl" {
			t.Fatalf("journal %v %+v", err, recs)
		}
		stagingEmpty(t, mem, "db")
	}
	check(s)
	// appends continue after the import
	seqs, err := s.Append(ctx, "ev", rec(day0, "a", 9))
	if err != nil || seqs[0] != n+4 {
		t.Fatalf("%v %v", err, seqs)
	}
	closeT(t, s)
	for _, fsys := range []*vfs.MemFS{mem, mem.CrashClone()} {
		s := openT(t, fsys, Options{})
		if got := countT(t, s, "ev"); got != n+4 {
			t.Fatalf("after reopen: %d", got)
		}
		closeT(t, s)
	}
}

func TestImportFormats(t *testing.T) {
	cases := []struct {
		name, in string
		o        ImportOptions
		rows     int
		check    func(Record) bool
	}{
		{"jsonl", `{"t":1,"x":1}` + "\n" + `{"t":2,"x":2}` + "\n", ImportOptions{Source: "a.jsonl", Mapping: ingest.Mapping{Time: "t", TimeUnit: "s"}}, 2,
			func(r Record) bool { v, _ := r.Field("x"); return r.Time == 1e9 && v.Int() == 1 && r.Series == "fmt" }},
		{"json", `[{"t":1,"x":"a"},{"t":2,"x":"b"}]`, ImportOptions{Mapping: ingest.Mapping{Time: "t"}}, 2,
			func(r Record) bool { v, _ := r.Field("x"); return v.Str() == "a" }},
		{"csv", "series,ts,value\na,1000,0.1\nb,2000,0.2\n", ImportOptions{Source: "x.csv", Mapping: ingest.Mapping{Time: "ts", Series: "series"}}, 2,
			func(r Record) bool {
				v, _ := r.Field("value")
				return r.Series == "a" && v.Float() == 0.1 && r.Time == 1e9
			}},
		{"lp", "cpu,host=a usage=0.5 1000\ncpu,host=b usage=1i 2000\n", ImportOptions{Format: ingest.LineProtocol}, 2,
			func(r Record) bool {
				v, _ := r.Field("usage")
				return r.Series == "cpu,host=a" && v.Float() == 0.5 && r.Time == 1000
			}},
		{"prom", "# TYPE up gauge\nup{job=\"x\"} 1 1000\nup{job=\"y\"} 0 2000\n", ImportOptions{}, 2,
			func(r Record) bool {
				v, _ := r.Field("value")
				return r.Series == `up{job="x"}` && v.Float() == 1 && r.Time == 1e9
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := openT(t, vfs.NewMem(), Options{})
			defer closeT(t, s)
			o := tc.o
			if _, err := s.Import(ctx, "fmt", strings.NewReader(tc.in), &o); err != nil {
				t.Fatal(err)
			}
			if got := countT(t, s, "fmt"); got != tc.rows {
				t.Fatalf("%d rows", got)
			}
			r, err := s.Get("fmt", 1)
			if err != nil || !tc.check(r) {
				t.Fatalf("%v %+v", err, r)
			}
		})
	}
}

func TestImportMalformed(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{})
	defer closeT(t, s)
	s.Append(ctx, "ev", rec(day0, "a", 1))
	in := `{"ts":1,"host":"a"}` + "\n" + `{"ts":2,"host":"a"}` + "\n" + `{"ts":3,"host":` + "\n" + `{"ts":4,"host":"a"}` + "\n"
	_, err := s.Import(ctx, "ev", strings.NewReader(in), importOpts(t))
	var pe *ingest.Error
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Offset != 40 || pe.Snippet != `{"ts":3,"host":` {
		t.Fatalf("%v", err)
	}
	t.Logf("error: %v", err)
	if countT(t, s, "ev") != 1 {
		t.Fatal("stream changed")
	}
	stagingEmpty(t, mem, "db")
	var rej strings.Builder
	o := importOpts(t)
	o.SkipBad, o.Rejects = true, &rej
	st, err := s.Import(ctx, "ev", strings.NewReader(in), o)
	if err != nil || st.Rows != 3 || st.Rejected != 1 || rej.String() != `{"ts":3,"host":`+"\n" {
		t.Fatalf("%v %+v %q", err, st, rej.String())
	}
}

// TestImportOSMDiffOps: create/modify/delete map to put/delete, with the
// counts of the file (shared data; skipped without it).
func TestImportOSMDiffOps(t *testing.T) {
	f := sharedData(t, "events/osm_ch_diff_2013-04-10.jsonl")
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	o := &ImportOptions{Source: "osm.jsonl"}
	m, err := ingest.ParseMapping(strings.NewReader("time=ts_ms\nseries=type\nkey=type,id\nop=action\nop.create=put\nop.modify=put\nop.delete=delete\n"))
	if err != nil {
		t.Fatal(err)
	}
	o.Mapping = m
	if _, err := s.Import(ctx, "osm", f, o); err != nil {
		t.Fatal(err)
	}
	ops := map[Op]int{}
	for b, err := range s.Scan(ctx, "osm", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Rows {
			ops[RecordAt(b, i).Op]++
		}
	}
	if ops[OpPut] != 1163+185 || ops[OpDelete] != 16778 {
		t.Fatalf("%v", ops)
	}
}

// TestImportCancel: a context cancelled mid-import leaves no change.
func TestImportCancel(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 64 << 10})
	defer closeT(t, s)
	s.Append(ctx, "ev", rec(day0, "a", 1))
	c, cancel := context.WithCancel(ctx)
	g := &jsonGen{rows: 1 << 30}
	r := readerFunc(func(p []byte) (int, error) {
		if g.n > 2<<20 {
			cancel()
		}
		return g.Read(p)
	})
	_, err := s.Import(c, "ev", r, importOpts(t))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
	if countT(t, s, "ev") != 1 {
		t.Fatal("stream changed")
	}
	stagingEmpty(t, mem, "db")
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestImportENOSPC: a full disk while staging fails the import cleanly.
func TestImportENOSPC(t *testing.T) {
	for _, kind := range []vfs.OpKind{vfs.OpWrite, vfs.OpSync, vfs.OpCreate} {
		t.Run(kind.String(), func(t *testing.T) {
			mem := vfs.NewMem()
			efs := vfs.NewErrorFS(mem)
			s := openT(t, efs, Options{SegmentMaxBytes: 16 << 10, BlockRows: 1000})
			defer closeT(t, s)
			s.Append(ctx, "ev", rec(day0, "a", 1))
			efs.FailAfter(kind, 3, syscall.ENOSPC)
			// Rows of at least four staged segments (front-coded keys
			// are small): the third create fails mid-import.
			_, err := s.Import(ctx, "ev", &jsonGen{rows: 60000}, importOpts(t))
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "staging") {
				t.Fatalf("%v", err)
			}
			t.Logf("error: %v", err)
			efs.Disarm()
			if countT(t, s, "ev") != 1 {
				t.Fatal("stream changed")
			}
			stagingEmpty(t, mem, "db")
			if _, err := s.Append(ctx, "ev", rec(day0, "a", 2)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestImportCommitCrash crashes (a crash clone of the in-memory FS,
// plain and torn) at each step of the commit: the reopened store holds
// every imported row or none, and no staging.
func TestImportCommitCrash(t *testing.T) {
	const n = 5000
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 32 << 10})
	s.Append(ctx, "ev", rec(day0, "a", 1))
	var clones []*vfs.MemFS
	var steps []string
	o := importOpts(t)
	o.hook = func(step string) error {
		clones = append(clones, mem.CrashClone(), mem.CrashCloneTorn(rand.New(rand.NewPCG(uint64(len(clones)), 7))))
		steps = append(steps, step, step+" (torn)")
		return nil
	}
	if _, err := s.Import(ctx, "ev", &jsonGen{rows: n}, o); err != nil {
		t.Fatal(err)
	}
	clones = append(clones, mem.CrashClone())
	steps = append(steps, "done")
	closeT(t, s)
	sawAll, sawNone := false, false
	for i, c := range clones {
		s := openT(t, c, Options{})
		got := countT(t, s, "ev")
		switch got {
		case 1:
			sawNone = true
		case n + 1:
			sawAll = true
			recs, _ := s.Imports("ev")
			if len(recs) != 1 {
				t.Fatalf("%s: journal %v", steps[i], recs)
			}
		default:
			t.Fatalf("crash at %s: %d rows", steps[i], got)
		}
		stagingEmpty(t, c, "db")
		// the store works on: an append gets the next seq
		seqs, err := s.Append(ctx, "ev", rec(day0, "a", 2))
		if err != nil || seqs[0] != uint64(got+1) {
			t.Fatalf("crash at %s: append %v %v", steps[i], seqs, err)
		}
		closeT(t, s)
		t.Logf("crash at %-20s: %d rows", steps[i], got)
	}
	if !sawAll || !sawNone {
		t.Fatal("crash points did not cover both outcomes")
	}
}

// TestImportCommitFail fails each step of the commit in process: the
// import either succeeds whole or fails leaving the stream as it was.
func TestImportCommitFail(t *testing.T) {
	for _, at := range []string{"claim", "journal", "publish", "cleanup"} {
		t.Run(at, func(t *testing.T) {
			mem := vfs.NewMem()
			s := openT(t, mem, Options{SegmentMaxBytes: 32 << 10})
			defer closeT(t, s)
			s.Append(ctx, "ev", rec(day0, "a", 1))
			o := importOpts(t)
			o.hook = func(step string) error {
				if step == at {
					return errors.New("injected at " + step)
				}
				return nil
			}
			_, err := s.Import(ctx, "ev", &jsonGen{rows: 3000}, o)
			got := countT(t, s, "ev")
			committed := at == "publish" || at == "cleanup" // after the journal record
			if committed && (err != nil || got != 3001) || !committed && (err == nil || got != 1) {
				t.Fatalf("err %v rows %d", err, got)
			}
			stagingEmpty(t, mem, "db")
			seqs, err := s.Append(ctx, "ev", rec(day0, "a", 2))
			if err != nil || seqs[0] != uint64(got+1) {
				t.Fatalf("append %v %v", seqs, err)
			}
		})
	}
}

// TestImportConcurrent: two imports into one stream serialize, appends
// from other goroutines wait for them; every import's seqs are
// contiguous and nothing is lost.
func TestImportConcurrent(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{SegmentMaxBytes: 64 << 10})
	defer closeT(t, s)
	var wg sync.WaitGroup
	var appended sync.Map
	stop := make(chan struct{})
	for g := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				seqs, err := s.Append(ctx, "ev", rec(day0+int64(i), "app", int64(g)))
				if err != nil {
					t.Error(err)
					return
				}
				appended.Store(seqs[0], true)
			}
		})
	}
	var iw sync.WaitGroup
	stats := make([]ImportStats, 2)
	for k := range 2 {
		iw.Go(func() {
			st, err := s.Import(ctx, "ev", &jsonGen{rows: 10000}, importOpts(t))
			if err != nil {
				t.Error(err)
			}
			stats[k] = st
		})
	}
	iw.Wait()
	close(stop)
	wg.Wait()
	a, b := stats[0], stats[1]
	if a.LastSeq-a.FirstSeq != 9999 || b.LastSeq-b.FirstSeq != 9999 || (a.FirstSeq <= b.LastSeq && b.FirstSeq <= a.LastSeq) {
		t.Fatalf("overlapping or gapped imports %d..%d %d..%d", a.FirstSeq, a.LastSeq, b.FirstSeq, b.LastSeq)
	}
	nApp := 0
	appended.Range(func(k, v any) bool {
		q := k.(uint64)
		if q >= a.FirstSeq && q <= a.LastSeq || q >= b.FirstSeq && q <= b.LastSeq {
			t.Fatalf("append seq %d inside an import", q)
		}
		nApp++
		return true
	})
	if got := countT(t, s, "ev"); got != 20000+nApp {
		t.Fatalf("%d rows, want %d", got, 20000+nApp)
	}
	t.Logf("imports %d..%d and %d..%d, %d appends", a.FirstSeq, a.LastSeq, b.FirstSeq, b.LastSeq, nApp)
}

// TestImportBackpressure: with a slow write stage the parser stays a
// bounded number of batches ahead of what is written.
func TestImportBackpressure(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{BlockRows: 512})
	defer closeT(t, s)
	g := &jsonGen{rows: 200000}
	var run *importRun
	var maxAhead int64
	r := readerFunc(func(p []byte) (int, error) {
		if run == nil {
			liveImports.Range(func(k, v any) bool { run = v.(*importRun); return false })
		}
		if run != nil {
			maxAhead = max(maxAhead, g.n-run.inputDone.Load())
		}
		return g.Read(p)
	})
	o := importOpts(t)
	o.writeDelay = 2 * time.Millisecond
	st, err := s.Import(ctx, "ev", r, o)
	if err != nil {
		t.Fatal(err)
	}
	// Batches of 512 rows (~60 KiB of input) in flight, the read buffers
	// and, when parsing in parallel, one 1 MiB chunk per parser and one
	// more bound what is read ahead.
	bound := int64(10*512*130 + 256<<10 + 64<<10 + (encoders()+1)*parallelChunk)
	t.Logf("input %d bytes, read ahead of the writer at most %d bytes (bound %d)", st.Bytes, maxAhead, bound)
	if maxAhead > bound || maxAhead == 0 {
		t.Fatalf("read %d bytes ahead of the writer", maxAhead)
	}
}

// TestImportGC: abandoned staging goes at open and at GC, expired
// staging after the TTL, a live import's staging stays.
func TestImportGC(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{})
	s.Append(ctx, "ev", rec(day0, "a", 1))
	closeT(t, s)
	// abandoned: a staging dir with a file, no running import
	mem.MkdirAll("db/staging/ev~0000000000000001-00000000", 0o755)
	f, _ := mem.Create("db/staging/ev~0000000000000001-00000000/x.seg")
	f.Write([]byte("junk"))
	f.Close()
	mem.MkdirAll("db/staging/gone~0000000000000002-00000000.commit", 0o755) // no such stream
	s = openT(t, mem, Options{})
	stagingEmpty(t, mem, "db")
	// while the stream is open
	mem.MkdirAll("db/staging/ev~0000000000000003-00000000", 0o755)
	gs, err := s.GC(ctx)
	if err != nil || gs.Removed != 1 {
		t.Fatalf("%v %+v", err, gs)
	}
	stagingEmpty(t, mem, "db")
	// a live import is skipped, then expired by a short TTL
	closeT(t, s)
	s = openT(t, mem, Options{})
	defer closeT(t, s)
	gate := make(chan struct{})
	var once sync.Once
	g := &jsonGen{rows: 1 << 30}
	r := readerFunc(func(p []byte) (int, error) {
		if g.n > 1<<20 {
			once.Do(func() { close(gate) })
			time.Sleep(time.Millisecond)
		}
		return g.Read(p)
	})
	done := make(chan error)
	go func() {
		_, err := s.Import(ctx, "ev", r, importOpts(t))
		done <- err
	}()
	<-gate
	gs, err = s.GC(ctx)
	if err != nil || gs.Skipped != 1 || gs.Removed != 0 {
		t.Fatalf("live import: %v %+v", err, gs)
	}
	// now a short TTL; the staging directory's age counts from its last
	// change (a new segment file): poll until it is older than the TTL
	s.o.StagingTTL = 20 * time.Millisecond
	for deadline := time.Now().Add(5 * time.Second); ; {
		time.Sleep(20 * time.Millisecond)
		gs, err = s.GC(ctx)
		if err != nil || gs.Expired == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not expired: %+v", gs)
		}
	}
	if err != nil {
		t.Fatalf("expiry: %v %+v", err, gs)
	}
	if err := <-done; !errors.Is(err, errImportExpired) {
		t.Fatalf("import after expiry: %v", err)
	}
	stagingEmpty(t, mem, "db")
	if countT(t, s, "ev") != 1 {
		t.Fatal("stream changed")
	}
}

var _ io.Reader = (*jsonGen)(nil)

// TestImportParallelOrder: JSON lines parsed on several goroutines keep
// the input order in seqs, report the first bad line of the input and
// count every rejected one.
func TestImportParallelOrder(t *testing.T) {
	var sb strings.Builder
	io.Copy(&sb, &jsonGen{rows: 40000})
	lines := strings.SplitAfter(sb.String(), "\n")
	lines[30000] = "{broken 30001\n"
	lines[5000] = "{broken 5001\n"
	in := strings.Join(lines, "")
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	_, err := s.Import(ctx, "ev", strings.NewReader(in), importOpts(t))
	var pe *ingest.Error
	if !errors.As(err, &pe) || pe.Line != 5001 || pe.Snippet != "{broken 5001" || pe.Offset != int64(len(strings.Join(lines[:5000], ""))) {
		t.Fatalf("%v", err)
	}
	var rej strings.Builder
	o := importOpts(t)
	o.SkipBad, o.Rejects = true, &rej
	st, err := s.Import(ctx, "ev", strings.NewReader(in), o)
	if err != nil || st.Rows != 39998 || st.Rejected != 2 || st.Bytes != int64(len(in)) {
		t.Fatalf("%v %+v", err, st)
	}
	if !strings.Contains(rej.String(), "{broken 5001\n") || !strings.Contains(rej.String(), "{broken 30001\n") {
		t.Fatalf("rejects %q", rej.String())
	}
	want := int64(0)
	for b, err := range s.Scan(ctx, "ev", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Rows {
			if want == 5000 || want == 30000 {
				want++
			}
			r := RecordAt(b, i)
			if v, _ := r.Field("n"); v.Int() != want || r.Seq != uint64(int64(i)+b.Columns[0].Ints[0]) {
				t.Fatalf("row %d holds n=%v", want, v)
			}
			want++
		}
	}
	if want != 40000 {
		t.Fatalf("%d rows", want)
	}
}

func TestImportEdges(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{})
	// empty input: nothing imported, one journal record
	st, err := s.Import(ctx, "ev", strings.NewReader(""), importOpts(t))
	if err != nil || st.Rows != 0 || st.FirstSeq != 0 || countT(t, s, "ev") != 0 {
		t.Fatalf("%v %+v", err, st)
	}
	if recs, err := s.Imports("ev"); err != nil || len(recs) != 1 || recs[0].Rows != 0 {
		t.Fatalf("%v %+v", err, recs)
	}
	if _, err := s.Import(ctx, "ev", strings.NewReader(""), &ImportOptions{MemoryBudget: 1 << 10}); !errors.Is(err, ErrInvalidOptions) {
		t.Fatalf("small budget: %v", err)
	}
	if _, err := s.Import(ctx, "Bad/Name", strings.NewReader(""), nil); err == nil {
		t.Fatal("bad stream name accepted")
	}
	closeT(t, s)
	ro := openT(t, mem, Options{ReadOnly: true})
	defer closeT(t, ro)
	if _, err := ro.Import(ctx, "ev", strings.NewReader("{}"), nil); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only: %v", err)
	}
	if _, err := ro.GC(ctx); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only gc: %v", err)
	}
}

// TestImportParallelCSV: a CSV with quoted commas, quotes and newlines
// parsed on several goroutines gives the rows of the input in order,
// and a bad record is reported with its line and offset.
func TestImportParallelCSV(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("series,ts,n,note\n")
	lineOf := map[int]int{} // row -> line
	line := 2
	for i := range 60000 {
		lineOf[i] = line
		note := "plain"
		switch i % 5 {
		case 1:
			note = `"with, comma"`
		case 2:
			note = `"say ""hi"""`
		case 3:
			note = "\"two\nlines\""
			line++
		}
		sb.WriteString("s" + strconv.Itoa(i%3) + "," + strconv.Itoa(i) + "," + strconv.Itoa(i) + "," + note + "\n")
		line++
	}
	in := sb.String()
	o := func() *ImportOptions {
		return &ImportOptions{Source: "x.csv", Mapping: mappingT(t, "series=series", "time=ts")}
	}
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	st, err := s.Import(ctx, "csv", strings.NewReader(in), o())
	if err != nil || st.Rows != 60000 || st.Bytes != int64(len(in)) {
		t.Fatalf("%v %+v", err, st)
	}
	i := 0
	for b, err := range s.Scan(ctx, "csv", ScanOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		for k := range b.Rows {
			r := RecordAt(b, k)
			n, _ := r.Field("n")
			note, _ := r.Field("note")
			want := map[int]string{0: "plain", 1: "with, comma", 2: `say "hi"`, 3: "two\nlines", 4: "plain"}[i%5]
			if n.Int() != int64(i) || note.Str() != want || r.Series != "s"+strconv.Itoa(i%3) {
				t.Fatalf("row %d: %+v", i, r)
			}
			i++
		}
	}
	// a bad record deep in the input
	bad := strings.Replace(in, "\ns1,40000,40000,", "\ns1,40000,40000,\"x\"y,", 1)
	_, err = s.Import(ctx, "csv", strings.NewReader(bad), o())
	var pe *ingest.Error
	if !errors.As(err, &pe) || pe.Line != int64(lineOf[40000]) || !strings.HasPrefix(bad[pe.Offset:], "s1,40000,40000,\"x\"y") {
		t.Fatalf("%v (want line %d)", err, lineOf[40000])
	}
}

// snapFS calls snap before every mutating operation while armed.
type snapFS struct {
	vfs.FS
	snap func(op string)
}

type snapFile struct {
	vfs.File
	fs *snapFS
}

func (s *snapFS) Rename(a, b string) error { s.snap("rename " + b); return s.FS.Rename(a, b) }
func (s *snapFS) SyncDir(d string) error   { s.snap("syncdir " + d); return s.FS.SyncDir(d) }
func (s *snapFS) RemoveAll(d string) error { s.snap("removeall " + d); return s.FS.RemoveAll(d) }
func (s *snapFS) Remove(d string) error    { s.snap("remove " + d); return s.FS.Remove(d) }
func (f snapFile) Write(p []byte) (int, error) {
	f.fs.snap("write " + f.Name())
	return f.File.Write(p)
}
func (f snapFile) Sync() error { f.fs.snap("sync " + f.Name()); return f.File.Sync() }
func (f snapFile) Truncate(n int64) error {
	f.fs.snap("truncate " + f.Name())
	return f.File.Truncate(n)
}
func (s *snapFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return f, err
	}
	return snapFile{f, s}, nil
}
func (s *snapFS) Create(n string) (vfs.File, error) {
	s.snap("create " + n)
	return s.wrap(s.FS.Create(n))
}
func (s *snapFS) OpenAppend(n string) (vfs.File, error) { return s.wrap(s.FS.OpenAppend(n)) }

// TestImportCommitCrashEveryOp crashes (plain and torn crash clones)
// before every file-system operation of the commit — each rename, write,
// fsync and removal, the journal append included: all rows or none.
func TestImportCommitCrashEveryOp(t *testing.T) {
	const n = 3000
	mem := vfs.NewMem()
	armed := false
	var clones []*vfs.MemFS
	var ops []string
	rng := rand.New(rand.NewPCG(1, 2))
	sfs := &snapFS{FS: mem}
	sfs.snap = func(op string) {
		if armed {
			clones = append(clones, mem.CrashClone(), mem.CrashCloneTorn(rng))
			ops = append(ops, op, op+" (torn)")
		}
	}
	s := openT(t, sfs, Options{SegmentMaxBytes: 16 << 10})
	s.Append(ctx, "ev", rec(day0, "a", 1))
	o := importOpts(t)
	o.hook = func(step string) error {
		armed = true
		return nil
	}
	if _, err := s.Import(ctx, "ev", &jsonGen{rows: n}, o); err != nil {
		t.Fatal(err)
	}
	armed = false
	closeT(t, s)
	counts := map[int]int{}
	for i, c := range clones {
		s := openT(t, c, Options{})
		got := countT(t, s, "ev")
		if got != 1 && got != n+1 {
			t.Fatalf("crash before %s: %d rows", ops[i], got)
		}
		counts[got]++
		stagingEmpty(t, c, "db")
		closeT(t, s)
	}
	t.Logf("%d crash points: %d with no row of the import, %d with all", len(clones), counts[1], counts[n+1])
	if counts[1] == 0 || counts[n+1] == 0 {
		t.Fatal("crash points did not cover both outcomes")
	}
}

// TestImportStagedInvisible: while an import into an existing stream has
// staged segments on disk, readers of the store see the stream as it
// was: Count, a raw scan and Get of a staged seq; at commit every row
// appears at once.
func TestImportStagedInvisible(t *testing.T) {
	mem := vfs.NewMem()
	s := openT(t, mem, Options{SegmentMaxBytes: 16 << 10, BlockRows: 500})
	defer closeT(t, s)
	if _, err := s.Append(ctx, "ev", rec(day0, "a", 1)); err != nil {
		t.Fatal(err)
	}
	g := &jsonGen{rows: 200000}
	checked := false
	r := readerFunc(func(p []byte) (int, error) {
		if !checked && g.n > 8<<20 {
			if staged := stagedFiles(t, mem); staged > 0 {
				checked = true
				done := make(chan struct{})
				go func() { // another goroutine, as a reader would be
					defer close(done)
					if n, err := s.Count("ev"); err != nil || n != 1 {
						t.Errorf("Count during the import = %d, %v; want 1", n, err)
					}
					if seqs := allSeqs(t, s, "ev"); len(seqs) != 1 {
						t.Errorf("scan during the import: %d rows, want 1", len(seqs))
					}
					if _, err := s.Get("ev", 2); err == nil {
						t.Error("Get of a staged seq succeeded")
					}
				}()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("reads blocked by the import")
				}
				t.Logf("checked with %d staged files", staged)
			}
		}
		return g.Read(p)
	})
	o := importOpts(t)
	o.MemoryBudget = MinImportBudget // the reader stays close to the writer
	st, err := s.Import(ctx, "ev", r, o)
	if err != nil {
		t.Fatal(err)
	}
	if !checked {
		t.Fatal("no staged file seen during the import")
	}
	if n := countT(t, s, "ev"); n != 1+int(st.Rows) || st.Rows != 200000 {
		t.Fatalf("after commit: %d rows (imported %d)", n, st.Rows)
	}
	stagingEmpty(t, mem, "db")
}

// stagedFiles counts the files under the store's staging directory.
func stagedFiles(t *testing.T, fsys vfs.FS) int {
	t.Helper()
	n := 0
	dirs, _ := fsys.ReadDir("db/staging")
	for _, d := range dirs {
		names, _ := fsys.ReadDir("db/staging/" + d)
		n += len(names)
	}
	return n
}
