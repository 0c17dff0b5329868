package query

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Instants to and from numbers and text: epoch(t) (seconds, float64),
// epoch_ms(t) (int64), to_timestamp(seconds) and strftime(t, format[,
// 'zone']).

// epochFuncs are the numeric functions between instants and numbers.
var epochFuncs = map[string]bool{"epoch": true, "epoch_ms": true, "epoch_us": true, "epoch_ns": true, "to_timestamp": true, "epoch_ms_instant": true,
	"epoch_ms_span": true, "epoch_us_span": true}

// sinceEpoch: the functions of a time that count since 1970.
var sinceEpoch = map[string]bool{"epoch": true, "epoch_ms": true, "epoch_us": true, "epoch_ns": true}

// applyEpoch computes epoch, epoch_ms or to_timestamp of x (of kind k);
// an instant outside int64 nanoseconds is NULL. Whole units of an instant
// are rounded down, of a span toward zero.
func applyEpoch(fn string, k colKind, x value) value {
	switch fn {
	case "epoch":
		return fv(float64(x.i/1e9) + float64(x.i%1e9)/1e9)
	case "epoch_ms":
		return value{i: floorDiv(x.i, 1e6)} // an instant: the millisecond it falls in
	case "epoch_us":
		return value{i: floorDiv(x.i, 1e3)}
	case "epoch_ms_span": // a span: toward zero, as DuckDB's of an INTERVAL
		return value{i: x.i / 1e6}
	case "epoch_us_span":
		return value{i: x.i / 1e3}
	case "epoch_ns":
		return x
	case "epoch_ms_instant": // epoch_ms of an integer, not an instant: DuckDB's inverse
		if x.i > math.MaxInt64/int64(time.Millisecond) || x.i < math.MinInt64/int64(time.Millisecond) {
			return nullValue
		}
		return value{i: x.i * int64(time.Millisecond)}
	}
	return spanOf(k, x, int64(time.Second)) // to_timestamp: seconds since the epoch
}

// zones caches the zones strftime names by row: the zones found (a
// bounded set), and up to maxZoneMisses names that are none, so that a
// column of arbitrary text cannot grow it without bound.
var (
	zones      sync.Map // name -> *time.Location, or nil for no such zone
	zoneMisses atomic.Int64
)

const maxZoneMisses = 4096

// zoneNamed returns the zone called name: an IANA name such as
// Europe/Berlin, or UTC; never "" or Local, which depend on the machine.
func zoneNamed(name string) (*time.Location, bool) {
	if z, ok := zones.Load(name); ok {
		loc, _ := z.(*time.Location)
		return loc, loc != nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" || strings.EqualFold(name, "local") {
		if zoneMisses.Add(1) <= maxZoneMisses {
			zones.Store(name, (*time.Location)(nil))
		}
		return nil, false
	}
	zones.Store(name, loc)
	return loc, true
}

// strftime formats t with C's strftime directives: %Y %y %m %d %e %H %I
// %M %S %f (microseconds) %p %j %a %A %b %B %u %w %V %G %Z %z %F %T %s
// %n %t %%; any other % sequence is written as it is.
func strftime(t time.Time, format string) string {
	var sb strings.Builder
	bare := false // %-d: a number without its zeros
	pad := func(n, width int) {
		s := strconv.Itoa(n)
		for i := len(s); i < width && !bare; i++ {
			sb.WriteByte('0')
		}
		sb.WriteString(s)
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		if bare = format[i] == '-' && i+1 < len(format) && strings.IndexByte("dmyHIMSj", format[i+1]) >= 0; bare {
			i++
		}
		switch format[i] {
		case 'Y':
			pad(t.Year(), 4)
		case 'y':
			pad((t.Year()%100+100)%100, 2)
		case 'm':
			pad(int(t.Month()), 2)
		case 'd':
			pad(t.Day(), 2)
		case 'e':
			if t.Day() < 10 {
				sb.WriteByte(' ')
			}
			pad(t.Day(), 1)
		case 'H':
			pad(t.Hour(), 2)
		case 'I':
			pad((t.Hour()+11)%12+1, 2)
		case 'M':
			pad(t.Minute(), 2)
		case 'S':
			pad(t.Second(), 2)
		case 'f':
			pad(t.Nanosecond()/1000, 6)
		case 'g': // DuckDB's milliseconds
			pad(t.Nanosecond()/1e6, 3)
		case 'n': // DuckDB's nanoseconds
			pad(t.Nanosecond(), 9)
		case 'U', 'W': // the week of the year from its first Sunday (Monday), 00 before it
			wd := int(t.Weekday())
			if format[i] == 'W' {
				wd = (wd + 6) % 7
			}
			pad((t.YearDay()-1+7-wd)/7, 2)
		case 'c':
			sb.WriteString(strftime(t, "%Y-%m-%d %H:%M:%S"))
		case 'x':
			sb.WriteString(strftime(t, "%Y-%m-%d"))
		case 'X':
			sb.WriteString(strftime(t, "%H:%M:%S"))
		case 'p':
			if t.Hour() < 12 {
				sb.WriteString("AM")
			} else {
				sb.WriteString("PM")
			}
		case 'j':
			pad(t.YearDay(), 3)
		case 'a':
			sb.WriteString(t.Weekday().String()[:3])
		case 'A':
			sb.WriteString(t.Weekday().String())
		case 'b', 'h':
			sb.WriteString(t.Month().String()[:3])
		case 'B':
			sb.WriteString(t.Month().String())
		case 'u':
			pad((int(t.Weekday())+6)%7+1, 1)
		case 'w':
			pad(int(t.Weekday()), 1)
		case 'V':
			_, w := t.ISOWeek()
			pad(w, 2)
		case 'G':
			y, _ := t.ISOWeek()
			pad(y, 4)
		case 'Z':
			name, _ := t.Zone()
			sb.WriteString(name)
		case 'z':
			_, off := t.Zone()
			sign := byte('+')
			if off < 0 {
				sign, off = '-', -off
			}
			sb.WriteByte(sign)
			pad(off/3600, 2)
			pad(off/60%60, 2)
		case 'F':
			sb.WriteString(strftime(t, "%Y-%m-%d"))
		case 'T':
			sb.WriteString(strftime(t, "%H:%M:%S"))
		case 's':
			sb.WriteString(strconv.FormatInt(floorDiv(t.UnixNano(), 1e9), 10))
		case 't':
			sb.WriteByte('\t')
		case '%':
			sb.WriteByte('%')
		default:
			sb.WriteByte('%')
			sb.WriteByte(format[i])
		}
	}
	return sb.String()
}
