// Package check verifies a tsq store's files without modifying them: every
// segment's header, frames, block CRCs (with a full decode of every column),
// the block index against the rows the blocks hold, the series bloom filter
// and the footer; and each stream's state files (soft-delete and tombstone
// bitmaps, retention rule, compaction watermark) and import journal
// (CRC-32C of each record, and the seqs of each committed import held by
// the segments it names). It is what `tsq verify` runs; it never repairs and never
// takes the store's lock, so it can run beside a live writer (an unsealed
// segment is checked up to its last whole frame, as any reader sees it).
//
// Each problem names the file, the section and the byte offset:
//
//	streams/cpu/2026-12-01-0000000000000001.seg: block 3 at offset 40960: checksum mismatch
package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tsqdb/tsq/codec"
	"github.com/tsqdb/tsq/internal/vfs"
)

// Problem is one defect found in a file.
type Problem struct {
	File    string // path relative to the store directory
	Section string // "segment header", "block 3", "index", "bloom", "footer", ...
	Offset  int64  // byte offset in File; -1 when not known
	Msg     string
}

// String formats p as "FILE: SECTION at offset N: what".
func (p Problem) String() string {
	if p.Offset < 0 {
		return fmt.Sprintf("%s: %s: %s", p.File, p.Section, p.Msg)
	}
	return fmt.Sprintf("%s: %s at offset %d: %s", p.File, p.Section, p.Offset, p.Msg)
}

// Report is the outcome of checking a store.
type Report struct {
	Streams  int
	Segments int
	Blocks   int
	// StateFiles counts the state files checked: soft-delete and
	// tombstone bitmaps, retention rules, compaction watermarks.
	StateFiles int
	// Journals counts the import journals checked.
	Journals int
	Rows     int64
	Bytes    int64 // bytes of segment files checked
	Problems []Problem

	seqs map[string]segSeqs // block seq ranges by segment path
}

// OK reports whether no problem was found.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Options tune a check. The zero value is ready.
type Options struct {
	FS vfs.FS // nil: the OS file system
	// Progress, when set, is called after each segment with the bytes
	// checked so far and the total bytes of all segments.
	Progress func(done, total int64)
}

// Store checks every stream of the store in dir. The error is about being
// unable to run at all (dir missing, context cancelled); defects of files are
// in the Report.
func Store(ctx context.Context, dir string, o *Options) (*Report, error) {
	if o == nil {
		o = &Options{}
	}
	fsys := o.FS
	if fsys == nil {
		fsys = vfs.Default
	}
	if _, err := fsys.Stat(dir); err != nil {
		return nil, fmt.Errorf("check: store %s: %w", dir, err)
	}
	segs, err := Segments(fsys, dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{seqs: map[string]segSeqs{}}
	var total int64
	streams := map[string]bool{}
	for _, s := range segs {
		total += s.Size
		streams[s.Stream] = true
	}
	rep.Streams = len(streams)
	var done int64
	for _, s := range segs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		checkSegment(fsys, dir, s, rep)
		done += s.Size
		rep.Bytes += s.Size
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}
	checkState(fsys, dir, rep)
	checkJournals(fsys, dir, rep.seqs, rep)
	sort.SliceStable(rep.Problems, func(i, j int) bool { return rep.Problems[i].File < rep.Problems[j].File })
	return rep, nil
}

// Segment is one segment file of a store.
type Segment struct {
	Stream string
	Path   string // dir joined with the file's path in the store
	Size   int64
}

// Segments lists the segment files of the store in dir
// (streams/<stream>/*.seg), by stream and then name.
func Segments(fsys vfs.FS, dir string) ([]Segment, error) {
	root := filepath.Join(dir, "streams")
	names, err := fsys.ReadDir(root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("check: list streams in %s: %w", root, err)
	}
	sort.Strings(names)
	var out []Segment
	for _, st := range names {
		sdir := filepath.Join(root, st)
		fi, err := fsys.Stat(sdir)
		if err != nil || !fi.IsDir() {
			continue
		}
		files, err := fsys.ReadDir(sdir)
		if err != nil {
			return nil, fmt.Errorf("check: list segments in %s: %w", sdir, err)
		}
		sort.Strings(files)
		for _, f := range files {
			if !strings.HasSuffix(f, ".seg") {
				continue
			}
			p := filepath.Join(sdir, f)
			fi, err := fsys.Stat(p)
			if err != nil {
				return nil, fmt.Errorf("check: stat %s: %w", p, err)
			}
			out = append(out, Segment{Stream: st, Path: p, Size: fi.Size()})
		}
	}
	return out, nil
}

// problemsOf turns err (possibly joined) into problems of file rel.
func problemsOf(rel string, err error) []Problem {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if _, isCorrupt := err.(*codec.CorruptionError); !isCorrupt {
			var out []Problem
			for _, e := range j.Unwrap() {
				out = append(out, problemsOf(rel, e)...)
			}
			return out
		}
	}
	var ce *codec.CorruptionError
	if errors.As(err, &ce) {
		return []Problem{{File: rel, Section: ce.Section, Offset: ce.Offset, Msg: ce.Err.Error()}}
	}
	return []Problem{{File: rel, Section: "file", Offset: -1, Msg: err.Error()}}
}
