package flussgorm

import (
	"fmt"

	"gorm.io/gorm/schema"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// DataTypeOf names the Fluss type of a model field (without NOT NULL):
//
//	bool                              BOOLEAN
//	int8                              TINYINT
//	int16, uint8                      SMALLINT
//	int32, uint16                     INT
//	int, int64, uint32, uint, uint64  BIGINT (uint and uint64 above math.MaxInt64 cannot be written)
//	float32                           FLOAT
//	float64                           DOUBLE
//	string                            STRING (gorm's size is not enforced: Fluss has no VARCHAR(n))
//	[]byte                            BYTES
//	time.Time                         TIMESTAMP_LTZ(p), p from gorm's precision tag, 6 without one
//
// sql.Null* and pointer fields map as their value type, nullable. A `gorm:"type:…"` tag is used
// as written (any Flink SQL type flussql reads: DECIMAL(10, 2), DATE, CHAR(3), ARRAY<INT>, …).
func (d *Dialector) DataTypeOf(f *schema.Field) string {
	switch f.DataType {
	case schema.Bool:
		return "BOOLEAN"
	case schema.Int:
		return intType(f.Size)
	case schema.Uint:
		// One size up: an unsigned value needs a bit more than the signed type of its size.
		return intType(f.Size * 2)
	case schema.Float:
		if f.Size <= 32 {
			return "FLOAT"
		}
		return "DOUBLE"
	case schema.String:
		return "STRING"
	case schema.Time:
		p := 6
		if f.Precision > 0 && f.Precision <= 9 {
			p = f.Precision
		}
		return fmt.Sprintf("TIMESTAMP_LTZ(%d)", p)
	case schema.Bytes:
		return "BYTES"
	}
	return string(f.DataType)
}

// intType is the smallest Fluss integer type of at least bits bits.
func intType(bits int) string {
	switch {
	case bits <= 8:
		return "TINYINT"
	case bits <= 16:
		return "SMALLINT"
	case bits <= 32:
		return "INT"
	default:
		return "BIGINT"
	}
}

// parseType reads a type as flussql's CREATE TABLE does, so that a `type:` tag's mistake is an
// error naming the field before anything is sent, and types compare after normalisation
// (INTEGER is INT, VARCHAR(10) is STRING).
func parseType(field, typ string) (types.DataType, error) {
	st, err := parser.Parse("CREATE TABLE t (c " + typ + ")")
	if err == nil {
		if ct, ok := st.(*parser.CreateTable); ok && len(ct.Columns) == 1 {
			return ct.Columns[0].Type, nil
		}
		err = fmt.Errorf("not one column type")
	}
	return types.DataType{}, fmt.Errorf("flussgorm: field %s: type %q is not a Fluss type (%v); use a Flink SQL type such as STRING, BIGINT, DECIMAL(10, 2), TIMESTAMP_LTZ(6)", field, typ, err)
}

// fieldType is the Fluss type of a field, NOT NULL for primary-key and `not null` fields.
func (d *Dialector) fieldType(f *schema.Field) (types.DataType, error) {
	t, err := parseType(f.Name, d.DataTypeOf(f))
	if err != nil {
		return t, err
	}
	if f.PrimaryKey || f.NotNull {
		t = t.AsNotNull()
	}
	return t, nil
}
