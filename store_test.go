package tsq

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsqdb/tsq/internal/vfs"
)

func TestOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"sync", Options{Sync: 9}, "Sync"},
		{"interval", Options{SyncInterval: -1}, "SyncInterval"},
		{"segsize", Options{SegmentMaxBytes: 10}, "SegmentMaxBytes"},
		{"rows", Options{BlockRows: -1}, "BlockRows"},
		{"rows big", Options{BlockRows: 1 << 21}, "BlockRows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.FS = vfs.NewMem()
			_, err := Open("db", &tc.o)
			if !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open = %v, want ErrInvalidOptions naming %s", err, tc.want)
			}
		})
	}
	o, err := (*Options)(nil).withDefaults()
	if err != nil || o.Sync != SyncAlways || o.BlockRows != 8192 || o.SegmentMaxBytes != 256<<20 || o.SyncInterval != DefaultSyncInterval || o.FS != vfs.Default {
		t.Fatalf("defaults = %+v, %v", o, err)
	}
	if SyncAlways.String() != "always" || SyncInterval.String() != "interval" || SyncNever.String() != "never" || OpDrop.String() != "drop" {
		t.Fatal("String()")
	}
}

func TestInvalidRecords(t *testing.T) {
	s := openT(t, vfs.NewMem(), Options{})
	defer closeT(t, s)
	big := strings.Repeat("x", MaxRecordBytes)
	many := make([]Field, MaxFields+1)
	for i := range many {
		many[i] = Field{Name: "f" + strings.Repeat("x", i%200) + string(rune('a'+i%26)), Value: Int(1)}
	}
	for _, tc := range []struct {
		name string
		recs []Record
		want string
	}{
		{"empty series", []Record{{Time: 1}}, "empty series"},
		{"bad op", []Record{{Series: "a", Op: 7}}, "unknown op"},
		{"reserved", []Record{{Series: "a", Fields: []Field{{"seq", Int(1)}}}}, "record column"},
		{"reserved time", []Record{{Series: "a", Fields: []Field{{"time", Int(1)}}}}, "record column"},
		{"empty name", []Record{{Series: "a", Fields: []Field{{"", Int(1)}}}}, "name"},
		{"dup", []Record{{Series: "a", Fields: []Field{{"x", Int(1)}, {"x", Int(2)}}}}, "twice"},
		{"not UTF-8", []Record{{Series: "a", Fields: []Field{{"caf\xe9", Int(1)}}}}, "not UTF-8"},
		{"too big", []Record{{Series: "a", Fields: []Field{{"x", Str(big)}}}}, "bytes, at most"},
		{"too many", []Record{{Series: "a", Fields: many}}, "fields, at most"},
		{"type change", []Record{{Series: "a", Fields: []Field{{"x", Int(1)}}}, {Series: "a", Fields: []Field{{"x", Str("1")}}}}, `field "x" is string here but int64`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Append(ctx, "ev", tc.recs...)
			if !errors.Is(err, ErrInvalidRecord) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Append = %v, want ErrInvalidRecord containing %q", err, tc.want)
			}
		})
	}
	if _, err := s.Append(ctx, "Bad/Name", Record{Series: "a"}); !errors.Is(err, ErrInvalidStreamName) {
		t.Fatalf("bad stream name: %v", err)
	}
	if _, err := s.Get("nosuch", 1); !errors.Is(err, ErrStreamNotFound) {
		t.Fatalf("Get missing stream: %v", err)
	}
}
