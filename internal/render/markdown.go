package render

import (
	"bufio"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// writeMarkdown renders every row as a GitHub-flavoured Markdown table:
// a header, numbers aligned right, NULL as NULL; | in a cell escaped and
// line breaks as spaces, so a cell stays one.
func writeMarkdown(w io.Writer, rr array.RecordReader, loc *time.Location) (int64, error) {
	bw := bufio.NewWriter(w)
	fields := rr.Schema().Fields()
	line := func(cells []string) {
		bw.WriteString("|")
		for _, c := range cells {
			bw.WriteString(" " + c + " |")
		}
		bw.WriteString("\n")
	}
	cells := make([]string, len(fields))
	for i, f := range fields {
		cells[i] = markdownCell(f.Name)
	}
	line(cells)
	for i, f := range fields {
		cells[i] = "---"
		if kindOf(f.Type) == kNumber {
			cells[i] = "---:"
		}
	}
	line(cells)
	n, err := each(rr, func(cols []arrowArray, i int) error {
		for j, c := range cols {
			v := format(c, i, loc)
			if v.null {
				cells[j] = "NULL"
			} else {
				cells[j] = markdownCell(v.text)
			}
		}
		line(cells)
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return n, err
}

// markdownCell escapes s for a table cell.
var markdownCell = strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ").Replace
