package codec

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// DATE (datum.Date, days since the epoch) and TIME(p) (datum.Time, millis of the
// day) are int32s: varint32 in CompactedRow, 4 bytes LE in IndexedRow and
// BinaryArray. TIMESTAMP(p) (datum.TimestampNTZ) and TIMESTAMP_LTZ(p)
// (datum.TimestampLTZ) are millis plus, for p > 3, nano-of-milli: varint64
// (+ varint32) in CompactedRow, 8 (+ 4) bytes LE in IndexedRow; in a BinaryArray
// the 8-byte slot holds the millis (p <= 3) or (region offset << 32 | nano-of-milli)
// with the millis in an 8-byte region. Arrow follows Fluss's ArrowFieldWriters:
// TIME(p) millis become seconds (p 0, truncated), millis (p 1–3), micros (p 4–6) or
// nanos (p 7–9), TIMESTAMP(p) the same from millis + nano-of-milli.

func init() { register(date, timeCodec, timestampNTZ, timestampLTZ) }

// maxNanoOfMilli is the largest nanosecond-of-millisecond of a timestamp.
const maxNanoOfMilli = 1_000_000 - 1

// CheckNanoOfMilli rejects a nano-of-millisecond outside 0..999999.
func CheckNanoOfMilli(n int32) error {
	if n < 0 || n > maxNanoOfMilli {
		return fmt.Errorf("row: nano-of-millisecond %d out of range 0..999999", n)
	}
	return nil
}

// IsCompactTimestamp reports whether TIMESTAMP(p)/TIMESTAMP_LTZ(p) stores millis only.
func IsCompactTimestamp(precision int) bool { return precision <= 3 }

func checkPrecision(t *types.DataType, _ bool) error {
	if t.Precision < 0 || t.Precision > 9 {
		return fmt.Errorf("row: invalid %s", t)
	}
	return nil
}

var date = &Codec{
	Kind: types.Date, GoType: "datum.Date", Check: noParams,
	AppendCompacted: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(datum.Date)
		if !ok {
			return dst, TypeError(t, "datum.Date", v)
		}
		return AppendVarint32(dst, int32(x)), nil
	},
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		x, n, err := Varint32(b)
		if err != nil {
			return nil, 0, err
		}
		return datum.Date(x), n, nil
	},
	IndexedSize: fixedSize(4),
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(datum.Date)
		if !ok {
			return dst, TypeError(t, "datum.Date", v)
		}
		return le.AppendUint32(dst, uint32(x)), nil
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return datum.Date(int32(le.Uint32(b))), nil },
	ArraySlot:   4,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(datum.Date)
		if !ok {
			return dst, TypeError(t, "datum.Date", v)
		}
		le.PutUint32(dst[pos:], uint32(x))
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return datum.Date(int32(le.Uint32(a.B[pos:]))), a.Next, nil
	},
	Arrow: func(t types.DataType) (ArrowColumn, error) {
		return ArrowColumn{
			Check: fixedCheck[datum.Date](t, "datum.Date", 4),
			Put:   func(b array.Builder, v any) { b.(*array.Date32Builder).Append(arrow.Date32(v.(datum.Date))) },
			Get:   func(a arrow.Array, i int) any { return datum.Date(a.(*array.Date32).Value(i)) },
		}, nil
	},
	IndexedToArrow: func(bl array.Builder, _ *types.DataType, b []byte) error {
		bl.(*array.Date32Builder).Append(arrow.Date32(int32(le.Uint32(b))))
		return nil
	},
	// DATE statistics are int32 days.
	StatsCompute: func(a arrow.Array, t *types.DataType) (any, any, error) {
		arr, ok := a.(*array.Date32)
		if !ok {
			return nil, nil, wrongArray(a, t)
		}
		lo, hi := minMax(arr.Len(), arr.IsNull, func(i int) int32 { return int32(arr.Value(i)) }, cmp.Compare[int32])
		return lo, hi, nil
	},
	StatsPut: putInt32Stat,
	StatsGet: getInt32Stat,
	Partition: func(t *types.DataType, v any) (string, error) {
		d, ok := v.(datum.Date)
		if !ok {
			return "", badPartitionValue(t, "datum.Date", v)
		}
		y, m, day := d.Time().Date()
		return fmt.Sprintf("%04d-%02d-%02d", y, int(m), day), nil
	},
}

