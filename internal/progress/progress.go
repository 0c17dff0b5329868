// Package progress shows progress bars (github.com/schollz/progressbar/v3)
// on stderr for long commands: bytes or rows done, rate and ETA. A Bar made
// for a writer that is not a terminal draws nothing, so scripts and logs
// stay clean; every method is safe on a nil *Bar.
package progress

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar is a progress bar, or nothing when its output is not a terminal.
type Bar struct {
	b *progressbar.ProgressBar
}

// Unit says what a bar counts.
type Unit uint8

const (
	Bytes Unit = iota // shown as kB, MB, ... with MB/s
	Rows              // shown as a count with rows/s
)

// New returns a bar titled desc counting up to total (-1: unknown) on w,
// or nil when w is not a terminal.
func New(w io.Writer, total int64, desc string, u Unit) *Bar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return newBar(w, total, desc, u)
}

// newBar draws on w whatever w is.
func newBar(w io.Writer, total int64, desc string, u Unit) *Bar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionClearOnFinish(),
	}
	if u == Bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString("rows"))
	}
	return &Bar{b: progressbar.NewOptions64(total, opts...)}
}

// Set moves the bar to n.
func (b *Bar) Set(n int64) {
	if b != nil {
		b.b.Set64(n)
	}
}

// Describe replaces the title, e.g. with counts the bar itself does not
// show.
func (b *Bar) Describe(desc string) {
	if b != nil {
		b.b.Describe(desc)
	}
}

// SetTotal changes the bar's total.
func (b *Bar) SetTotal(n int64) {
	if b != nil {
		b.b.ChangeMax64(n)
	}
}

// Done finishes and clears the bar, leaving the cursor where the bar
// began.
func (b *Bar) Done() {
	if b != nil {
		b.b.Finish()
	}
}
