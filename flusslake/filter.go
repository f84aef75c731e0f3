package flusslake

import (
	"github.com/apache/iceberg-go"

	"github.com/flussql/flussql/fluss"
)

// predicate converts a scan filter into an Iceberg expression over the columns' names; ok
// is false when a part of it has no Iceberg form. An AND keeps the children that convert
// (the filter only thins the read: the caller checks every row), an OR needs all of them.
func predicate(info *fluss.TableInfo, p fluss.Predicate) (iceberg.BooleanExpression, bool) {
	switch p.Op {
	case fluss.PredAnd:
		var out iceberg.BooleanExpression
		for _, c := range p.Children {
			e, ok := predicate(info, c)
			if !ok {
				continue
			}
			if out == nil {
				out = e
			} else {
				out = iceberg.NewAnd(out, e)
			}
		}
		return out, out != nil
	case fluss.PredOr:
		var out iceberg.BooleanExpression
		for _, c := range p.Children {
			e, ok := predicate(info, c)
			if !ok {
				return nil, false
			}
			if out == nil {
				out = e
			} else {
				out = iceberg.NewOr(out, e)
			}
		}
		return out, out != nil
	}
	cols := info.Schema().Columns
	if p.Column < 0 || p.Column >= len(cols) {
		return nil, false
	}
	ref := iceberg.Reference(cols[p.Column].Name)
	switch p.Op {
	case fluss.PredIsNull:
		return iceberg.IsNull(ref), true
	case fluss.PredIsNotNull:
		return iceberg.NotNull(ref), true
	}
	lits := make([]iceberg.Literal, len(p.Values))
	for i, v := range p.Values {
		l, ok := literal(v)
		if !ok {
			return nil, false
		}
		lits[i] = l
	}
	ops := map[fluss.PredicateOp]iceberg.Operation{
		fluss.PredEqual: iceberg.OpEQ, fluss.PredNotEqual: iceberg.OpNEQ, fluss.PredLess: iceberg.OpLT,
		fluss.PredLessOrEqual: iceberg.OpLTEQ, fluss.PredGreater: iceberg.OpGT, fluss.PredGreaterOrEqual: iceberg.OpGTEQ,
	}
	switch p.Op {
	case fluss.PredIn:
		if len(lits) == 0 {
			return nil, false
		}
		return iceberg.SetPredicate(iceberg.OpIn, ref, lits), true
	case fluss.PredNotIn:
		if len(lits) == 0 {
			return nil, false
		}
		return iceberg.SetPredicate(iceberg.OpNotIn, ref, lits), true
	}
	op, ok := ops[p.Op]
	if !ok || len(lits) != 1 {
		return nil, false
	}
	return iceberg.LiteralPredicate(op, ref, lits[0]), true
}

// literal is the Iceberg literal of a filter value (the Go value model of fluss.Predicate);
// ok is false for values of other types, which are left to the caller's check.
func literal(v any) (iceberg.Literal, bool) {
	switch v := v.(type) {
	case int8:
		return iceberg.NewLiteral(int32(v)), true
	case int16:
		return iceberg.NewLiteral(int32(v)), true
	case int32:
		return iceberg.NewLiteral(v), true
	case int:
		return iceberg.NewLiteral(int64(v)), true
	case int64:
		return iceberg.NewLiteral(v), true
	case float32:
		return iceberg.NewLiteral(v), true
	case float64:
		return iceberg.NewLiteral(v), true
	case string:
		return iceberg.NewLiteral(v), true
	case bool:
		return iceberg.NewLiteral(v), true
	}
	return nil, false
}
