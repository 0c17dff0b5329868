package export_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tsqdb/tsq/export"
	"github.com/tsqdb/tsq/export/exporttest"
)

func ExampleWriteFile() {
	dir, _ := os.MkdirTemp("", "export-example")
	defer os.RemoveAll(dir)
	rows := exporttest.Gen(1, 1000, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Second, false)
	rr := exporttest.Reader(rows, 256) // a query result: seq, time, series, key, op, fields
	defer rr.Release()
	// The format comes from the extension; the file appears only when complete.
	st, err := export.WriteFile(context.Background(), filepath.Join(dir, "result.arrows"), 0, rr, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Rows, "rows in", st.Files, "file")
	// Output: 1000 rows in 1 file
}