var timeCodec = &Codec{
	Kind: types.Time, GoType: "datum.Time", Check: checkPrecision,
	AppendCompacted: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(datum.Time)
		if !ok {
			return dst, TypeError(t, "datum.Time", v)
		}
		return AppendVarint32(dst, int32(x)), nil
	},
	ReadCompacted: func(b []byte, _ *types.DataType) (any, int, error) {
		x, n, err := Varint32(b)
		if err != nil {
			return nil, 0, err
		}
		return datum.Time(x), n, nil
	},
	IndexedSize: fixedSize(4),
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(datum.Time)
		if !ok {
			return dst, TypeError(t, "datum.Time", v)
		}
		return le.AppendUint32(dst, uint32(x)), nil
	},
	ReadIndexed: func(b []byte, _ *types.DataType) (any, error) { return datum.Time(int32(le.Uint32(b))), nil },
	ArraySlot:   4,
	AppendArray: func(dst []byte, _, pos int, t *types.DataType, v any) ([]byte, error) {
		x, ok := v.(datum.Time)
		if !ok {
			return dst, TypeError(t, "datum.Time", v)
		}
		le.PutUint32(dst[pos:], uint32(x))
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, _ *types.DataType) (any, int, error) {
		return datum.Time(int32(le.Uint32(a.B[pos:]))), a.Next, nil
	},
	Arrow: timeArrow,
	IndexedToArrow: func(bl array.Builder, t *types.DataType, b []byte) error {
		ms := int64(int32(le.Uint32(b)))
		switch bb := bl.(type) {
		case *array.Time32Builder:
			if t.Precision == 0 {
				bb.Append(arrow.Time32(ms / 1000))
			} else {
				bb.Append(arrow.Time32(ms))
			}
		case *array.Time64Builder:
			if t.Precision <= 6 {
				bb.Append(arrow.Time64(ms * 1000))
			} else {
				bb.Append(arrow.Time64(ms * 1_000_000))
			}
		}
		return nil
	},
	Partition: func(t *types.DataType, v any) (string, error) {
		x, ok := v.(datum.Time)
		if !ok {
			return "", badPartitionValue(t, "datum.Time", v)
		}
		return timeString(int64(x)), nil
	},
}

func timeArrow(t types.DataType) (ArrowColumn, error) {
	at, err := types.ArrowType(t)
	if err != nil {
		return ArrowColumn{}, err
	}
	cc := ArrowColumn{Check: fixedCheck[datum.Time](t, "datum.Time", 8)}
	switch at := at.(type) {
	case *arrow.Time32Type:
		if at.Unit == arrow.Second {
			cc.Put = func(b array.Builder, v any) {
				b.(*array.Time32Builder).Append(arrow.Time32(int32(v.(datum.Time)) / 1000))
			}
			cc.Get = func(a arrow.Array, i int) any { return datum.Time(int32(a.(*array.Time32).Value(i)) * 1000) }
		} else {
			cc.Put = func(b array.Builder, v any) { b.(*array.Time32Builder).Append(arrow.Time32(v.(datum.Time))) }
			cc.Get = func(a arrow.Array, i int) any { return datum.Time(a.(*array.Time32).Value(i)) }
		}
	case *arrow.Time64Type:
		mul := int64(1000)
		if at.Unit == arrow.Nanosecond {
			mul = 1_000_000
		}
		cc.Put = func(b array.Builder, v any) {
			b.(*array.Time64Builder).Append(arrow.Time64(int64(v.(datum.Time)) * mul))
		}
		cc.Get = func(a arrow.Array, i int) any { return datum.Time(floorDiv(int64(a.(*array.Time64).Value(i)), mul)) }
	}
	return cc, nil
}

var (
	timestampNTZ = newTimestampCodec(types.Timestamp)
	timestampLTZ = newTimestampCodec(types.TimestampLTZ)
)

