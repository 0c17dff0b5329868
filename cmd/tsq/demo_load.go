package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/cmd/tsq/demodata"
)

// demo stream names.
const (
	demoMetrics = "cpu"
	demoEvents  = "osm"
)

// loadDemo writes the embedded data into st and returns the rows stored
// per stream.
func loadDemo(ctx context.Context, st *tsq.Store) (map[string]int, error) {
	n := map[string]int{}
	var err error
	if n[demoMetrics], err = loadNAB(ctx, st); err != nil {
		return nil, err
	}
	if n[demoEvents], err = loadOSM(ctx, st); err != nil {
		return nil, err
	}
	return n, nil
}

// loadNAB appends each series' samples with AppendSamples.
func loadNAB(ctx context.Context, st *tsq.Store) (int, error) {
	r, err := demodata.NAB()
	if err != nil {
		return 0, err
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 3
	if _, err := cr.Read(); err != nil {
		return 0, fmt.Errorf("demo: nab header: %w", err)
	}
	var (
		series string
		times  []int64
		vals   []float64
		total  int
	)
	flush := func() error {
		if len(times) == 0 {
			return nil
		}
		if _, err := st.AppendSamples(ctx, demoMetrics, series, times, vals); err != nil {
			return err
		}
		total += len(times)
		times, vals = times[:0], vals[:0]
		return nil
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("demo: nab: %w", err)
		}
		ms, err1 := strconv.ParseInt(rec[1], 10, 64)
		v, err2 := strconv.ParseFloat(rec[2], 64)
		if err := errors.Join(err1, err2); err != nil {
			return 0, fmt.Errorf("demo: nab line %d: %w", line, err)
		}
		if rec[0] != series {
			if err := flush(); err != nil {
				return 0, err
			}
			series = rec[0]
		}
		times = append(times, ms*1e6)
		vals = append(vals, v)
	}
	return total, flush()
}

// osmEvent is one line of the OpenStreetMap change file; attributes are
// strings as in the XML.
type osmEvent struct {
	Action    string            `json:"action"`
	Type      string            `json:"type"`
	ID        string            `json:"id"`
	Version   string            `json:"version"`
	Changeset string            `json:"changeset"`
	UID       string            `json:"uid"`
	User      string            `json:"user"`
	Lat       string            `json:"lat"`
	Lon       string            `json:"lon"`
	TsMs      int64             `json:"ts_ms"`
	Tags      map[string]string `json:"tags"`
}

// loadOSM appends the events in file order, then the deletes: a delete
// line is stored as a put of the version it deleted, and its delete comes
// after every put.
func loadOSM(ctx context.Context, st *tsq.Store) (int, error) {
	r, err := demodata.OSM()
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var puts, deletes []tsq.Record
	for line := 1; sc.Scan(); line++ {
		var ev osmEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return 0, fmt.Errorf("demo: osm line %d: %w", line, err)
		}
		rec := tsq.Record{Time: ev.TsMs * 1e6, Series: ev.Type, Key: ev.Type + "/" + ev.ID, Op: tsq.OpPut,
			Fields: osmFields(&ev)}
		puts = append(puts, rec)
		if ev.Action == "delete" {
			deletes = append(deletes, tsq.Record{Time: rec.Time, Series: rec.Series, Key: rec.Key, Op: tsq.OpDelete,
				Fields: []tsq.Field{{Name: "action", Value: tsq.Str("delete")}}})
		}
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("demo: osm: %w", err)
	}
	all := append(puts, deletes...)
	if _, err := st.Append(ctx, demoEvents, all...); err != nil {
		return 0, err
	}
	return len(all), nil
}

// osmFields turns the attributes into typed fields; a missing or
// unparsable number is left out (NULL).
func osmFields(ev *osmEvent) []tsq.Field {
	action := ev.Action
	if action == "delete" {
		action = "deleted-version"
	}
	f := []tsq.Field{{Name: "action", Value: tsq.Str(action)}, {Name: "user", Value: tsq.Str(ev.User)}}
	for _, x := range []struct{ name, text string }{{"version", ev.Version}, {"changeset", ev.Changeset}, {"uid", ev.UID}} {
		if v, err := strconv.ParseInt(x.text, 10, 64); err == nil {
			f = append(f, tsq.Field{Name: x.name, Value: tsq.Int(v)})
		}
	}
	for _, x := range []struct{ name, text string }{{"lat", ev.Lat}, {"lon", ev.Lon}} {
		if v, err := strconv.ParseFloat(x.text, 64); err == nil {
			f = append(f, tsq.Field{Name: x.name, Value: tsq.Float(v)})
		}
	}
	if len(ev.Tags) > 0 { // as JSON text, read with ->> and json_extract
		tags, err := json.Marshal(ev.Tags)
		if err == nil {
			f = append(f, tsq.Field{Name: "tags", Value: tsq.Str(string(tags))})
		}
	}
	if name, ok := ev.Tags["name"]; ok {
		f = append(f, tsq.Field{Name: "name", Value: tsq.Str(name)})
	}
	return f
}
