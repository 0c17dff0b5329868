package query

import "strings"

// A series name may carry Prometheus-style labels: name{k="v",k2="v2"}.
// parseSeries splits it into the metric name and the labels; a name
// without a well-formed label set is all metric name.
func parseSeries(s string) (name string, labels map[string]string) {
	open := strings.IndexByte(s, '{')
	if open < 0 || !strings.HasSuffix(s, "}") {
		return s, nil
	}
	labels = map[string]string{}
	rest := s[open+1 : len(s)-1]
	for rest != "" {
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 || eq+1 >= len(rest) || rest[eq+1] != '"' {
			return s, nil
		}
		k := strings.TrimSpace(rest[:eq])
		var v strings.Builder
		i := eq + 2
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				if rest[i] == 'n' {
					v.WriteByte('\n')
					continue
				}
			}
			v.WriteByte(rest[i])
		}
		if i >= len(rest) {
			return s, nil
		}
		labels[k] = v.String()
		rest = strings.TrimLeft(rest[i+1:], " ")
		if strings.HasPrefix(rest, ",") {
			rest = strings.TrimLeft(rest[1:], " ")
		} else if rest != "" {
			return s, nil
		}
	}
	return s[:open], labels
}

// labelOf returns the value of a label of a series, "" if it has none.
// The label "__name__" is the metric name, as in Prometheus.
func labelOf(series, label string) string {
	name, labels := parseSeries(series)
	if label == "__name__" {
		return name
	}
	return labels[label]
}

// matches reports whether a series satisfies the selector: the metric
// name if given, and every label matcher, a missing label being "" as in
// Prometheus.
func (m *SeriesMatch) matches(series string) bool {
	name, labels := parseSeries(series)
	if m.Name != "" && name != m.Name {
		return false
	}
	for i := range m.Matchers {
		lm := &m.Matchers[i]
		v := labels[lm.Label]
		if lm.Label == "__name__" {
			v = name
		}
		var ok bool
		switch lm.Op {
		case "=":
			ok = v == lm.Value
		case "!=":
			ok = v != lm.Value
		case "=~":
			ok = lm.re.MatchString(v)
		case "!~":
			ok = !lm.re.MatchString(v)
		}
		if !ok {
			return false
		}
	}
	return true
}