// newTimestampCodec returns the codec of TIMESTAMP or TIMESTAMP_LTZ: the same
// encodings, different Go types.
func newTimestampCodec(kind types.Kind) *Codec {
	ltz := kind == types.TimestampLTZ
	goType := "datum.TimestampNTZ"
	if ltz {
		goType = "datum.TimestampLTZ"
	}
	split := func(t *types.DataType, v any) (ms int64, nano int32, err error) {
		if ltz {
			x, ok := v.(datum.TimestampLTZ)
			if !ok {
				return 0, 0, TypeError(t, goType, v)
			}
			return x.EpochMillis, x.NanoOfMilli, nil
		}
		x, ok := v.(datum.TimestampNTZ)
		if !ok {
			return 0, 0, TypeError(t, goType, v)
		}
		return x.Millis, x.NanoOfMilli, nil
	}
	join := func(ms int64, nano int32) any {
		if ltz {
			return datum.TimestampLTZ{EpochMillis: ms, NanoOfMilli: nano}
		}
		return datum.TimestampNTZ{Millis: ms, NanoOfMilli: nano}
	}
	return &Codec{
		Kind: kind, GoType: goType, Check: checkPrecision,
		AppendCompacted: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
			ms, nanos, err := split(t, v)
			if err != nil {
				return dst, err
			}
			if err := CheckNanoOfMilli(nanos); err != nil {
				return dst, err
			}
			dst = AppendVarint64(dst, ms)
			if !IsCompactTimestamp(t.Precision) {
				dst = AppendVarint32(dst, nanos)
			}
			return dst, nil
		},
		ReadCompacted: func(b []byte, t *types.DataType) (any, int, error) {
			ms, n, err := Varint64(b)
			if err != nil {
				return nil, 0, err
			}
			if IsCompactTimestamp(t.Precision) {
				return join(ms, 0), n, nil
			}
			nanos, m, err := Varint32(b[n:])
			if err != nil {
				return nil, 0, err
			}
			if err := CheckNanoOfMilli(nanos); err != nil {
				return nil, 0, err
			}
			return join(ms, nanos), n + m, nil
		},
		IndexedSize: func(t *types.DataType) int {
			if IsCompactTimestamp(t.Precision) {
				return 8
			}
			return 12
		},
		AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
			ms, nanos, err := split(t, v)
			if err != nil {
				return dst, err
			}
			if err := CheckNanoOfMilli(nanos); err != nil {
				return dst, err
			}
			dst = le.AppendUint64(dst, uint64(ms))
			if !IsCompactTimestamp(t.Precision) {
				dst = le.AppendUint32(dst, uint32(nanos))
			}
			return dst, nil
		},
		ReadIndexed: func(b []byte, t *types.DataType) (any, error) {
			ms := int64(le.Uint64(b))
			var nanos int32
			if !IsCompactTimestamp(t.Precision) {
				nanos = int32(le.Uint32(b[8:]))
				if err := CheckNanoOfMilli(nanos); err != nil {
					return nil, err
				}
			}
			return join(ms, nanos), nil
		},
		ArraySlot: 8,
		AppendArray: func(dst []byte, base, pos int, t *types.DataType, v any) ([]byte, error) {
			ms, nanos, err := split(t, v)
			if err != nil {
				return dst, err
			}
			if err := CheckNanoOfMilli(nanos); err != nil {
				return dst, err
			}
			if IsCompactTimestamp(t.Precision) {
				le.PutUint64(dst[pos:], uint64(ms))
				return dst, nil
			}
			off := len(dst) - base
			dst = le.AppendUint64(dst, uint64(ms))
			le.PutUint64(dst[pos:], uint64(off)<<32|uint64(uint32(nanos)))
			return dst, nil
		},
		ReadArray: func(a ArrayReader, pos int, t *types.DataType) (any, int, error) {
			v := a.U64(pos)
			millis, nanos := int64(v), int32(0)
			if !IsCompactTimestamp(t.Precision) {
				raw, err := a.Region(int64(v>>32), 8)
				if err != nil {
					return nil, 0, err
				}
				millis, nanos = int64(le.Uint64(raw)), int32(uint32(v))
				if err := CheckNanoOfMilli(nanos); err != nil {
					return nil, 0, err
				}
			}
			return join(millis, nanos), a.Next, nil
		},
		Arrow: func(t types.DataType) (ArrowColumn, error) { return timestampArrow(t, goType, split, join) },
		IndexedToArrow: func(bl array.Builder, t *types.DataType, v []byte) error {
			ms := int64(le.Uint64(v))
			var nanos int64
			if len(v) >= 12 {
				nanos = int64(int32(le.Uint32(v[8:])))
			}
			var ts int64
			switch p := t.Precision; {
			case p == 0:
				ts = ms / 1000
			case p <= 3:
				ts = ms
			case p <= 6:
				ts = ms*1000 + nanos/1000
			default:
				ts = ms*1_000_000 + nanos
			}
			bl.(*array.TimestampBuilder).Append(arrow.Timestamp(ts))
			return nil
		},
		Partition: func(t *types.DataType, v any) (string, error) {
			ms, nanos, err := split(t, v)
			if err != nil {
				return "", badPartitionValue(t, goType, v)
			}
			return timestampString(ms, nanos), nil
		},
	}
}

