package ingest

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// otherLayouts are the text times read without a layout besides RFC 3339
// and its relatives (textTimeLayout): what databases, servers and
// languages write. Each has a zone (a numeric offset, or GMT/UTC) or none
// (UTC); a zone abbreviation other than GMT and UTC is refused, for Go
// would take an unknown one as UTC silently.
var otherLayouts = []string{
	"2006-01-02 15:04:05.999999999 -0700 MST", // Go's time.Time.String
	"2006-01-02 15:04:05.999999999-07",        // PostgreSQL: +00, +05:30 below
	"2006-01-02T15:04:05.999999999-07",
	"2006-01-02 15:04:05.999999999-0700", // strftime %z: +0000
	"2006-01-02T15:04:05.999999999-0700",
	"2006-01-02 15:04:05.999999999 -0700",
	"2006-01-02T15:04:05.999999999 -0700",
	"2006/01/02 15:04:05.999999999",
	"2006/01/02",
	"2006-01-02 15:04", // spreadsheets: no seconds
	"2006-01-02T15:04",
	"02.01.2006 15:04:05", // day.month.year: German, Russian, Polish... spreadsheets
	"02.01.2006 15:04",
	"02.01.2006",
	"2.1.2006",
	"20060102T150405.999999999Z0700", // ISO 8601 basic
	"20060102T150405Z0700",
	"02/Jan/2006:15:04:05 -0700", // the common log format (Apache, nginx)
	time.RFC1123Z,                // e-mail and HTTP dates
	time.RFC1123,
	"Mon, 2 Jan 2006 15:04:05 MST",
	time.RFC850,
	time.ANSIC,
	time.UnixDate,
	"Jan 2 2006 15:04:05",
	"2 Jan 2006 15:04:05",
}

// parseTextTime reads a text time: by the last of otherLayouts that
// read one (*last, -1 for none: an input keeps to one layout), else by
// the layout its shape suggests (textTimeLayout), else by each of
// otherLayouts.
func parseTextTime(s []byte, last *int) (int64, error) {
	str := bstr(s)
	try := func(i int) (int64, bool, error) {
		tm, err := time.Parse(otherLayouts[i], str)
		if err != nil {
			return 0, false, nil
		}
		if name, off := tm.Zone(); off == 0 && name != "" && name != "UTC" && name != "GMT" && !strings.Contains(otherLayouts[i], "-07") {
			return 0, true, fmt.Errorf("zone %s is ambiguous: give times with a numeric offset (+01:00) or in UTC", name)
		}
		*last = i
		ns, err := unixNano(tm)
		return ns, true, err
	}
	if *last >= 0 {
		if ns, ok, err := try(*last); ok {
			return ns, err
		}
	}
	if tm, err := time.Parse(textTimeLayout(s), str); err == nil {
		return unixNano(tm)
	}
	for i := range otherLayouts {
		if ns, ok, err := try(i); ok {
			return ns, err
		}
	}
	return 0, errNotATime
}

var errNotATime = errors.New("not a time in a layout read by default (RFC 3339 and its relatives, " +
	"PostgreSQL's, RFC 1123, the common log format, ISO 8601 basic, unix numbers): give its Go layout " +
	"(time.layout=..., tsq import --time-layout; e.g. '01/02/2006 15:04' for 12/31/2024 23:59)")
