package main

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	prompt "github.com/elk-language/go-prompt"
	istrings "github.com/elk-language/go-prompt/strings"
	tsq "github.com/tsqdb/tsq"
	"github.com/tsqdb/tsq/query"
)

// keywords and functions of the query language, offered by completion.
var (
	keywords = []string{"SELECT", "DISTINCT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET", "AND", "OR", "NOT",
		"AS", "OF", "SEQ", "TIME", "ASC", "DESC", "EXPLAIN", "ANALYZE", "SUMMARIZE", "PIVOT", "UNPIVOT", "COPY", "TO", "FORMAT", "IN", "LIKE", "NULL", "IS", "TRUE", "FALSE", "FILL", "PREVIOUS", "DELETE", "INSERT", "INTO", "VALUES", "CREATE", "DROP", "TABLE", "IF", "PERCENT", "SET", "RESET", "TIMEZONE",
		"SHOW", "STREAMS", "COLUMNS", "SERIES", "DESCRIBE", "FILTER",
		"CASE", "WHEN", "THEN", "ELSE", "END", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER", "EXCLUDE", "REPLACE", "ASOF", "ON", "USING", "UNION", "INTERSECT", "EXCEPT", "ALL", "WITH", "CAST", "TRY_CAST", "DOUBLE", "BIGINT", "VARCHAR", "ILIKE",
		"OVER", "PARTITION", "QUALIFY", "NULLS", "FIRST", "LAST", "ROWS", "RANGE", "GROUPS", "BETWEEN", "UNBOUNDED", "PRECEDING", "FOLLOWING", "CURRENT", "ROW", "WINDOW", "EXISTS", "ANY", "SOME", "INTERVAL", "ROLLUP", "CUBE", "GROUPING", "SETS"}
	functions = append(query.Functions(), "fold", "time")
)

// completer offers completions from the store: stream names, and per
// stream its fields and some series, cached after the first ask.
type completer struct {
	st     *tsq.Store
	mu     sync.Mutex
	fields map[string][]string
	series map[string][]string
}

func newCompleter(st *tsq.Store) *completer {
	return &completer{st: st, fields: map[string][]string{}, series: map[string][]string{}}
}

// forget drops cached names, after a statement may have changed them.
func (c *completer) forget() {
	c.mu.Lock()
	c.fields, c.series = map[string][]string{}, map[string][]string{}
	c.mu.Unlock()
}

func (c *completer) streams() []string {
	n, _ := c.st.Streams()
	return n
}

func (c *completer) fieldsOf(stream string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.fields[stream]; ok {
		return f
	}
	var f []string
	if sc, err := streamSchema(c.st, stream); err == nil {
		for _, x := range sc.Fields() {
			f = append(f, x.Name)
		}
	}
	c.fields[stream] = f
	return f
}

func (c *completer) seriesOf(stream string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.series[stream]; ok {
		return s
	}
	s, _ := streamSeries(c.st, stream, 200)
	c.series[stream] = s
	return s
}

// fromRE finds the streams a statement reads.
var fromRE = regexp.MustCompile(`(?i)\b(?:from|join)\s+(?:fold\s*\(\s*)?([a-z0-9][a-z0-9_.-]*)`)

// wordSep ends the word being completed.
const wordSep = " \t\n(),;=<>!+*/"

// complete is the go-prompt Completer.
func (c *completer) complete(d prompt.Document) ([]prompt.Suggest, istrings.RuneNumber, istrings.RuneNumber) {
	end := d.CurrentRuneIndex()
	before := d.TextBeforeCursor()
	word := d.GetWordBeforeCursorUntilSeparator(wordSep)
	start := end - istrings.RuneCountInString(word)
	return c.suggest(before, d.Text, word), start, end
}

// suggest returns what may complete word, the end of before, the text
// before the cursor; full is the whole statement.
func (c *completer) suggest(before, full, word string) []prompt.Suggest {
	trimmed := strings.TrimLeft(before, " \t\n")
	var out []prompt.Suggest
	switch {
	case strings.HasPrefix(trimmed, ".") && !strings.ContainsAny(trimmed, " \t"):
		for _, d := range dotCmds {
			out = append(out, prompt.Suggest{Text: d.name, Description: d.help})
		}
		return prompt.FilterHasPrefix(out, word, true)
	case strings.HasPrefix(trimmed, ".schema ") || strings.HasPrefix(trimmed, ".series ") ||
		strings.HasPrefix(trimmed, ".stats ") || strings.HasPrefix(trimmed, ".drop "):
		return prompt.FilterHasPrefix(names(c.streams(), "stream"), word, true)
	case word == "":
		return nil
	}
	prev := previousWord(before, word)
	if strings.HasSuffix(strings.TrimRight(before[:len(before)-len(word)], " "), "fold(") {
		return prompt.FilterHasPrefix(names(c.streams(), "stream"), word, true)
	}
	if (strings.EqualFold(prev, "table") || strings.EqualFold(prev, "exists")) && len(trimmed) >= 4 && strings.EqualFold(trimmed[:4], "drop") {
		return prompt.FilterHasPrefix(names(c.streams(), "stream"), word, true)
	}
	if strings.EqualFold(prev, "from") || strings.EqualFold(prev, "join") { // a stream or a table function
		out = names(c.streams(), "stream")
		for _, f := range []string{"generate_series", "range"} {
			out = append(out, prompt.Suggest{Text: f + "(", Description: "integers or times from start to stop"})
		}
		return prompt.FilterHasPrefix(out, word, true)
	}
	streams := mentioned(full)
	if strings.HasPrefix(word, "'") || strings.HasPrefix(word, `"`) {
		q := word[:1]
		for _, st := range streams {
			for _, s := range c.seriesOf(st) {
				out = append(out, prompt.Suggest{Text: q + s + q, Description: "series of " + st})
			}
		}
		return prompt.FilterHasPrefix(out, word, true)
	}
	if dot := strings.LastIndexByte(word, '.'); dot > 0 { // a.va: a column of a side of a join
		for _, st := range streams {
			for _, f := range append([]string{"seq", "time", "series", "key", "op"}, c.fieldsOf(st)...) {
				out = append(out, prompt.Suggest{Text: word[:dot+1] + f, Description: "column of " + st})
			}
		}
		return dedupe(prompt.FilterHasPrefix(out, word, true))
	}
	for _, st := range streams {
		out = append(out, names(c.fieldsOf(st), "column of "+st)...)
	}
	out = append(out, names(keywords, "keyword")...)
	out = append(out, names(functions, "function")...)
	out = append(out, names(c.streams(), "stream")...)
	return dedupe(prompt.FilterHasPrefix(out, word, true))
}

// previousWord returns the word before word at the end of before.
func previousWord(before, word string) string {
	rest := strings.TrimRight(before[:len(before)-len(word)], " \t\n")
	i := strings.LastIndexAny(rest, wordSep)
	return rest[i+1:]
}

// mentioned returns the streams named after FROM in text.
func mentioned(text string) []string {
	var out []string
	for _, m := range fromRE.FindAllStringSubmatch(text, -1) {
		out = append(out, strings.ToLower(m[1])) // as the parser folds it
	}
	sort.Strings(out)
	return out
}

func names(v []string, desc string) []prompt.Suggest {
	out := make([]prompt.Suggest, len(v))
	for i, s := range v {
		out[i] = prompt.Suggest{Text: s, Description: desc}
	}
	return out
}

func dedupe(s []prompt.Suggest) []prompt.Suggest {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x.Text] {
			seen[x.Text] = true
			out = append(out, x)
		}
	}
	return out
}
