package termplot

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Series is one line of a chart: values at times (ns since the Unix epoch,
// UTC), in any order of equal length. NaN and infinite values are skipped.
type Series struct {
	Name   string
	Times  []int64
	Values []float64
}

// Options size and colour a chart. Zero fields take defaults.
type Options struct {
	Width  int  // plot area in cells, without the axis labels; default 64
	Height int  // plot area in rows; default 14
	Color  bool // ANSI colours for the series and legend
	Title  string
	Zone   *time.Location // the clock of the time axis; nil: UTC
}

// palette holds the ANSI foreground colours of series, in order.
var palette = []string{"36", "33", "35", "32", "34", "31", "96", "93"}

// MaxSeries is the most series a chart draws; more are left out and
// counted in the legend.
const MaxSeries = 8

// Line draws series as a braille line chart with a value axis on the
// left, a time axis below and a legend, and writes it to w.
func Line(w io.Writer, series []Series, o Options) error {
	if o.Width <= 0 {
		o.Width = 64
	}
	if o.Height <= 0 {
		o.Height = 14
	}
	dropped := 0
	if len(series) > MaxSeries {
		dropped = len(series) - MaxSeries
		series = series[:MaxSeries]
	}
	tmin, tmax, vmin, vmax, ok := bounds(series)
	if !ok {
		return fmt.Errorf("termplot: nothing to plot: no finite values")
	}
	if vmin == vmax {
		vmin, vmax = vmin-1, vmax+1
	}
	if tmin == tmax {
		tmin, tmax = tmin-1, tmax+1
	}
	c := newCanvas(o.Width, o.Height)
	pw, ph := o.Width*2-1, o.Height*4-1
	px := func(t int64) int { return int(math.Round(float64(t-tmin) / float64(tmax-tmin) * float64(pw))) }
	py := func(v float64) int { return ph - int(math.Round((v-vmin)/(vmax-vmin)*float64(ph))) }
	for si, s := range series {
		idx := sortedByTime(s)
		prevX, prevY, have := 0, 0, false
		for _, i := range idx {
			v := s.Values[i]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				have = false
				continue
			}
			x, y := px(s.Times[i]), py(v)
			if have {
				c.line(prevX, prevY, x, y, si)
			} else {
				c.set(x, y, si)
			}
			prevX, prevY, have = x, y, true
		}
	}
	var b strings.Builder
	if o.Title != "" {
		b.WriteString(o.Title + "\n")
	}
	labels := valueLabels(vmin, vmax, o.Height)
	lw := 0
	for _, l := range labels {
		lw = max(lw, len(l))
	}
	for row := 0; row < o.Height; row++ {
		fmt.Fprintf(&b, "%*s ┤", lw, labels[row])
		cur := -1
		for col := 0; col < o.Width; col++ {
			r, s := c.cell(col, row)
			if o.Color && s != cur && r != ' ' {
				fmt.Fprintf(&b, "\x1b[%sm", palette[s%len(palette)])
				cur = s
			}
			b.WriteRune(r)
		}
		if o.Color && cur >= 0 {
			b.WriteString("\x1b[0m")
		}
		b.WriteString("\n")
	}
	b.WriteString(strings.Repeat(" ", lw+1) + "└" + strings.Repeat("─", o.Width) + "\n")
	b.WriteString(strings.Repeat(" ", lw+2) + timeAxis(tmin, tmax, o.Width, o.Zone) + "\n")
	for si, s := range series {
		mark := "━━"
		if o.Color {
			mark = "\x1b[" + palette[si%len(palette)] + "m━━\x1b[0m"
		}
		fmt.Fprintf(&b, "%s%s %s\n", strings.Repeat(" ", lw+2), mark, s.Name)
	}
	if dropped > 0 {
		fmt.Fprintf(&b, "%s(%d more series not drawn)\n", strings.Repeat(" ", lw+2), dropped)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// bounds returns the time and value ranges of every finite point.
func bounds(series []Series) (tmin, tmax int64, vmin, vmax float64, ok bool) {
	tmin, tmax = math.MaxInt64, math.MinInt64
	vmin, vmax = math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i, v := range s.Values[:min(len(s.Values), len(s.Times))] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			ok = true
			tmin, tmax = min(tmin, s.Times[i]), max(tmax, s.Times[i])
			vmin, vmax = min(vmin, v), max(vmax, v)
		}
	}
	return
}

// sortedByTime returns the indexes of s's points in time order.
func sortedByTime(s Series) []int {
	n := min(len(s.Times), len(s.Values))
	idx := make([]int, n)
	sorted := true
	for i := range idx {
		idx[i] = i
		if i > 0 && s.Times[i] < s.Times[i-1] {
			sorted = false
		}
	}
	if !sorted {
		sortInts(idx, func(a, b int) bool { return s.Times[a] < s.Times[b] })
	}
	return idx
}

// valueLabels labels the top, middle and bottom rows.
func valueLabels(vmin, vmax float64, rows int) []string {
	l := make([]string, rows)
	at := func(row int) string {
		v := vmax - (vmax-vmin)*float64(row)/float64(max(rows-1, 1))
		return short(v)
	}
	l[0], l[rows-1] = at(0), at(rows-1)
	if rows >= 5 {
		l[rows/2] = at(rows / 2)
	}
	return l
}

// short formats v in at most about 8 characters.
func short(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 1e6 || a < 1e-3:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
}

// timeAxis places a start, middle and end time label under width cells,
// formatted to suit the span, on the clock of zone (nil: UTC).
func timeAxis(tmin, tmax int64, width int, zone *time.Location) string {
	if zone == nil {
		zone = time.UTC
	}
	span := time.Duration(tmax - tmin)
	layout := "2006-01-02"
	switch {
	case span < 2*time.Minute:
		layout = "15:04:05.000"
	case span < 36*time.Hour:
		layout = "01-02 15:04"
	case span < 60*24*time.Hour:
		layout = "2006-01-02 15h"
	}
	f := func(t int64) string { return time.Unix(0, t).In(zone).Format(layout) }
	left, mid, right := f(tmin), f(tmin+(tmax-tmin)/2), f(tmax)
	line := []rune(strings.Repeat(" ", width))
	put := func(at int, s string) {
		r := []rune(s)
		at = max(0, min(at, width-len(r)))
		copy(line[at:], r)
	}
	put(0, left)
	if width >= len(left)+len(mid)+len(right)+4 {
		put(width/2-len(mid)/2, mid)
	}
	if width >= len(left)+len(right)+2 {
		put(width-len(right), right)
	}
	return strings.TrimRight(string(line), " ") + "  (" + zone.String() + ")"
}
