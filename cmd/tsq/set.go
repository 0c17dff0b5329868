package main

import (
	"fmt"
	"regexp"
	"strings"
)

// SET TimeZone = 'Europe/Berlin' (also TO, SESSION or LOCAL before the
// name, the zone unquoted) and RESET TimeZone, as DuckDB and PostgreSQL
// write them, are .tz in the shell: the zone timestamps are shown on.
// The shell's other settings are dot commands.

var (
	setRE   = regexp.MustCompile(`(?is)^\s*set\s+(?:(?:session|local|global)\s+)?([a-z_]+)\s*(?:=|\s+to\s+)\s*(?:'([^']*)'|"([^"]*)"|([^\s;'"]+))\s*;?\s*$`)
	resetRE = regexp.MustCompile(`(?is)^\s*reset\s+([a-z_]+)\s*;?\s*$`)
)

// isSet reports whether text is a SET or RESET statement.
func isSet(text string) bool {
	w := strings.Fields(text)
	return len(w) > 0 && (strings.EqualFold(w[0], "set") || strings.EqualFold(w[0], "reset"))
}

// set runs a SET or RESET statement.
func (s *session) set(text string) error {
	zone := ""
	name := ""
	if m := setRE.FindStringSubmatch(text); m != nil {
		name, zone = m[1], m[2]+m[3]+m[4]
	} else if m := resetRE.FindStringSubmatch(text); m != nil {
		name, zone = m[1], "UTC"
	} else {
		return fmt.Errorf("SET wants a name and a value: SET TimeZone = 'Europe/Berlin' (RESET TimeZone: back to UTC)")
	}
	if !strings.EqualFold(name, "timezone") && !strings.EqualFold(name, "time_zone") {
		return fmt.Errorf("SET %s: the shell takes SET TimeZone only; its other settings are dot commands (.help)", name)
	}
	loc, err := loadZone(zone)
	if err != nil {
		return fmt.Errorf("SET TimeZone: %w", err)
	}
	s.zone = loc
	return nil
}
