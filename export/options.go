package export

// Options tune an export. A nil *Options means the defaults.
type Options struct {
	// RowGroupRows is the number of rows per Parquet row group (default
	// DefaultRowGroupRows). A row group is encoded in memory before it is
	// flushed, so this bounds the Parquet writer's memory.
	RowGroupRows int
	// MaxOpenFiles bounds how many partition files WritePartitioned keeps
	// open at once (default DefaultMaxOpenFiles). When a new partition needs
	// a file and the bound is reached, the least recently written file is
	// finished; later rows of its partition go to a new part-N file.
	MaxOpenFiles int
	// Progress, if set, is called after every written batch with the rows
	// and bytes written so far.
	Progress func(rows, bytes int64)
}

// Stats reports what an export wrote.
type Stats struct {
	Rows  int64 // rows written
	Bytes int64 // bytes written, summed over all files
	Files int   // files written (1 for Write and WriteFile)
}

const (
	DefaultRowGroupRows = 1 << 20
	DefaultMaxOpenFiles = 8
)

// RowGroups returns the effective Parquet row group size.
func (o *Options) RowGroups() int {
	if o == nil || o.RowGroupRows <= 0 {
		return DefaultRowGroupRows
	}
	return o.RowGroupRows
}

// OpenFiles returns the effective bound on open partition files.
func (o *Options) OpenFiles() int {
	if o == nil || o.MaxOpenFiles <= 0 {
		return DefaultMaxOpenFiles
	}
	return o.MaxOpenFiles
}

func (o *Options) progress(rows, bytes int64) {
	if o != nil && o.Progress != nil {
		o.Progress(rows, bytes)
	}
}
