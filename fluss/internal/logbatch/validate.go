package logbatch

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// validateRecord checks that every column of rec is consistent with its
// buffers (lengths, offsets, children), for the Arrow types Fluss uses. The
// IPC reader builds arrays from untrusted sizes without such checks, and an
// inconsistent array panics (or reads out of bounds) only when used.
func validateRecord(rec arrow.RecordBatch) error {
	for i, col := range rec.Columns() {
		if int64(col.Len()) != rec.NumRows() {
			return errCorruptf("column %d has %d rows, record %d", i, col.Len(), rec.NumRows())
		}
		if err := validateData(col.Data(), 0); err != nil {
			return fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
	}
	return nil
}

const maxValidateDepth = 64

func validateData(d arrow.ArrayData, depth int) error {
	if depth > maxValidateDepth {
		return errCorruptf("nesting deeper than %d", maxValidateDepth)
	}
	n, off := d.Len(), d.Offset()
	if n < 0 || off < 0 {
		return errCorruptf("negative length or offset")
	}
	end := off + n
	bufs := d.Buffers()
	bufLen := func(i int) int {
		if i >= len(bufs) || bufs[i] == nil {
			return 0
		}
		return bufs[i].Len()
	}
	if d.NullN() > n {
		return errCorruptf("null count %d exceeds length %d", d.NullN(), n)
	}
	if d.NullN() > 0 && bufLen(0) < (end+7)/8 {
		return errCorruptf("validity bitmap of %d bytes for %d values", bufLen(0), end)
	}
	switch dt := d.DataType().(type) {
	case *arrow.BooleanType:
		if bufLen(1) < (end+7)/8 {
			return errCorruptf("boolean bitmap of %d bytes for %d values", bufLen(1), end)
		}
	case arrow.FixedWidthDataType:
		w := dt.BitWidth() / 8
		if bufLen(1) < end*w {
			return errCorruptf("%s data of %d bytes for %d values", dt, bufLen(1), end)
		}
	case *arrow.StringType, *arrow.BinaryType:
		last, err := checkOffsets(bufs, off, n)
		if err != nil {
			return err
		}
		if last > bufLen(2) {
			return errCorruptf("offsets end at %d past %d data bytes", last, bufLen(2))
		}
	case *arrow.ListType, *arrow.MapType:
		last, err := checkOffsets(bufs, off, n)
		if err != nil {
			return err
		}
		ch := d.Children()
		if len(ch) != 1 {
			return errCorruptf("list with %d children", len(ch))
		}
		if last > ch[0].Len() {
			return errCorruptf("list offsets end at %d past %d child values", last, ch[0].Len())
		}
		return validateData(ch[0], depth+1)
	case *arrow.StructType:
		ch := d.Children()
		if len(ch) != dt.NumFields() {
			return errCorruptf("struct with %d children, type has %d", len(ch), dt.NumFields())
		}
		for _, c := range ch {
			if c.Len() < end {
				return errCorruptf("struct child of %d values for %d rows", c.Len(), end)
			}
			if err := validateData(c, depth+1); err != nil {
				return err
			}
		}
	default:
		return errCorruptf("unexpected arrow type %s", dt)
	}
	return nil
}

// checkOffsets checks the int32 offsets buffer (buffer 1) for n values from
// off: long enough, starting at >= 0, non-decreasing. It returns the last offset.
func checkOffsets(bufs []*memory.Buffer, off, n int) (int, error) {
	if n == 0 {
		return 0, nil
	}
	if len(bufs) < 2 || bufs[1] == nil || bufs[1].Len() < (off+n+1)*4 {
		return 0, errCorruptf("offsets buffer too short for %d values", off+n)
	}
	b := bufs[1].Bytes()[off*4 : (off+n+1)*4]
	prev := int32(binary.LittleEndian.Uint32(b))
	if prev < 0 {
		return 0, errCorruptf("negative offset %d", prev)
	}
	for i := 4; i < len(b); i += 4 {
		v := int32(binary.LittleEndian.Uint32(b[i:]))
		if v < prev {
			return 0, errCorruptf("offsets decrease (%d after %d)", v, prev)
		}
		prev = v
	}
	return int(prev), nil
}
