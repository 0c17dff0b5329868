package check

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/tsqdb/tsq/compact"
	"github.com/tsqdb/tsq/index"
	"github.com/tsqdb/tsq/internal/vfs"
)

// State files of a stream directory, checked when present (docs/FORMAT.md,
// "State files" and "Compaction watermark").
var stateFiles = []struct {
	name string
	kind index.Kind // 0: the watermark
}{
	{"deleted.bitmap", index.KindDeleted},
	{"tombstoned.bitmap", index.KindTombstoned},
	{"retained.bitmap", index.KindRetained},
	{"retention.rule", index.KindRetention},
	{"durable.mark", index.KindDurable},
	{compact.WatermarkFile, 0},
}

// checkState checks the state files of every stream directory: frame,
// CRC and a full decode of the bitmap or rule, and the watermark file.
func checkState(fsys vfs.FS, dir string, rep *Report) {
	root := filepath.Join(dir, "streams")
	names, err := fsys.ReadDir(root)
	if err != nil {
		return // Segments reported an unreadable directory already
	}
	sort.Strings(names)
	for _, st := range names {
		sdir := filepath.Join(root, st)
		for _, sf := range stateFiles {
			p := filepath.Join(sdir, sf.name)
			if _, err := fsys.Stat(p); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			rel, _ := filepath.Rel(dir, p)
			var err error
			switch sf.kind {
			case 0:
				_, _, err = compact.LoadWatermark(fsys, sdir)
			case index.KindRetention:
				_, _, err = index.ReadRule(fsys, p)
			case index.KindDurable:
				_, err = index.ReadDurable(fsys, p)
			default:
				_, _, err = index.ReadBitmap(fsys, p, sf.kind)
			}
			rep.StateFiles++
			rep.Problems = append(rep.Problems, problemsOf(rel, err)...)
		}
	}
}
