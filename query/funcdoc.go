package query

import (
	"slices"
	"strings"

	"github.com/tsqdb/tsq/internal/textdist"
)

// funcDoc describes one function of the language for SHOW FUNCTIONS and
// the shell's completion. TestFuncDocs keeps the list and the parser's
// functions the same.
type funcDoc struct {
	name, kind, call, what string
}

// funcDocs are the functions, by kind.
var funcDocs = []funcDoc{
	{"count", "aggregate", "count(*), count(x), count(DISTINCT x)", "rows, non-null values, distinct values"},
	{"sum", "aggregate", "sum(x)", "the sum (floats compensated)"},
	{"avg", "aggregate", "avg(x)", "the mean"},
	{"min", "aggregate", "min(x)", "the smallest value"},
	{"max", "aggregate", "max(x)", "the largest value"},
	{"first", "aggregate", "first(x)", "x of the earliest row by (time, seq)"},
	{"last", "aggregate", "last(x)", "x of the latest row by (time, seq)"},
	{"any_value", "aggregate", "any_value(x)", "first(x)"},
	{"arg_max", "aggregate", "arg_max(x, y)", "x at the row of the largest y"},
	{"max_by", "aggregate", "max_by(x, y)", "arg_max(x, y)"},
	{"arg_min", "aggregate", "arg_min(x, y)", "x at the row of the smallest y"},
	{"min_by", "aggregate", "min_by(x, y)", "arg_min(x, y)"},
	{"string_agg", "aggregate", "string_agg(x[, 'sep'] [ORDER BY k, ...])", "the texts joined in (time, seq) order, or the terms'"},
	{"json_group_array", "aggregate", "json_group_array(x [ORDER BY k, ...])", "a JSON array of the values, as string_agg orders them"},
	{"json_group_object", "aggregate", "json_group_object(k, v [ORDER BY ...])", "a JSON object of the pairs (NULL keys left out)"},
	{"grouping", "grouping", "grouping(a, ...)", "with ROLLUP, CUBE or GROUPING SETS: the bits of the terms a row's set does not group by"},
	{"approx_count_distinct", "aggregate", "approx_count_distinct(x)", "count(DISTINCT x), exact"},
	{"count_if", "aggregate", "count_if(cond)", "count(*) FILTER (WHERE cond)"},
	{"bool_and", "aggregate", "bool_and(b)", "whether every value is true"},
	{"bool_or", "aggregate", "bool_or(b)", "whether any value is true"},
	{"rate", "aggregate", "rate(x)", "per-second increase of a counter, resets allowed"},
	{"quantile", "aggregate", "quantile(q, x)", "the exact q-quantile, interpolated"},
	{"median", "aggregate", "median(x)", "quantile(0.5, x)"},
	{"quantile_cont", "aggregate", "quantile_cont(x, q)", "quantile(q, x)"},
	{"percentile_cont", "aggregate", "percentile_cont(q) WITHIN GROUP (ORDER BY x)", "quantile(q, x)"},
	{"approx_quantile", "aggregate", "approx_quantile(x, q)", "quantile(q, x), exactly"},
	{"quantile_disc", "aggregate", "quantile_disc(x, q)", "the first value whose rank reaches q"},
	{"percentile_disc", "aggregate", "percentile_disc(q) WITHIN GROUP (ORDER BY x)", "quantile_disc(x, q)"},
	{"stddev", "aggregate", "stddev(x)", "sample standard deviation"},
	{"variance", "aggregate", "variance(x)", "sample variance"},
	{"var_samp", "aggregate", "var_samp(x)", "variance(x)"},
	{"stddev_samp", "aggregate", "stddev_samp(x)", "stddev(x)"},
	{"stddev_pop", "aggregate", "stddev_pop(x)", "population standard deviation"},
	{"var_pop", "aggregate", "var_pop(x)", "population variance"},
	{"spread", "aggregate", "spread(x)", "max(x) - min(x)"},
	{"skewness", "aggregate", "skewness(x)", "sample skewness (NULL below 3 values)"},
	{"kurtosis", "aggregate", "kurtosis(x)", "sample excess kurtosis (NULL below 4 values)"},
	{"kurtosis_pop", "aggregate", "kurtosis_pop(x)", "population excess kurtosis"},
	{"mad", "aggregate", "mad(x)", "median absolute deviation: the median of |x - median(x)|"},
	{"mode", "aggregate", "mode(x)", "the most frequent value (ties: the earliest by (time, seq))"},
	{"entropy", "aggregate", "entropy(x)", "Shannon entropy of the values' frequencies, in bits"},
	{"product", "aggregate", "product(x)", "the product of the values"},
	{"geomean", "aggregate", "geomean(x)", "the geometric mean: exp(avg(ln(x)))"},
	{"geometric_mean", "aggregate", "geometric_mean(x)", "geomean(x)"},
	{"favg", "aggregate", "favg(x)", "avg(x) (its sum is compensated already)"},
	{"mean", "aggregate", "mean(x)", "avg(x)"},
	{"group_concat", "aggregate", "group_concat(x[, sep])", "string_agg(x[, sep])"},
	{"listagg", "aggregate", "listagg(x[, sep])", "string_agg(x[, sep])"},
	{"arbitrary", "aggregate", "arbitrary(x)", "first(x)"},
	{"bit_and", "aggregate", "bit_and(n)", "bitwise AND of the integers"},
	{"bit_or", "aggregate", "bit_or(n)", "bitwise OR of the integers"},
	{"bit_xor", "aggregate", "bit_xor(n)", "bitwise XOR of the integers"},
	{"corr", "aggregate", "corr(y, x)", "Pearson's correlation"},
	{"covar_pop", "aggregate", "covar_pop(y, x)", "population covariance"},
	{"covar_samp", "aggregate", "covar_samp(y, x)", "sample covariance"},
	{"regr_slope", "aggregate", "regr_slope(y, x)", "slope of the least-squares line"},
	{"regr_intercept", "aggregate", "regr_intercept(y, x)", "intercept of the least-squares line"},
	{"regr_r2", "aggregate", "regr_r2(y, x)", "the line's coefficient of determination"},
	{"regr_count", "aggregate", "regr_count(y, x)", "rows where neither is null"},

	{"difference", "window", "difference(x)", "x minus the previous value"},
	{"non_negative_difference", "window", "non_negative_difference(x)", "difference, null when negative"},
	{"derivative", "window", "derivative(x[, unit])", "difference per unit of time (1s)"},
	{"non_negative_derivative", "window", "non_negative_derivative(x[, unit])", "derivative, null when negative"},
	{"cumulative_sum", "window", "cumulative_sum(x)", "the sum so far"},
	{"moving_average", "window", "moving_average(x, n)", "the mean of the last n values"},
	{"lag", "window", "lag(x[, n[, default]] [IGNORE NULLS])", "x of the row n before (default past the partition's start)"},
	{"lead", "window", "lead(x[, n[, default]] [IGNORE NULLS])", "x of the row n after (default past the partition's end)"},
	{"row_number", "window", "row_number()", "the row's place, from 1"},
	{"rank", "window", "rank()", "place, ties sharing the first"},
	{"dense_rank", "window", "dense_rank()", "rank without gaps"},
	{"percent_rank", "window", "percent_rank()", "(rank - 1) / (rows - 1)"},
	{"cume_dist", "window", "cume_dist()", "share of rows up to the row's ties"},
	{"ntile", "window", "ntile(n)", "bucket 1 to n of near-equal ones"},
	{"first_value", "window", "first_value(x [IGNORE NULLS])", "x of the frame's first row"},
	{"last_value", "window", "last_value(x [IGNORE NULLS])", "x of the frame's last row"},
	{"nth_value", "window", "nth_value(x, n [IGNORE NULLS])", "x of the frame's n-th row"},

	{"abs", "numeric", "abs(x)", "absolute value"},
	{"round", "numeric", "round(x[, digits])", "nearest, ties away from zero"},
	{"floor", "numeric", "floor(x)", "largest integer not above"},
	{"ceil", "numeric", "ceil(x)", "smallest integer not below"},
	{"ceiling", "numeric", "ceiling(x)", "ceil(x)"},
	{"trunc", "numeric", "trunc(x[, digits])", "toward zero"},
	{"sign", "numeric", "sign(x)", "-1, 0 or 1"},
	{"sqrt", "numeric", "sqrt(x)", "square root"},
	{"cbrt", "numeric", "cbrt(x)", "cube root"},
	{"ln", "numeric", "ln(x)", "natural logarithm"},
	{"log10", "numeric", "log10(x)", "base-10 logarithm"},
	{"log", "numeric", "log(x) or log(b, x)", "log10(x); to base b"},
	{"log2", "numeric", "log2(x)", "base-2 logarithm"},
	{"exp", "numeric", "exp(x)", "e to the x"},
	{"power", "numeric", "power(x, y)", "x to the y"},
	{"sin", "numeric", "sin(x)", "sine of x radians"},
	{"cos", "numeric", "cos(x)", "cosine"},
	{"tan", "numeric", "tan(x)", "tangent"},
	{"cot", "numeric", "cot(x)", "cotangent"},
	{"asin", "numeric", "asin(x)", "arcsine; NULL outside [-1, 1]"},
	{"acos", "numeric", "acos(x)", "arccosine; NULL outside [-1, 1]"},
	{"atan", "numeric", "atan(x)", "arctangent"},
	{"atan2", "numeric", "atan2(y, x)", "the angle of (x, y)"},
	{"degrees", "numeric", "degrees(x)", "radians to degrees"},
	{"radians", "numeric", "radians(x)", "degrees to radians"},
	{"isnan", "numeric", "isnan(x)", "x is NaN"},
	{"isinf", "numeric", "isinf(x)", "x is infinite"},
	{"isfinite", "numeric", "isfinite(x)", "x is neither"},
	{"even", "numeric", "even(x)", "the even integer away from zero"},
	{"gcd", "numeric", "gcd(a, b)", "greatest common divisor of integers"},
	{"factorial", "numeric", "factorial(n)", "n! (NULL below 0 or past 20)"},
	{"bit_count", "numeric", "bit_count(n)", "the bits set in an integer"},
	{"xor", "numeric", "xor(a, b)", "bitwise XOR of integers"},
	{"nextafter", "numeric", "nextafter(x, y)", "the next float after x toward y"},
	{"lcm", "numeric", "lcm(a, b)", "least common multiple; NULL past int64"},
	{"pow", "numeric", "pow(x, y)", "power(x, y)"},
	{"coalesce", "numeric", "coalesce(x, y, ...)", "the first not null"},
	{"greatest", "numeric", "greatest(x, y, ...)", "the largest not null"},
	{"least", "numeric", "least(x, y, ...)", "the smallest not null"},
	{"nullif", "numeric", "nullif(x, y)", "x, or null where x = y"},
	{"starts_with", "condition", "starts_with(s, 'prefix')", "s begins with prefix"},
	{"ends_with", "condition", "ends_with(s, 'suffix')", "s ends with suffix"},
	{"prefix", "condition", "prefix(s, 'prefix')", "starts_with(s, 'prefix')"},
	{"suffix", "condition", "suffix(s, 'suffix')", "ends_with(s, 'suffix')"},
	{"contains", "condition", "contains(s, 'part')", "s has part"},
	{"regexp_matches", "condition", "regexp_matches(s, 're')", "re matches somewhere in s"},
	{"regexp_full_match", "condition", "regexp_full_match(s, 're')", "re matches the whole of s"},
	{"ifnull", "numeric", "ifnull(x, y)", "coalesce(x, y)"},
	{"mod", "numeric", "mod(x, y)", "x % y"},
	{"if", "numeric", "if(cond, x, y)", "CASE WHEN cond THEN x ELSE y END"},

	{"now", "time", "now()", "the query's start"},
	{"epoch", "time", "epoch(t)", "seconds since 1970, a float"},
	{"epoch_ms", "time", "epoch_ms(t)", "milliseconds since 1970"},
	{"epoch_us", "time", "epoch_us(t)", "microseconds since 1970"},
	{"epoch_ns", "time", "epoch_ns(t)", "nanoseconds since 1970"},
	{"to_timestamp", "time", "to_timestamp(seconds)", "the instant"},
	{"last_day", "time", "last_day(t)", "the last day of t's month (UTC midnight)"},
	{"make_date", "time", "make_date(y, m, d)", "the day (UTC midnight); NULL for none"},
	{"make_timestamp", "time", "make_timestamp(y, mo, d, h, mi, s)", "the instant (UTC); NULL for none; make_timestamp(us): us microseconds after the epoch"},
	{"year", "time", "year(t[, 'zone'])", "the year"},
	{"quarter", "time", "quarter(t[, 'zone'])", "1 to 4"},
	{"month", "time", "month(t[, 'zone'])", "1 to 12"},
	{"day", "time", "day(t[, 'zone'])", "day of the month"},
	{"hour", "time", "hour(t[, 'zone'])", "0 to 23"},
	{"minute", "time", "minute(t[, 'zone'])", "0 to 59"},
	{"second", "time", "second(t[, 'zone'])", "0 to 59"},
	{"dayofweek", "time", "dayofweek(t[, 'zone'])", "0 (Sunday) to 6"},
	{"isodow", "time", "isodow(t[, 'zone'])", "1 (Monday) to 7"},
	{"dayofyear", "time", "dayofyear(t[, 'zone'])", "1 to 366"},
	{"week", "time", "week(t[, 'zone'])", "ISO week, 1 to 53"},
	{"weekofyear", "time", "weekofyear(t[, 'zone'])", "week(t)"},
	{"dayofmonth", "time", "dayofmonth(t[, 'zone'])", "day(t)"},
	{"weekday", "time", "weekday(t[, 'zone'])", "dayofweek(t)"},
	{"millisecond", "time", "millisecond(t[, 'zone'])", "milliseconds within the minute, 0 to 59999"},
	{"microsecond", "time", "microsecond(t[, 'zone'])", "microseconds within the minute"},
	{"nanosecond", "time", "nanosecond(t[, 'zone'])", "nanoseconds within the minute"},
	{"isoyear", "time", "isoyear(t[, 'zone'])", "the ISO week's year"},
	{"yearweek", "time", "yearweek(t[, 'zone'])", "ISO year * 100 + ISO week"},
	{"decade", "time", "decade(t[, 'zone'])", "year / 10"},
	{"century", "time", "century(t[, 'zone'])", "21 for 2001 to 2100"},
	{"millennium", "time", "millennium(t[, 'zone'])", "3 for 2001 to 3000"},
	{"era", "time", "era(t[, 'zone'])", "1 (AD) for a year above 0"},
	{"date_part", "time", "date_part('unit', t[, 'zone'])", "a time part by name"},
	{"extract", "time", "extract(unit FROM t)", "date_part"},
	{"date_trunc", "time", "date_trunc('unit', t[, 'zone'])", "the start of t's unit"},
	{"time_bucket", "time", "time_bucket(width, t[, offset | origin][, 'zone'])", "the start of t's bucket, as DuckDB's (from 2000-01-03)"},
	{"date_diff", "time", "date_diff('unit', a, b)", "unit boundaries from a to b"},
	{"date_sub", "time", "date_sub('unit', a, b)", "whole units from a to b"},
	{"date_add", "time", "date_add(t, INTERVAL ...)", "t + INTERVAL ..."},
	{"datediff", "time", "datediff('unit', a, b)", "date_diff"},
	{"strftime", "time", "strftime(t, 'format'[, 'zone'])", "t as text"},
	{"strptime", "time", "strptime(s, 'format')", "the time text s writes in format; NULL if it does not fit"},
	{"dayname", "time", "dayname(t[, 'zone'])", "the day of the week by name: Monday"},
	{"monthname", "time", "monthname(t[, 'zone'])", "the month by name: January"},

	{"lower", "text", "lower(s)", "lower case"},
	{"upper", "text", "upper(s)", "upper case"},
	{"lcase", "text", "lcase(s)", "lower(s)"},
	{"ucase", "text", "ucase(s)", "upper(s)"},
	{"trim", "text", "trim(s[, chars])", "without white space (or any of chars) around"},
	{"ltrim", "text", "ltrim(s[, chars])", "without white space (or any of chars) before"},
	{"rtrim", "text", "rtrim(s[, chars])", "without white space (or any of chars) after"},
	{"length", "text", "length(s)", "characters"},
	{"len", "text", "len(s)", "length(s)"},
	{"char_length", "text", "char_length(s)", "length(s)"},
	{"character_length", "text", "character_length(s)", "length(s)"},
	{"substr", "text", "substr(s, start[, n])", "n characters from start (1-based)"},
	{"substring", "text", "substring(s, start[, n])", "substr(s, start[, n])"},
	{"left", "text", "left(s, n)", "the first n characters"},
	{"right", "text", "right(s, n)", "the last n characters"},
	{"lpad", "text", "lpad(s, n[, fill])", "padded before to n characters"},
	{"rpad", "text", "rpad(s, n[, fill])", "padded after to n characters"},
	{"repeat", "text", "repeat(s, n)", "s n times"},
	{"reverse", "text", "reverse(s)", "the characters backwards"},
	{"replace", "text", "replace(s, from, to)", "every from replaced"},
	{"split_part", "text", "split_part(s, sep, n)", "the n-th part (1-based)"},
	{"strpos", "text", "strpos(s, sub)", "place of sub, 1-based; 0 if absent"},
	{"instr", "text", "instr(s, sub)", "strpos(s, sub)"},
	{"concat_ws", "text", "concat_ws(sep, x, ...)", "the values not NULL joined by sep"},
	{"hex", "text", "hex(x)", "x in hex: an integer's 64 bits, text's bytes"},
	{"to_hex", "text", "to_hex(x)", "hex(x)"},
	{"bin", "text", "bin(x)", "x in binary: an integer's bits, text's bytes"},
	{"to_binary", "text", "to_binary(x)", "bin(x)"},
	{"to_base64", "text", "to_base64(s)", "s's bytes in base64"},
	{"base64", "text", "base64(s)", "to_base64(s)"},
	{"from_base64", "text", "from_base64(s)", "the bytes s encodes in base64; NULL for none"},
	{"format_bytes", "text", "format_bytes(n)", "n bytes in KiB, MiB, ... PiB, one decimal: 1.4 KiB"},
	{"formatreadablesize", "text", "formatReadableSize(n)", "format_bytes(n)"},
	{"formatreadabledecimalsize", "text", "formatReadableDecimalSize(n)", "n bytes in kB, MB, ... PB, one decimal"},
	{"bit_length", "text", "bit_length(s)", "the bits of s's bytes"},
	{"octet_length", "text", "octet_length(s)", "s's bytes"},
	{"unicode", "text", "unicode(s)", "the first character's code point; -1 for ''"},
	{"ord", "text", "ord(s)", "unicode(s)"},
	{"random", "numeric", "random()", "a new float in [0, 1) at every row"},
	{"uuid", "text", "uuid()", "a new version-4 UUID at every row (gen_random_uuid)"},
	{"gen_random_uuid", "text", "gen_random_uuid()", "uuid()"},
	{"printf", "text", "printf('format', x, ...)", "the values by C's directives: %d %x %f %e %g %s, flags, width, precision"},
	{"format", "text", "format('format', x, ...)", "the values in {fmt}'s fields: {}, {1}, {:>8.2f}, {:,}"},
	{"translate", "text", "translate(s, from, to)", "each character of from in s replaced by to's at its place, or dropped"},
	{"md5", "text", "md5(s)", "the MD5 of s in hex"},
	{"to_days", "time", "to_days(n)", "a span of n days"},
	{"to_hours", "time", "to_hours(n)", "a span of n hours"},
	{"to_minutes", "time", "to_minutes(n)", "a span of n minutes"},
	{"to_seconds", "time", "to_seconds(x)", "a span of x seconds"},
	{"to_milliseconds", "time", "to_milliseconds(x)", "a span of x milliseconds"},
	{"to_microseconds", "time", "to_microseconds(x)", "a span of x microseconds"},
	{"json_extract", "json", "json_extract(j, path), j -> path", "the JSON at path ('$.a[0]', '/a/0', 'a' or an index); NULL if none"},
	{"json_extract_string", "json", "json_extract_string(j, path), j ->> path", "json_extract as text: a string unquoted, null as NULL"},
	{"json_exists", "json", "json_exists(j, path)", "whether path finds a value"},
	{"json_type", "json", "json_type(j[, path])", "OBJECT, ARRAY, VARCHAR, BIGINT, UBIGINT, DOUBLE, BOOLEAN or NULL"},
	{"json_array_length", "json", "json_array_length(j[, path])", "the elements of the array (0 for another value)"},
	{"json_valid", "json", "json_valid(s)", "whether s is a JSON document"},
	{"json", "json", "json(j)", "j written compactly"},
	{"to_json", "json", "to_json(x)", "x as JSON"},
	{"json_quote", "json", "json_quote(x)", "to_json(x)"},
	{"json_object", "json", "json_object(k, v, ...)", "a JSON object of the pairs"},
	{"json_array", "json", "json_array(x, ...)", "a JSON array of the values"},
	{"sha256", "text", "sha256(s)", "the SHA-256 of s in hex"},
	{"typeof", "text", "typeof(x)", "x's type as DuckDB names it: BIGINT, DOUBLE, VARCHAR, TIMESTAMP..."},
	{"levenshtein", "text", "levenshtein(a, b)", "edit distance in bytes: insertions, deletions, substitutions"},
	{"damerau_levenshtein", "text", "damerau_levenshtein(a, b)", "levenshtein with swaps of adjacent bytes"},
	{"hamming", "text", "hamming(a, b)", "bytes that differ, of equal lengths (else NULL)"},
	{"jaccard", "text", "jaccard(a, b)", "Jaccard similarity of the sets of bytes, 0 to 1"},
	{"jaro_similarity", "text", "jaro_similarity(a, b)", "Jaro similarity, 0 to 1"},
	{"jaro_winkler_similarity", "text", "jaro_winkler_similarity(a, b)", "Jaro-Winkler similarity, 0 to 1"},
	{"ascii", "text", "ascii(s)", "code point of s's first character; 0 for ''"},
	{"chr", "text", "chr(n)", "the character of code point n; NULL for none"},
	{"position", "text", "position(sub IN s)", "strpos(s, sub)"},
	{"concat", "text", "concat(x, ...)", "the values as text, joined (NULLs left out)"},
	{"label", "text", "label(series, 'name')", "a label of a series name"},
	{"regexp_extract", "text", "regexp_extract(s, 're'[, group])", "the first match's group"},
	{"regexp_replace", "text", "regexp_replace(s, 're', 'with'[, 'flags'])", "matches replaced (g: all, i: any case)"},

	{"cast", "cast", "CAST(x AS type), x::type", "to DOUBLE, BIGINT or VARCHAR"},
	{"try_cast", "cast", "TRY_CAST(x AS type)", "CAST"},
}

