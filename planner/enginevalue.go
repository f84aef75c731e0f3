package planner

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// engineValue converts a value of the fluss value model (as literals and
// arguments are converted to) into the engine's model for type t.
func engineValue(t types.DataType, v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int64, float64, string, []byte:
		return v, nil
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	}
	if k := sqlkind.OfValue(v); k != nil && k.Engine != nil { // DECIMAL, DATE, …
		return k.Engine(t, v)
	}
	return nil, fmt.Errorf("a value of Go type %T cannot be used in an expression", v)
}

// literalConst types a literal the way Flink does: an integer is INT when it
// fits, else BIGINT (else DECIMAL); 1.25 is DECIMAL(3, 2); 1e3 is DOUBLE; a
// string is STRING; TIMESTAMP '…' has the precision of its fraction.
func literalConst(lit *parser.Literal, sess Session) (engine.Expr, error) {
	var t types.DataType
	switch lit.Kind {
	case parser.LitNull:
		return engine.NewNull(), nil
	case parser.LitBool:
		t = types.NewBoolean()
	case parser.LitString:
		t = types.NewString()
	case parser.LitBytes:
		t = types.NewBytes()
	case parser.LitInt:
		n, ok := new(big.Int).SetString(lit.Value, 10)
		switch {
		case !ok:
			return nil, fmt.Errorf("invalid integer %s", lit.Value)
		case n.IsInt64() && n.Int64() >= -1<<31 && n.Int64() < 1<<31:
			t = types.NewInt()
		case n.IsInt64():
			t = types.NewBigInt()
		default:
			digits := len(strings.TrimPrefix(lit.Value, "-"))
			if digits > 38 {
				return nil, fmt.Errorf("integer %s has more than 38 digits", lit.Value)
			}
			t = types.NewDecimal(digits, 0)
		}
	case parser.LitNumber:
		if strings.ContainsAny(lit.Value, "eE") {
			t = types.NewDouble()
			break
		}
		// Every digit written counts, leading zeros too (0.001 is DECIMAL(4, 3)), as Calcite
		// types a literal for Flink.
		intPart, frac, _ := strings.Cut(strings.TrimPrefix(lit.Value, "-"), ".")
		p := len(intPart) + len(frac)
		if p > 38 {
			return nil, fmt.Errorf("number %s has more than 38 digits", lit.Value)
		}
		t = types.NewDecimal(max(p, 1, len(frac)), len(frac))
	case parser.LitDate:
		t = types.NewDate()
	case parser.LitTime:
		t = types.NewTime(fractionDigits(lit.Value))
	case parser.LitTimestamp:
		t = types.NewTimestamp(fractionDigits(lit.Value))
	default:
		return nil, fmt.Errorf("literal %s cannot be used in an expression", lit)
	}
	v, err := convertLiteral("", t, lit, sess.Location)
	if err != nil {
		return nil, err
	}
	ev, err := engineValue(t, v)
	if err != nil {
		return nil, err
	}
	return &engine.Const{Value: ev, T: t.AsNotNull(), Text: lit.String()}, nil
}

// fractionDigits counts the digits after the seconds' point of a time text.
func fractionDigits(s string) int {
	if _, frac, ok := strings.Cut(s, "."); ok {
		return min(len(frac), 9)
	}
	return 0
}

// bindParam converts the argument of a placeholder to a constant of the
// type the expression gave it (STRING when nothing did).
func bindParam(bd *binder, p *engine.Param) (engine.Expr, error) {
	t := p.T
	if t.Kind == types.String && t.Length == -1 {
		t = types.NewString()
		if a, ok := bd.arg(&Param{Ordinal: p.Ordinal, Name: p.Name}); ok {
			switch a.Value.(type) {
			case int, int8, int16, int32, int64, uint8, uint16, uint32:
				t = types.NewBigInt()
			case float32, float64:
				t = types.NewDouble()
			case bool:
				t = types.NewBoolean()
			case []byte:
				t = types.NewBytes()
			case time.Time:
				t = types.NewTimestamp(9)
			}
		}
	}
	name := "placeholder " + p.String()
	if p.Name == "" {
		name = "placeholder ?" + strconv.Itoa(p.Ordinal)
	}
	v, err := bd.value(Value{Column: name, Type: t, Param: &Param{Ordinal: p.Ordinal, Name: p.Name}})
	if err != nil {
		return nil, err
	}
	ev, err := engineValue(t, v.Const)
	if err != nil {
		return nil, err
	}
	return &engine.Const{Value: ev, T: t.AsNullable(), Text: FormatValue(v.Const)}, nil
}
