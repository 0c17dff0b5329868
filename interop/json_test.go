package interop_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/export"
)

// TestInteropJSON imports the OpenStreetMap change events with each
// element's tags kept as JSON text (nested=json; node lists, arrays, are
// JSON text too), and holds tsq's JSON functions against DuckDB's on
// tsq's Parquet export of the stream: the values found, their types,
// JSON written from columns, and the aggregates.
func TestInteropJSON(t *testing.T) {
	node := requireNode(t)
	f, err := os.Open("../../shared/data/events/osm_ch_diff_2013-04-10.jsonl")
	if err != nil {
		t.Skipf("the OSM change events are in the shared data: %v", err)
	}
	defer f.Close()
	s, err := tsq.Open(t.TempDir(), &tsq.Options{Sync: tsq.SyncNever})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o := &tsq.ImportOptions{}
	for _, kv := range []string{"time=ts_ms", "series=type", "nested=json"} {
		if err := o.Mapping.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if _, err := s.Import(ctx, "nab", f, o); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "osm.parquet")
	rr := storeQuery(t, s, "SELECT * EXCLUDE (seq, time, key, op) FROM nab")
	_, err = export.WriteFile(ctx, path, 0, rr, nil)
	rr.Release()
	if err != nil {
		t.Fatal(err)
	}
	agreeEach(t, node, s, path, []sameText{
		{"a tag by ->>", "SELECT tags->>'highway' AS h, count(*) AS n FROM nab WHERE tags->>'highway' IS NOT NULL GROUP BY h ORDER BY n DESC, h LIMIT 20"},
		{"json_extract and paths", "SELECT id, json_extract(tags, '$.name') AS nm, tags->'$.\"addr:street\"' AS st, json_extract_string(tags, '/highway') AS hw FROM nab WHERE tags IS NOT NULL ORDER BY id LIMIT 60"},
		{"types and existence", "SELECT json_type(tags) AS t, json_exists(tags, '$.building') AS b, count(*) AS n FROM nab GROUP BY ALL ORDER BY t, b"},
		{"arrays", "SELECT id, json_array_length(nodes) AS n, nodes->>0 AS first, nodes->>-1 AS last, json_extract(nodes, '$[#-2]') AS before_last FROM nab WHERE nodes IS NOT NULL ORDER BY id LIMIT 40"},
		{"members", "SELECT id, json_type(members, '$[0]') AS t, json_extract_string(members, '$[0].type') AS mt, json_extract(members, '$[0].ref') AS ref, json_array_length(members) AS n FROM nab WHERE members IS NOT NULL ORDER BY id"},
		{"valid", "SELECT json_valid(tags) AS v, json_valid(user) AS u, count(*) AS n FROM nab GROUP BY ALL ORDER BY v, u"},
		{"written", "SELECT id, json_object('user', user, 'version', version, 'lat', lat, 'tags', json(tags)) AS o, json_array(id, lat, lon, NULL) AS a, to_json(user) AS u FROM nab WHERE tags IS NOT NULL ORDER BY id LIMIT 40"},
		{"numbers", "SELECT id, json_object('lat', lat::DOUBLE, 'third', CAST(lon AS DOUBLE) / 3, 'big', CAST(id AS BIGINT) * 1000000000, 'whole', CAST(version AS DOUBLE)) AS o, to_json(CAST(lat AS DOUBLE) * 1e-9) AS tiny, to_json(CAST(lat AS DOUBLE) * 1e25) AS huge FROM nab WHERE lat IS NOT NULL ORDER BY id LIMIT 60"},
		{"a group of one", "SELECT id, json_group_array(version) AS a, json_group_object(user, lat) AS o FROM nab WHERE lat > '47.4' GROUP BY id HAVING count(*) = 1 ORDER BY id LIMIT 40"},
		{"normalised", "SELECT json(tags) AS j, count(*) AS n FROM nab WHERE tags IS NOT NULL GROUP BY j ORDER BY n DESC, j LIMIT 10"},
	})
}