// Functions returns the names of the language's functions, sorted.
func Functions() []string {
	out := make([]string, len(funcDocs))
	for i, d := range funcDocs {
		out[i] = d.name
	}
	slices.Sort(out)
	return out
}

// functionList is the result of SHOW FUNCTIONS [LIKE 'pat']: name,
// kind, call and what, in the list's order, those whose name matches
// pat if given.
func functionList(pat *string) [][]value {
	var rows [][]value
	for _, d := range funcDocs {
		if pat != nil && !likeRegexp(strings.ToLower(*pat)).MatchString(d.name) {
			continue
		}
		rows = append(rows, []value{{s: d.name}, {s: d.kind}, {s: d.call}, {s: d.what}})
	}
	return rows
}

// listFuncs are DuckDB's functions of lists, which tsq does not have.
var listFuncs = map[string]bool{"list": true, "array_agg": true, "list_value": true, "unnest": true, "string_split": true,
	"str_split": true, "list_contains": true, "list_extract": true, "array_length": true, "len_list": true, "list_sort": true,
	"list_distinct": true, "array_to_string": true, "list_aggregate": true, "regexp_split_to_array": true, "json_keys": true}

// didYouMean returns ": did you mean x?" for the function whose name is
// nearest fn, within two edits, else ""; for a function of lists, what
// tsq has instead.
func didYouMean(fn string) string {
	if listFuncs[fn] {
		return ": tsq has no list type; json_group_array(x) makes a JSON array of a group's values, which -> and ->> read (j->>0, j->>-1), and json_array_length counts"
	}
	best, dist := "", 3
	for _, d := range funcDocs {
		if n := textdist.Edit(fn, d.name); n < dist {
			best, dist = d.name, n
		}
	}
	if best == "" {
		return ""
	}
	return ": did you mean " + best + "?"
}
