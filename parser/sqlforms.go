package parser

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// The special syntax of SQL's standard functions and intervals that people paste from
// Flink (and TPC-H) is rewritten on tokens before sqlparser sees it:
//
//   - SUBSTRING(s FROM p [FOR n]) becomes SUBSTRING(s, p[, n]) (on any expression);
//   - TRIM([BOTH | LEADING | TRAILING] [c] FROM s) becomes a stand-in call that the
//     converter turns into TRIM, LTRIM or RTRIM (s[, c]);
//   - POSITION(x IN s) becomes POSITION(x, s), OVERLAY(s PLACING r FROM p [FOR n])
//     OVERLAY(s, r, p[, n]);
//   - INTERVAL 'v' UNIT [(p)] [TO UNIT2 [(p)]] loses its precisions, and a two-unit
//     interval becomes the single-unit one of the same length in its last unit
//     (INTERVAL '1 10' DAY TO HOUR is INTERVAL '34' HOUR; '1-6' YEAR TO MONTH is 18 MONTH);
//   - the clauses of JSON_VALUE, JSON_QUERY and JSON_EXISTS after the path (RETURNING t,
//     … ON EMPTY, … ON ERROR, WITH … WRAPPER) become trailing arguments
//     __flussql_json_clause('TEXT'[, default]) (jsonclauses.go);
//   - x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT] becomes x = __flussql_is_json_kind()
//     (<> for IS NOT: the same precedence as IS), which the converter turns into IS_JSON;
//   - (VALUES (…), (…)) [AS] t [(names)] in FROM becomes a UNION ALL subquery (fromvalues.go).

// trimFunc prefixes the stand-ins of TRIM(… FROM …): __flussql_trim_both(c, s), ….
const trimFunc = reservedPrefix + "trim_"

