package main

import (
	"slices"
	"testing"

	prompt "github.com/elk-language/go-prompt"
	tsq "github.com/tsqdb/tsq"
)

func texts(s []prompt.Suggest) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Text)
	}
	return out
}

func TestCompletion(t *testing.T) {
	st, err := tsq.Open(demoStore(t), &tsq.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := newCompleter(st)
	for _, tc := range []struct {
		before, full, word string
		want               string
	}{
		{"SEL", "SEL", "SEL", "SELECT"},
		{"sel", "sel", "sel", "SELECT"},
		{".sch", ".sch", ".sch", ".schema"},
		{".schema c", ".schema c", "c", "cpu"},
		{".drop cpu o", ".drop cpu o", "o", "osm"},
		{"DEL", "DEL", "DEL", "DELETE"},
		{"DELETE FROM o", "DELETE FROM o", "o", "osm"},
		{"CRE", "CRE", "CRE", "CREATE"},
		{"DROP TABLE o", "DROP TABLE o", "o", "osm"},
		{"drop table if exists cpu, o", "drop table if exists cpu, o", "o", "osm"},
		{"SELECT * FROM o", "SELECT * FROM o", "o", "osm"},
		{"SELECT * FROM fold(o", "SELECT * FROM fold(o", "o", "osm"},
		{"SELECT * FROM gen", "SELECT * FROM gen", "gen", "generate_series("},
		{"SELECT * FROM cpu a JOIN ra", "SELECT * FROM cpu a JOIN ra", "ra", "range("},
		{"SELECT av", "SELECT av FROM cpu", "av", "avg"},
		{"SELECT va", "SELECT va FROM cpu", "va", "value"},
		{"SELECT isod", "SELECT isod FROM cpu", "isod", "isodow"},
		{"SELECT movi", "SELECT movi FROM cpu", "movi", "moving_average"},
		{"SELECT sq", "SELECT sq FROM cpu", "sq", "sqrt"},
		{"SELECT split", "SELECT split FROM cpu", "split", "split_part"},
		{"SELECT CA", "SELECT CA FROM cpu", "CA", "CASE"},
		{"SELECT va", "SELECT va FROM CPU", "va", "value"}, // the stream name folded
		{"SELECT us", "SELECT us FROM fold(osm)", "us", "user"},
		{"SELECT * FROM cpu a JOIN o", "SELECT * FROM cpu a JOIN o", "o", "osm"},
		{"SELECT us", "SELECT us FROM cpu a ASOF JOIN osm b ON a.time >= b.time", "us", "user"},
		{"SELECT b.us", "SELECT b.us FROM cpu a ASOF JOIN osm b ON a.time >= b.time", "b.us", "b.user"},
		{"SELECT a.ti", "SELECT a.ti FROM cpu a ASOF JOIN osm b ON a.time >= b.time", "a.ti", "a.time"},
		{"SELECT * FROM cpu a AS", "SELECT * FROM cpu a AS", "AS", "ASOF"},
		{"SELECT * FROM cpu a JOIN osm b US", "SELECT * FROM cpu a JOIN osm b US", "US", "USING"},
		{"SELECT * FROM cpu WHERE series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_2", "SELECT * FROM cpu WHERE series = 'nab/realAWSCloudwatch/ec2_cpu_utilization_2",
			"'nab/realAWSCloudwatch/ec2_cpu_utilization_2", "'nab/realAWSCloudwatch/ec2_cpu_utilization_24ae8d'"},
	} {
		got := texts(c.suggest(tc.before, tc.full, tc.word))
		if !slices.Contains(got, tc.want) {
			t.Errorf("%q: got %v, want %s among them", tc.before, got, tc.want)
		}
	}
	if got := c.suggest("SELECT * FROM x WHERE ", "SELECT * FROM x WHERE ", ""); len(got) != 0 {
		t.Errorf("empty word: %v", texts(got))
	}
}
