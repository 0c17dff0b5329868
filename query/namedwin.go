package query

import "strings"

// Named windows: WINDOW w AS (PARTITION BY ...), after HAVING, defines
// windows that OVER w takes whole and OVER (w ORDER BY ... frame)
// builds on. A definition may build on an earlier one. The clause
// follows the SELECT items that name its windows, so those are
// completed once it is read; windows named later (in QUALIFY) at once.

// startsOver reports whether an OVER starts at the next token: OVER (
// or OVER and a window's name.
func (p *parser) startsOver() bool {
	n := p.tok(p.i + 1)
	return isKw(p.peek(), "over") && (isPunct(n, "(") || n.kind == tQuoted || n.kind == tIdent && !reserved[strings.ToLower(n.text)])
}

// windowScope gives a SELECT its own named windows until the function
// it returns is called.
func (p *parser) windowScope() func() {
	w, r := p.windows, p.refs
	p.windows, p.refs = nil, nil
	return func() { p.windows, p.refs = w, r }
}

// named completes o, which names a window, now if the WINDOW clause
// was read, else once it is.
func (p *parser) named(o *Over) {
	if p.windows != nil {
		p.resolve(o)
		return
	}
	p.refs = append(p.refs, o)
}

// resolve copies the terms of the window o names into o.
func (p *parser) resolve(o *Over) {
	def, ok := p.windows[strings.ToLower(o.Ref)]
	if !ok {
		p.fail(o.RefPos, "no window named %s: WINDOW %s AS (PARTITION BY ... ORDER BY ...), after HAVING, defines one", o.Ref, o.Ref)
	}
	switch {
	case len(o.Order) > 0 && len(def.Order) > 0:
		p.fail(o.RefPos, "window %s has an ORDER BY: a window built on it cannot add one", o.Ref)
	case o.Frame != nil && def.Frame != nil:
		p.fail(o.RefPos, "window %s has a frame: a window built on it cannot add one", o.Ref)
	}
	o.Partition = def.Partition
	if len(o.Order) == 0 {
		o.Order = def.Order
	}
	if o.Frame == nil {
		o.Frame = def.Frame
	}
}

// windowClause parses an optional WINDOW name AS (...), ... and
// completes the windows read before that name one.
func (p *parser) windowClause() {
	if !isWindowClause(p.peek(), p.tok(p.i+1), p.tok(p.i+2)) {
		return
	}
	p.advance()
	p.windows = map[string]*Over{}
	for {
		n := p.advance()
		if n.kind != tQuoted && (n.kind != tIdent || reserved[strings.ToLower(n.text)]) {
			p.fail(n.pos, "expected a window's name in WINDOW, found %s", n.describe())
		}
		if _, dup := p.windows[strings.ToLower(n.text)]; dup {
			p.fail(n.pos, "window %s is defined twice", n.text)
		}
		p.expectKw("as")
		p.expectPunct("(")
		def := p.overSpec("WINDOW " + n.text + " AS (...)")
		if def.Ref != "" {
			p.resolve(def)
		}
		p.windows[strings.ToLower(n.text)] = def
		if !p.acceptPunct(",") {
			break
		}
	}
	for _, o := range p.refs {
		p.resolve(o)
	}
	p.refs = nil
}

// isWindowClause reports whether tokens a, b, c start a WINDOW clause
// (WINDOW name AS): "window" may name a column or a source's alias too.
func isWindowClause(a, b, c token) bool {
	return isKw(a, "window") && (b.kind == tIdent || b.kind == tQuoted) && isKw(c, "as")
}

// endWindows fails on a window that names one no WINDOW clause defines.
func (p *parser) endWindows() {
	if len(p.refs) > 0 {
		o := p.refs[0]
		p.fail(o.RefPos, "no window named %s: WINDOW %s AS (PARTITION BY ... ORDER BY ...), after HAVING, defines one", o.Ref, o.Ref)
	}
}