// rewriteSQLForms rewrites the forms above in the tokens from s.
func (l *lexed) rewriteSQLForms(s int, rw *rewrite) error {
	for k := s; k+1 < len(l.toks); k++ {
		t, next := l.toks[k], l.toks[k+1]
		var err error
		switch {
		case t.quoted:
		case next.typ == '(' && (l.isWord(t, "substring") || l.isWord(t, "substr")):
			l.separateArgs(k+1, rw, "from", "for")
		case l.isWord(t, "is") && (l.isWord(next, "json") || l.isWord(next, "not") && k+2 < len(l.toks) && l.isWord(l.toks[k+2], "json")):
			l.rewriteIsJSON(k, rw)
		case next.typ == '(' && l.isWord(t, "overlay"):
			l.separateArgs(k+1, rw, "placing", "from", "for")
		case next.typ == '(' && l.isWord(t, "position"):
			l.separateArgs(k+1, rw, "in")
		case next.typ == '(' && l.isWord(t, "trim"):
			l.rewriteTrim(k, rw)
		case next.typ == '(' && l.isWord(t, "regexp") && !l.afterOperand(k):
			rw.add(t.start, t.end, regexpFunc) // REGEXP(s, p), not the operator s REGEXP (p)
		case next.typ == '(' && (l.isWord(t, "json_object") || l.isWord(t, "json_objectagg")):
			l.rewriteJSONObject(k+1, rw, true)
		case next.typ == '(' && (l.isWord(t, "json_value") || l.isWord(t, "json_query") || l.isWord(t, "json_exists")):
			err = l.rewriteJSONClauses(k+1, rw)
		case next.typ == '(' && (l.isWord(t, "json_array") || l.isWord(t, "json_arrayagg")):
			l.rewriteJSONObject(k+1, rw, false)
		case l.isWord(t, "interval") && next.typ == sqlparser.STRING:
			err = l.rewriteInterval(k, rw)
		case t.typ == '(' && l.isWord(next, "values") && k > s && l.opensFromItem(k):
			err = l.rewriteFromValues(k, rw)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// separateArgs replaces the words (FROM, FOR, IN) at the top level of the parentheses
// opening at token open with commas.
func (l *lexed) separateArgs(open int, rw *rewrite, words ...string) {
	end := l.closing(open)
	depth := 0
	for j := open; j < end; j++ {
		t := l.toks[j]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth == 1 && !t.quoted:
			for _, w := range words {
				if l.isWord(t, w) {
					rw.add(t.start, t.end, ",")
				}
			}
		}
	}
}

// afterOperand reports whether token k follows the end of an operand (a name, a literal, a
// closing parenthesis): then a word there is an infix operator, not a function's name.
func (l *lexed) afterOperand(k int) bool {
	if k == 0 {
		return false
	}
	p := l.toks[k-1]
	switch {
	case p.typ == ')' || p.typ == sqlparser.STRING || p.typ == sqlparser.INTEGRAL || p.typ == sqlparser.FLOAT:
		return true
	case !l.isWordTok(p):
		return false
	}
	for _, w := range []string{"select", "where", "and", "or", "not", "when", "then", "else", "on", "having", "by", "case", "distinct", "in", "return"} {
		if l.isWord(p, w) {
			return false
		}
	}
	return true
}

// regexpFunc stands for Flink's function REGEXP(s, p) (sqlparser takes REGEXP for MySQL's operator).
const regexpFunc = reservedPrefix + "regexp"

// rewriteJSONObject rewrites JSON_OBJECT([KEY] k VALUE v, …) into JSON_OBJECT(k, v, …)
// (keys true; JSON_OBJECTAGG too): at the top level of its parentheses, KEY at the start
// of an argument goes, VALUE becomes a comma. In these and JSON_ARRAY(AGG), a trailing
// NULL ON NULL or ABSENT ON NULL becomes a last argument __flussql_on_null_absent() (or
// _null()), which the converter turns into an OnNull.
func (l *lexed) rewriteJSONObject(open int, rw *rewrite, keys bool) {
	end := l.closing(open)
	if end < 0 {
		return
	}
	depth := 0
	for j := open; j < end; j++ {
		t := l.toks[j]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth != 1 || t.quoted:
		case (l.isWord(t, "null") || l.isWord(t, "absent")) && j+3 == end && l.isWord(l.toks[j+1], "on") && l.isWord(l.toks[j+2], "null"):
			sep := ", "
			if l.toks[j-1].typ == '(' {
				sep = ""
			}
			rw.add(t.start, l.toks[j+2].end, sep+onNullFunc+strings.ToLower(t.text(l.src))+"()")
			j += 2
		case !keys:
		case l.isWord(t, "key") && (l.toks[j-1].typ == '(' || l.toks[j-1].typ == ','):
			rw.add(t.start, t.end, "")
		case l.isWord(t, "value"):
			rw.add(t.start, t.end, ",")
		}
	}
}

// rewriteTrim rewrites TRIM([BOTH | LEADING | TRAILING] [c] FROM s) starting at token k;
// TRIM(s) stays as it is.
func (l *lexed) rewriteTrim(k int, rw *rewrite) {
	open := k + 1
	end := l.closing(open)
	if end < 0 {
		return
	}
	from, depth := -1, 0
	for j := open; j < end; j++ {
		t := l.toks[j]
		switch {
		case t.typ == '(':
			depth++
		case t.typ == ')':
			depth--
		case depth == 1 && l.isWord(t, "from") && from < 0:
			from = j
		}
	}
	mode := "both"
	first := open + 1
	if first < end {
		if w := l.toks[first]; !w.quoted && (l.isWord(w, "both") || l.isWord(w, "leading") || l.isWord(w, "trailing")) {
			mode = strings.ToLower(l.src[w.start:w.end])
			rw.add(w.start, w.end, "")
			first++
		}
	}
	if from < 0 {
		if mode != "both" || first != open+1 {
			// TRIM(LEADING s): sqlparser reports the missing FROM at s.
			rw.add(l.toks[k].start, l.toks[k].end, trimFunc+mode)
		}
		return
	}
	rw.add(l.toks[k].start, l.toks[k].end, trimFunc+mode)
	if first == from { // no characters: TRIM(LEADING FROM s)
		rw.add(l.toks[from].start, l.toks[from].end, "")
		return
	}
	rw.add(l.toks[from].start, l.toks[from].end, ",")
}

// trimCall converts a stand-in of TRIM(… FROM …) (name lower-case): args are (s) or (c, s).
func (c *converter) trimCall(name string, n *sqlparser.FuncExpr) (Expr, bool, error) {
	mode, ok := strings.CutPrefix(name, trimFunc)
	if !ok {
		return nil, false, nil
	}
	fn := map[string]string{"both": "TRIM", "leading": "LTRIM", "trailing": "RTRIM"}[mode]
	var args []Expr
	for _, se := range n.Exprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || !ae.As.IsEmpty() || fn == "" {
			return nil, true, c.nodeErr(n, "write TRIM([BOTH | LEADING | TRAILING] [characters] FROM s)")
		}
		x, err := c.expr(ae.Expr)
		if err != nil {
			return nil, true, err
		}
		args = append(args, x)
	}
	switch len(args) {
	case 1:
		return &FuncCall{Name: fn, Args: args}, true, nil
	case 2:
		return &FuncCall{Name: fn, Args: []Expr{args[1], args[0]}}, true, nil
	}
	return nil, true, c.nodeErr(n, "write TRIM([BOTH | LEADING | TRAILING] [characters] FROM s)")
}

