package ingest

import (
	"slices"
	"testing"
)

// TestGuessRecord: the series comes from a field named series, and with
// it the key and op as tsq exports them (an op only when the first
// record's is one an import knows); seq is dropped; a mapping that
// names any of series, key and op wins whole.
func TestGuessRecord(t *testing.T) {
	for _, c := range []struct {
		name, head string
		f          Format
		want       RecordGuess
	}{
		{"exported csv", "seq,time,series,key,op,value\n1,2026-01-01T00:00:00Z,h1,k1,put,1.5\n", CSV,
			RecordGuess{Time: "time", Series: "series", Key: "key", Op: "op", Seq: true}},
		{"exported jsonl", `{"seq":1,"time":"2026-01-01T00:00:00Z","series":"h1","key":"k1","op":"delete","value":1.5}` + "\n", JSONLines,
			RecordGuess{Time: "time", Series: "series", Key: "key", Op: "op", Seq: true}},
		{"json array", `[{"time":1,"series":"a","v":2}]`, JSONArray, RecordGuess{Time: "time", Series: "series"}},
		{"series alone", "ts,series,v\n1,a,2\n", CSV, RecordGuess{Time: "ts", Series: "series"}},
		{"an op of another meaning", "time,series,op\n1,a,GET\n", CSV, RecordGuess{Time: "time", Series: "series"}},
		{"a synonym op", "time,series,op\n1,a,remove\n", CSV, RecordGuess{Time: "time", Series: "series", Op: "op"}},
		{"no series", "time,key,op\n1,k,put\n", CSV, RecordGuess{Time: "time"}},
		{"Series is not series", "time,Series\n1,a\n", CSV, RecordGuess{Time: "time"}},
		{"line protocol", "cpu,host=a v=1 1\n", LineProtocol, RecordGuess{}},
	} {
		if got := GuessRecord([]byte(c.head), c.f); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}

	g := RecordGuess{Time: "time", Series: "series", Key: "key", Op: "op", Seq: true}
	var m Mapping
	if !g.Apply(&m) || m.Series != "series" || m.Key != "key" || m.Op != "op" || !slices.Equal(m.Drop, []string{"seq"}) {
		t.Errorf("applied: %+v", m)
	}
	for _, set := range []string{"series=host", "key=id", "op=kind"} {
		var m Mapping
		if err := m.Set(set); err != nil {
			t.Fatal(err)
		}
		before := m
		if g.Apply(&m) || m.Series != before.Series || m.Key != before.Key || m.Op != before.Op || m.Drop != nil {
			t.Errorf("%s: the guess overrode the mapping: %+v", set, m)
		}
	}
}
