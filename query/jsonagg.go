package query

import "strings"

// json_group_array(x [ORDER BY ...]) and json_group_object(k, v [ORDER
// BY ...]) are string_agg of each row's JSON, bracketed: the array's
// elements are the values as JSON (NULL as null), the object's members
// "k":v (a row of a NULL key left out, which DuckDB refuses). A group of
// no row is NULL, as in DuckDB. The parts are functions of their own,
// named so that no query can call them.
const (
	jsonElementFunc = "\x00json_element" // x as JSON
	jsonMemberFunc  = "\x00json_member"  // "k":v
	jsonArrayFunc   = "\x00json_array"   // [s]
	jsonObjectFunc  = "\x00json_object"  // {s}
)

// jsonAggregates names the aggregates by the bracketing function of
// their result.
var jsonAggregates = map[string]string{"json_group_array": jsonArrayFunc, "json_group_object": jsonObjectFunc}

// jsonAggValue computes the aggregates' parts of v.
func jsonAggValue(fn string, args []*arithPlan, v []value) (value, bool) {
	switch fn {
	case jsonElementFunc:
		return value{s: string(appendJSONValue(nil, args[0], v[0]))}, true
	case jsonMemberFunc:
		if v[0].null {
			return nullValue, false
		}
		b := appendJSONString(nil, v[0].s)
		b = append(b, ':')
		return value{s: string(appendJSONValue(b, args[1], v[1]))}, true
	case jsonArrayFunc:
		return value{s: "[" + v[0].s + "]"}, true
	case jsonObjectFunc:
		return value{s: "{" + v[0].s + "}"}, true
	}
	return nullValue, false
}

// jsonAggArgs parses the arguments of json_group_array(x [ORDER BY
// ...]) or json_group_object(k, v [ORDER BY ...]) into c, a string_agg
// of each row's JSON named as written; the caller brackets it.
func (p *parser) jsonAggArgs(c *Call) {
	name := c.Func
	arg := func() *Arith {
		var x Call
		p.aggArg(&x)
		if x.Expr != nil {
			return x.Expr
		}
		return &Arith{Col: x.Arg, Pos: x.Arg.Pos}
	}
	elem := &Arith{Op: 'f', Func: jsonElementFunc, Args: []*Arith{arg()}, Pos: c.Pos}
	if name == "json_group_object" {
		if t := p.peek(); !isPunct(t, ",") {
			p.fail(t.pos, "json_group_object wants two arguments, a key and a value, found %s", t.describe())
		}
		p.advance()
		elem = &Arith{Op: 'f', Func: jsonMemberFunc, Args: []*Arith{elem.Args[0], arg()}, Pos: c.Pos}
	}
	c.Func, c.Expr, c.Sep, c.SepGiven = "string_agg", elem, ",", true
	c.Arg = &ColRef{Name: elem.String(), Pos: c.Pos}
	p.aggOrder(c)
	var sb strings.Builder
	sb.WriteString(name + "(")
	for i, x := range elem.Args {
		if i > 0 {
			sb.WriteString(", ")
		}
		x.write(&sb, 0)
	}
	if c.By != nil {
		sb.WriteString(" ORDER BY " + orderText(c.By.Name, c.ByDesc, c.ByNulls))
		for _, k := range c.Then {
			sb.WriteString(", " + orderText(k.Col.Name, k.Desc, k.Nulls))
		}
	}
	c.ordered = sb.String() + ")"
}