// trimString renders TRIM, LTRIM and RTRIM with characters in SQL's form; ok is false
// for other calls.
func trimString(f *FuncCall) (string, bool) {
	mode := map[string]string{"TRIM": "BOTH", "LTRIM": "LEADING", "RTRIM": "TRAILING"}[f.Name]
	switch {
	case mode != "" && len(f.Args) == 2:
		return "TRIM(" + mode + " " + f.Args[1].String() + " FROM " + f.Args[0].String() + ")", true
	case mode != "" && mode != "BOTH" && len(f.Args) == 1:
		return "TRIM(" + mode + " FROM " + f.Args[0].String() + ")", true
	case f.Name == "POSITION" && len(f.Args) == 2:
		return "POSITION(" + f.Args[0].String() + " IN " + f.Args[1].String() + ")", true
	case f.Name == "IS_JSON" && len(f.Args) == 2:
		if k, ok := f.Args[1].(*Literal); ok && k.Kind == LitString {
			return "(" + f.Args[0].String() + " IS JSON " + k.Value + ")", true
		}
	case f.Name == "OVERLAY" && (len(f.Args) == 3 || len(f.Args) == 4):
		s := "OVERLAY(" + f.Args[0].String() + " PLACING " + f.Args[1].String() + " FROM " + f.Args[2].String()
		if len(f.Args) == 4 {
			s += " FOR " + f.Args[3].String()
		}
		return s + ")", true
	}
	return "", false
}

// intervalForms are the two-unit qualifiers: the pattern of the value and the length of
// each field in units of the last one.
var intervalForms = map[[2]string]struct {
	re     *regexp.Regexp
	sizes  []int64 // per field, in units of the last field
	limits []int64 // the bound of each field after the first (exclusive)
	show   string
}{
	{"YEAR", "MONTH"}:    {regexp.MustCompile(`^([0-9]+)-([0-9]+)$`), []int64{12, 1}, []int64{12}, "'Y-M', e.g. '1-6'"},
	{"DAY", "HOUR"}:      {regexp.MustCompile(`^([0-9]+) +([0-9]+)$`), []int64{24, 1}, []int64{24}, "'D H', e.g. '1 10'"},
	{"DAY", "MINUTE"}:    {regexp.MustCompile(`^([0-9]+) +([0-9]+):([0-9]+)$`), []int64{1440, 60, 1}, []int64{24, 60}, "'D H:M', e.g. '1 10:30'"},
	{"DAY", "SECOND"}:    {regexp.MustCompile(`^([0-9]+) +([0-9]+):([0-9]+):([0-9]+(?:\.[0-9]{1,3})?)$`), []int64{86400, 3600, 60, 1}, []int64{24, 60, 60}, "'D H:M:S[.fff]', e.g. '1 10:30:15.5'"},
	{"HOUR", "MINUTE"}:   {regexp.MustCompile(`^([0-9]+):([0-9]+)$`), []int64{60, 1}, []int64{60}, "'H:M', e.g. '10:30'"},
	{"HOUR", "SECOND"}:   {regexp.MustCompile(`^([0-9]+):([0-9]+):([0-9]+(?:\.[0-9]{1,3})?)$`), []int64{3600, 60, 1}, []int64{60, 60}, "'H:M:S[.fff]', e.g. '10:30:15'"},
	{"MINUTE", "SECOND"}: {regexp.MustCompile(`^([0-9]+):([0-9]+(?:\.[0-9]{1,3})?)$`), []int64{60, 1}, []int64{60}, "'M:S[.fff]', e.g. '30:15'"},
}

