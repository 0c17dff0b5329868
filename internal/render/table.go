package render

import (
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
)

// maxCellWidth bounds a table cell; longer text is cut with an ellipsis.
const maxCellWidth = 60

// writeTable renders the first MaxRows rows as a table, then reads on to
// count the rest and says how many were left out.
func writeTable(w io.Writer, rr array.RecordReader, o Options) (int64, error) {
	loc := o.Zone
	limit := o.MaxRows
	if limit == 0 {
		limit = DefaultMaxRows
	}
	fields := rr.Schema().Fields()
	dim := func(s string) string {
		if o.Color {
			return text.Colors{text.Faint}.Sprint(s)
		}
		return s
	}
	t := table.NewWriter()
	style := table.StyleLight
	style.Format.Header = text.FormatDefault
	style.Format.Footer = text.FormatDefault
	t.SetStyle(style)
	names, types := make(table.Row, len(fields)), make(table.Row, len(fields))
	cfg := make([]table.ColumnConfig, len(fields))
	for i, f := range fields {
		names[i], types[i] = f.Name, dim(TypeName(f.Type))
		cfg[i] = table.ColumnConfig{Number: i + 1, WidthMax: maxCellWidth, WidthMaxEnforcer: trim}
		if kindOf(f.Type) == kNumber {
			cfg[i].Align, cfg[i].AlignHeader = text.AlignRight, text.AlignRight
		}
	}
	t.AppendHeader(names)
	t.AppendHeader(types)
	t.SetColumnConfigs(cfg)
	var shown int64
	n, err := each(rr, func(cols []arrow.Array, i int) error {
		if limit >= 0 && shown >= int64(limit) {
			return nil
		}
		row := make(table.Row, len(cols))
		for j, c := range cols {
			v := format(c, i, loc)
			if v.null {
				row[j] = dim("NULL")
			} else {
				row[j] = v.text
			}
		}
		t.AppendRow(row)
		shown++
		return nil
	})
	if err != nil {
		return n, err
	}
	if len(fields) == 0 {
		_, err = fmt.Fprintf(w, "(%d rows, no columns)\n", n)
		return n, err
	}
	if _, err := io.WriteString(w, t.Render()+"\n"); err != nil {
		return n, err
	}
	switch {
	case n > shown:
		_, err = fmt.Fprintf(w, "… %d more rows (%d in all; .maxrows N to show more)\n", n-shown, n)
	case n == 1:
		_, err = fmt.Fprintln(w, "1 row")
	default:
		_, err = fmt.Fprintf(w, "%d rows\n", n)
	}
	return n, err
}

// trim cuts s to maxLen display columns with an ellipsis.
func trim(s string, maxLen int) string {
	if text.StringWidthWithoutEscSequences(s) <= maxLen {
		return s
	}
	return text.Trim(s, maxLen-1) + "…"
}

// writePlan prints an EXPLAIN plan as plain lines, never cut to a cell.
func writePlan(w io.Writer, rr array.RecordReader) (int64, error) {
	loc := time.UTC
	return each(rr, func(cols []arrow.Array, i int) error {
		_, err := fmt.Fprintln(w, format(cols[0], i, loc).text)
		return err
	})
}
