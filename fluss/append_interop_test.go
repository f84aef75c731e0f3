package fluss_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// neutral renders a value-model value in the JSON form of
// testdata/interop/pyfluss_log.py.
func neutral(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 64)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case datum.Decimal:
		return x.String()
	case []byte:
		return hex.EncodeToString(x)
	case datum.Date:
		return int64(x)
	case datum.Time:
		return int64(x)
	case datum.TimestampNTZ:
		return []any{x.Millis, int64(x.NanoOfMilli)}
	case datum.TimestampLTZ:
		return []any{x.EpochMillis, int64(x.NanoOfMilli)}
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	}
	return v
}

// normalize makes JSON-decoded neutral values comparable with neutral():
// numbers become int64, float strings are re-read.
func normalize(v any, t types.DataType) any {
	switch x := v.(type) {
	case nil:
		return nil
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			return x.String()
		}
		return n
	case string:
		if t.Kind == types.Float || t.Kind == types.Double {
			f, err := strconv.ParseFloat(x, 64)
			if err == nil {
				return strconv.FormatFloat(f, 'g', -1, 64)
			}
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalize(x[i], t)
		}
		return out
	}
	return v
}

func runPyLog(t *testing.T, args ...string) []byte {
	t.Helper()
	return runPython(t, "pyfluss_log.py", args...)
}

// TestAppendInteropPyfluss checks the whole type matrix both ways with the
// official Python client, for every ARROW compression: rows written by our
// writer read by pyfluss, and rows written by pyfluss read by our scanner.
func TestAppendInteropPyfluss(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	const rows = 90
	cols := matrixColumns()
	want := make([][]any, rows)
	for i := range want {
		r := matrixRow(i)
		want[i] = make([]any, len(r))
		for j, v := range r {
			want[i][j] = neutral(v)
		}
	}
	for _, comp := range []string{"NONE", "LZ4_FRAME", "ZSTD"} {
		t.Run(comp, func(t *testing.T) {
			desc := fluss.TableDescriptor{Schema: types.Schema{Columns: cols}, BucketCount: 2,
				Properties: map[string]string{fluss.PropArrowCompression: comp}}

			// Go writes, pyfluss reads.
			name := "go_to_py_" + strings.ToLower(comp)
			tbl := createLogTable(t, c, db, name, desc)
			ctx := testCtx(t)
			w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
			require.NoError(t, err)
			for i := 0; i < rows; i++ {
				require.NoError(t, w.Append(ctx, matrixRow(i)))
			}
			flushClose(t, w)
			dec := json.NewDecoder(strings.NewReader(string(runPyLog(t, "read", db, name))))
			dec.UseNumber()
			var got [][]any
			require.NoError(t, dec.Decode(&got))
			require.Len(t, got, rows)
			for _, r := range got {
				for j := range r {
					r[j] = normalize(r[j], cols[j].Type)
				}
			}
			sort.Slice(got, func(i, j int) bool { return got[i][0].(int64) < got[j][0].(int64) })
			for i := range got {
				require.Equal(t, want[i], got[i], "row %d read by pyfluss", i)
			}

			// pyfluss writes, Go reads.
			name = "py_to_go_" + strings.ToLower(comp)
			tbl = createLogTable(t, c, db, name, desc)
			js, err := json.Marshal(want)
			require.NoError(t, err)
			file := filepath.Join(t.TempDir(), "rows.json")
			require.NoError(t, os.WriteFile(file, js, 0o600))
			runPyLog(t, "write", db, name, file)
			back := readAll(t, c, tbl, nil)
			require.Len(t, back, rows)
			sortByID(back)
			for i, r := range back {
				require.Equal(t, matrixRow(i), r.values, "row %d written by pyfluss", i)
			}
		})
	}
}
