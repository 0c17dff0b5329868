package query

import "testing"

// TestFormat: printf and format give DuckDB 1.5's text (answers taken
// from it, its float literals cast to DOUBLE): C's directives with their
// flags, widths, precisions, %*d and %2$s; {fmt}'s fields with fill,
// alignment, sign, #, 0, ',' and types; times, bools, NaN and the
// infinities, the ends of int64, rounding of halves.
func TestFormat(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	open := openOnly(src)
	for _, c := range []struct{ q, want string }{
		{"SELECT printf('%.2f|%5d|%-5s|%x|%05.1f|%e|%%|%i', 3.14159, 42, 'ab', 255, 2.25, 12345.678, 7) AS r", "3.14|   42|ab   |ff|002.2|1.234568e+04|%|7"},
		{"SELECT printf('%s|%d', true, true) AS r", "true|1"},
		{"SELECT printf('%c|%g|%g|%G|%5.1f%%|%-8.3e|%#x %#o|%,d|%,.2f|%08.3f|%u|%ld|%lld', 65, 1234567.0, 100.0, 1e-10, 12.345, 1234.5, 255, 8, -1234567, 1234567.891, -3.14159, 5, 5, 5) AS r", "A|1.23457e+06|100|1E-10| 12.3%|1.234e+03|0xff 010|-1,234,567|1,234,567.89|-003.142|5|5|5"},
		{"SELECT printf('%1$s %1$s %2$d', 'x', 7) AS r", "x x 7"},
		{"SELECT printf('%*d|%-*d|', 5, 42, 4, 7) AS r", "   42|7   |"},
		{"SELECT printf('%b|%a|%A|%5s|%-5s|% d|%+.1f|%.0f|%F|%E|%.3d|%+s|%#g|%10.4g|', 5, 1.0, 0.75, 'toolong', 'ab', -5, 0.05, 0.5, 1.5, 1.5, 5, 'a', 1.0, 3.14159265) AS r", "101|0x1p+0|0X1.8P-1|toolong|ab   |-5|+0.1|0|1.500000|1.500000E+00|005|a|1.00000|     3.142|"},
		{"SELECT printf('%x|%X|%o', -255, -1, -8) AS r", "ffffffffffffff01|FFFFFFFFFFFFFFFF|1777777777777777777770"},
		{"SELECT printf('%5.3s|', 'abcdef') AS r", "  abc|"},
		{"SELECT printf('%-+6d|%+06d|%06.2f|%-06d|', 5, 5, -1.5, 5) AS r", "+5    |+00005|-01.50|000005|"},
		{"SELECT printf('%.3x|% 5.1f|%#.3g|%.0e|%#.0f|%c%c', 5, 2.25, 2.0, 12345.0, 3.0, 72, 105) AS r", "005|  2.2|2.00|1e+04|3.|Hi"},
		{"SELECT printf('%f|%e|%g|%F', 'nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, 'inf'::DOUBLE) AS r", "nan|inf|-inf|INF"},
		{"SELECT printf('%s|%10s|', TIMESTAMP '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.5') AS r", "2024-01-01 00:00:00|2024-01-01 10:00:00.5|"},
		{"SELECT printf('%d|%x', -9223372036854775808, 9223372036854775807) AS r", "-9223372036854775808|7fffffffffffffff"},
		{"SELECT printf('%.1f|%.1f|%.2f', 0.25, 0.35, 2.675) AS r", "0.2|0.3|2.67"},
		{"SELECT printf('abc') AS r", "abc"},
		{"SELECT printf('%s', 'x', 'y') AS r", "x"},
		{"SELECT format('{} and {}', 1, 'a') AS r", "1 and a"},
		{"SELECT format('{1} {0} {1}', 1, 'a') AS r", "a 1 a"},
		{"SELECT format('{:.2f}|{:>6}|{:<6}|{:^6}|{:06.1f}|{:x}|{:,}|{:+d}', 3.14159, 'ab', 'cd', 'ef', 2.25, 255, 1234567, 5) AS r", "3.14|    ab|cd    |  ef  |0002.2|ff|1,234,567|+5"},
		{"SELECT format('{}|{}|{}|{}|{}|{}|{}|{}|{}', 1.5, 0.3, 1e20, 100.0, 1e-7, 1e16, 1e15, 0.0001, 0.00001) AS r", "1.5|0.3|1e+20|100.0|1e-07|1e+16|1000000000000000.0|0.0001|1e-05"},
		{"SELECT format('{:.3}|{:.3}|{:.3}|{:.10}|{:g}|{:g}|{:.2g}|{:.0}|{:.1}|{:.3}', 100.0, 0.0001234, 1234.5, 0.1, 100.0, 1234567.0, 1234567.0, 1.5, 0.05, 1e20) AS r", "100.0|0.000123|1.23e+03|0.1|100|1.23457e+06|1.2e+06|1.5|0.05|1.00e+20"},
		{"SELECT format('{:f}|{:e}|{:10.2f}|{:<10.2f}|{:^5}|{:^6}|{:05}|{:+}|{: }|{:#o} {:#b} {:#X}', 1.5, 0.0, 3.14159, 3.14159, 'ef', 'abc', -42, 3.5, 3, 8, 5, 255) AS r", "1.500000|0.000000e+00|      3.14|3.14      | ef  | abc  |-0042|+3.5| 3|010 0b101 0XFF"},
		{"SELECT format('{:,}|{:,}|{:,.2f}|{:>5}|{:d}|{:s}|{}', -1234567, 1234.5, 1234567.891, true, true, 'x', TIMESTAMP '2024-01-01 10:00:00.123456') AS r", "-1,234,567|1,234.5|1,234,567.89| true|1|x|2024-01-01 10:00:00.123456"},
		{"SELECT format('{:*^9}|{:e}|{:g}|{:08.3f}|{:#x}|{:b}|{:10}|{:10}|{:.2}|{:x}|{:.2f}|{:.0f}|{:.0f}|{:0>4}', 'x', 12345.678, 1e-7, -3.14159, 255, 5, 5, 'a', 'abcdef', -255, 2.675, 2.5, 3.5, 7) AS r", "****x****|1.234568e+04|1e-07|-003.142|0xff|101|         5|a         |ab|-ff|2.67|2|4|0007"},
		{"SELECT format('{:#g}|{:#}|{:10.4g}|{:e}|{:.3e}|{:>22}', 1.0, 1.0, 3.14159265, 1e100, 1e-100, TIMESTAMP '2024-01-01') AS r", "1.00000|1.0|     3.142|1.000000e+100|1.000e-100|   2024-01-01 00:00:00"},
		{"SELECT format('{:<8.3f}|{:>+8.1f}|{:^+9.2e}|{:x>6}|', 1.0, 2.0, 3.0, 42) AS r", "1.000   |    +2.0|+3.00e+00|xxxx42|"},
		{"SELECT format('{:#010x}|{:+#x}|{:#08b}|{:08}|{:+08}|{:08.2f}|{: 08.2f}', 255, 255, 5, -5, 5, -1.5, 1.5) AS r", "0x000000ff|+0xff|0b000101|-0000005|+0000005|-0001.50| 0001.50"},
		{"SELECT format('{:,}|{:,}|{:,}|{:.3}|{:.2}|{:.4}|{:G}|{:E}|{:F}', 999, 1000, -1000000, 999.99, 0.00001234, 123456.0, 1e-10, 1.5, 2.5) AS r", "999|1,000|-1,000,000|1.00e+03|1.2e-05|1.235e+05|1E-10|1.500000E+00|2.500000"},
		{"SELECT format('{}|{}|{}|{}|{:x}', 9223372036854775807, -9223372036854775808, 5e-324, -0.0, -9223372036854775808) AS r", "9223372036854775807|-9223372036854775808|5e-324|-0.0|-8000000000000000"},
		{"SELECT format('{}|{}|{}|{:>6}|{:<6}|', 'nan'::DOUBLE, 'inf'::DOUBLE, '-inf'::DOUBLE, 'inf'::DOUBLE, 'nan'::DOUBLE) AS r", "nan|inf|-inf|   inf|nan   |"},
		{"SELECT format('{{}} {} }}{{', 1) AS r", "{} 1 }{"},
	} {
		got, err := runCells(c.q, open, nil)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if len(got) != 1 || got[0][0] != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
	// NULL: an argument or the format makes the result NULL; a column
	// is formatted row by row.
	for _, q := range []string{"SELECT printf('%d', NULL) AS r", "SELECT format('{}', NULL) AS r", "SELECT format(NULL, 1) AS r", "SELECT printf('%s-%d', 'a', NULL) AS r"} {
		if got := mustRun(t, open, q); len(got) != 1 || got[0][0] != nil {
			t.Errorf("%s: %v, want NULL", q, got)
		}
	}
	sameRows(t, open, "SELECT seq, printf('%05d/%s', seq, series) AS r FROM m", "SELECT seq, lpad(CAST(seq AS VARCHAR), 5, '0') || '/' || series AS r FROM m", 10)
	sameRows(t, open, "SELECT seq, format('{:>4}|{}', seq, upper(series)) AS r FROM m", "SELECT seq, lpad(CAST(seq AS VARCHAR), 4, ' ') || '|' || upper(series) AS r FROM m", 10)
}

// TestFormatErrors: a directive of the wrong kind for its argument, too
// few arguments, malformed formats and a format that is not written out
// are refused when the query is planned, at the format.
func TestFormatErrors(t *testing.T) {
	src, _ := testSource(t, 10, 10)
	wantErrors(t, openOnly(src), []errCase{
		{"SELECT printf('%s', 1.5)", "printf(): %s at byte 1 cannot format argument 1, a float", "'%s'"},
		{"SELECT printf('%d', 1.5)", "%d at byte 1 cannot format argument 1, a float", "'%d'"},
		{"SELECT printf('%f', 2)", "%f at byte 1 cannot format argument 1, an integer", "'%f'"},
		{"SELECT printf('%s', 2)", "%s at byte 1 cannot format argument 1, an integer", "'%s'"},
		{"SELECT printf('%x', now())", "%x at byte 1 cannot format argument 1, a time", "'%x'"},
		{"SELECT printf('%s %s', 'a')", "the format refers to argument 2 at byte 4, and 1 follow it", "'%s %s'"},
		{"SELECT printf('%q', 5)", "unknown directive %q at byte 2", "'%q'"},
		{"SELECT printf('%', 5)", "the format ends inside the directive at byte 1", "'%'"},
		{"SELECT printf('%*d', 'a', 5)", "%* at byte 1 takes its width from argument 1, text", "'%*d'"},
		{"SELECT printf(series, 5) FROM m", "printf() wants its format as text written out, not series", "series"},
		{"SELECT format('{:d}', 1.5)", "format(): {:d} at byte 1 cannot format argument 1, a float", "'{:d}'"},
		{"SELECT format('{:s}', 1)", "{:s} at byte 1 cannot format argument 1, an integer", "'{:s}'"},
		{"SELECT format('{:f}', 1)", "{:f} at byte 1 cannot format argument 1, an integer", "'{:f}'"},
		{"SELECT format('{} {}', 1)", "the format refers to argument 2 at byte 4, and 1 follow it", "'{} {}'"},
		{"SELECT format('{}{1}', 'a', 'b')", "{} and {n} cannot mix in one format", "'{}{1}'"},
		{"SELECT format('{0}{0}|{:.1f}', 'ab', 2.25)", "{} and {n} cannot mix in one format", "'{0}"},
		{"SELECT format('{', 1)", "a '{' without its '}' at byte 1", "'{'"},
		{"SELECT format('}', 1)", "a '}' without its '{' at byte 1", "'}'"},
		{"SELECT format('{:q}', 1)", `unknown type "q"`, "'{:q}'"},
		{"SELECT format('{:c}', 65)", `unknown type "c"`, "'{:c}'"},
		{"SELECT format('{:x}', 'ab')", "{:x} at byte 1 cannot format argument 1, text", "'{:x}'"},
		{"SELECT format('{:+}', 'ab')", "formats text: signs, #, 0 and ',' are for numbers", "'{:+}'"},
		{"SELECT format('{:.2}', 5)", "formats an integer: it takes no precision", "'{:.2}'"},
		{"SELECT format('{:.}', 5.5)", "a '.' without the precision's digits", "'{:.}'"},
		{"SELECT format('{x}', 5)", "field {x} at byte 1: want {}, {n} or {:spec}", "'{x}'"},
	})
}

// FuzzFormat parses formats of both functions and renders the ones that
// pass their check with an integer, a float, a text and a bool: nothing
// panics, and a width or precision never passes the limit.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{"%d|%5.2f|%-8s|%%", "%*d", "%2$s %1$x", "%,.2f %#o %+08d", "%10000d", "{} {:>8} {:,.2f} {:#x}", "{2}{0}{1}{3}", "{:*^20.3e}", "{:99999}", "{{}}", "%", "{", "%c%c%c%c"} {
		f.Add(s, int64(-255), 3.25, "abc", true)
	}
	f.Fuzz(func(t *testing.T, format string, i int64, x float64, s string, b bool) {
		args := []*arithPlan{{kind: kInt}, {kind: kFloat}, {kind: kString}, {kind: kBool}}
		kinds := []fmtArg{{kind: kInt}, {kind: kFloat}, {kind: kString}, {kind: kBool}}
		bi := int64(0)
		if b {
			bi = 1
		}
		vals := []value{{i: i}, fv(x), {s: s}, {i: bi}}
		for _, fn := range []string{"printf", "format"} {
			fp, err := parseFormat(fn, format, len(args))
			if err != nil || fp.check(kinds) != nil {
				continue
			}
			out := fp.render(args, vals)
			if len(out) > len(format)+len(fp.pieces)*(2*maxFmtWidth+len(s)+400) {
				t.Fatalf("%s(%q): %d bytes out", fn, format, len(out))
			}
		}
	})
}