// rewriteInterval rewrites INTERVAL 'v' UNIT [(p[, s])] [TO UNIT2 [(p)]] at token k.
func (l *lexed) rewriteInterval(k int, rw *rewrite) error {
	val := l.toks[k+1]
	j := k + 2
	if j >= len(l.toks) || !l.isWordTok(l.toks[j]) {
		return nil // sqlparser reports it
	}
	unit := strings.ToUpper(l.src[l.toks[j].start:l.toks[j].end])
	last := j
	skipPrecision := func() {
		if last+1 < len(l.toks) && l.toks[last+1].typ == '(' {
			if c := l.closing(last + 1); c > 0 {
				rw.add(l.toks[last].end, l.toks[c].end, "")
				last = c
			}
		}
	}
	skipPrecision()
	if last+2 >= len(l.toks) || !l.isWord(l.toks[last+1], "to") || !l.isWordTok(l.toks[last+2]) {
		return nil
	}
	to := l.toks[last+2]
	unit2 := strings.ToUpper(l.src[to.start:to.end])
	rw.add(l.toks[last].end, to.start, " ") // the TO
	last += 2
	skipPrecision()
	form, ok := intervalForms[[2]string{unit, unit2}]
	if !ok {
		return unsupportedError(l.src, l.toks[j].start, l.toks[j].text(l.src),
			"INTERVAL … "+unit+" TO "+unit2+" is not supported; the qualifiers are YEAR TO MONTH, DAY TO HOUR, DAY TO MINUTE, DAY TO SECOND, HOUR TO MINUTE, HOUR TO SECOND and MINUTE TO SECOND")
	}
	text := strings.TrimSpace(val.val)
	neg := strings.HasPrefix(text, "-")
	text = strings.TrimLeft(text, "+-")
	m := form.re.FindStringSubmatch(text)
	bad := func(why string) error {
		return newError(l.src, val.start, val.text(l.src), "", fmt.Sprintf("INTERVAL %s %s TO %s: %s; write %s", QuoteString(val.val), unit, unit2, why, form.show))
	}
	if m == nil {
		return bad("the value does not match the qualifier")
	}
	total := new(big.Rat)
	for i, f := range m[1:] {
		x, _ := new(big.Rat).SetString(f)
		if i > 0 && x.Cmp(new(big.Rat).SetInt64(form.limits[i-1])) >= 0 {
			return bad(fmt.Sprintf("field %s is out of range (below %d)", f, form.limits[i-1]))
		}
		total.Add(total, x.Mul(x, new(big.Rat).SetInt64(form.sizes[i])))
	}
	if neg {
		total.Neg(total)
	}
	out := total.RatString()
	if !total.IsInt() {
		out = total.FloatString(3)
	}
	rw.add(val.start, val.end, QuoteString(out))
	// The first unit becomes the last: INTERVAL '34' HOUR.
	rw.add(l.toks[j].start, l.toks[j].end, "")
	rw.add(to.start, to.end, unit2)
	return nil
}

// onNullFunc prefixes the stand-in of NULL ON NULL and ABSENT ON NULL.
const onNullFunc = reservedPrefix + "on_null_"

// isJSONFunc prefixes the stand-in of x IS [NOT] JSON kind: __flussql_is_json_object().
const isJSONFunc = reservedPrefix + "is_json_"

// rewriteIsJSON rewrites IS [NOT] JSON [kind] starting at token k (the IS).
func (l *lexed) rewriteIsJSON(k int, rw *rewrite) {
	op, j := "=", k+1
	if l.isWord(l.toks[j], "not") {
		op, j = "<>", j+1
	}
	kind, end := "value", l.toks[j].end
	if j+1 < len(l.toks) {
		for _, w := range []string{"value", "scalar", "array", "object"} {
			if t := l.toks[j+1]; l.isWord(t, w) && !t.quoted {
				kind, end = w, t.end
			}
		}
	}
	rw.add(l.toks[k].start, end, op+" "+isJSONFunc+kind+"()")
}

// isJSONCall converts the stand-in of x IS [NOT] JSON kind (ok is false for other
// comparisons) into IS_JSON(x, 'KIND'), under NOT for IS NOT.
func (c *converter) isJSONCall(n *sqlparser.ComparisonExpr) (Expr, bool, error) {
	f, ok := n.Right.(*sqlparser.FuncExpr)
	if !ok {
		return nil, false, nil
	}
	kind, ok := strings.CutPrefix(strings.ToLower(f.Name.String()), isJSONFunc)
	if !ok {
		return nil, false, nil
	}
	x, err := c.expr(n.Left)
	if err != nil {
		return nil, true, err
	}
	var out Expr = &FuncCall{Name: "IS_JSON", Args: []Expr{x, &Literal{Kind: LitString, Value: strings.ToUpper(kind)}}}
	if n.Operator == sqlparser.NotEqualStr {
		out = &Not{Expr: out}
	}
	return out, true, nil
}