// timestampArrow converts TIMESTAMP and TIMESTAMP_LTZ columns; both are zone-less
// Arrow timestamps.
func timestampArrow(t types.DataType, goType string, split func(*types.DataType, any) (int64, int32, error),
	join func(int64, int32) any) (ArrowColumn, error) {
	at, err := types.ArrowType(t)
	if err != nil {
		return ArrowColumn{}, err
	}
	unit := at.(*arrow.TimestampType).Unit
	return ArrowColumn{
		Check: func(v any) (int, error) {
			_, nano, err := split(&t, v)
			if err != nil {
				return 0, badArrowValue(t, goType, v)
			}
			if nano < 0 || nano > maxNanoOfMilli {
				return 0, fmt.Errorf("nano-of-millisecond %d out of range 0..999999", nano)
			}
			return 8, nil
		},
		Put: func(b array.Builder, v any) {
			ms, nano, _ := split(&t, v)
			var x int64
			switch unit { // as Fluss's ArrowTimestamp{Ntz,Ltz}Writer
			case arrow.Second:
				x = ms / 1000
			case arrow.Millisecond:
				x = ms
			case arrow.Microsecond:
				x = ms*1000 + int64(nano)/1000
			default:
				x = ms*1_000_000 + int64(nano)
			}
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(x))
		},
		Get: func(a arrow.Array, i int) any {
			x := int64(a.(*array.Timestamp).Value(i))
			switch unit {
			case arrow.Second:
				return join(x*1000, 0)
			case arrow.Millisecond:
				return join(x, 0)
			case arrow.Microsecond:
				return join(floorDiv(x, 1000), int32(floorMod(x, 1000)*1000))
			default:
				return join(floorDiv(x, 1_000_000), int32(floorMod(x, 1_000_000)))
			}
		},
	}, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// timeString is PartitionNameConverters.milliToString.
func timeString(ms int64) string {
	const hour, minute, second = 3600000, 60000, 1000
	h := floorDiv(ms, hour)
	m := floorDiv(floorMod(ms, hour), minute)
	s := floorDiv(floorMod(floorMod(ms, hour), minute), second)
	return fmt.Sprintf("%02d-%02d-%02d_%03d", h, m, s, floorMod(ms, second))
}

// timestampString is PartitionNameConverters.timestampToString: pattern
// yyyy-MM-dd-HH-mm-ss_ plus the nano-of-second fraction with trailing zeros removed.
func timestampString(millis int64, nanoOfMilli int32) string {
	t := time.UnixMilli(millis).Add(time.Duration(nanoOfMilli)).UTC()
	y := t.Year()
	yoe := y // "yyyy" is the year of era: 1 BC is 1, 2 BC is 2, …
	if y <= 0 {
		yoe = 1 - y
	}
	year := fmt.Sprintf("%04d", yoe)
	if yoe > 9999 {
		year = "+" + year // EXCEEDS_PAD sign style
	}
	frac := ""
	if ns := t.Nanosecond(); ns != 0 {
		frac = strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	}
	return fmt.Sprintf("%s-%02d-%02d-%02d-%02d-%02d_%s", year, int(t.Month()), t.Day(),
		t.Hour(), t.Minute(), t.Second(), frac)
}
