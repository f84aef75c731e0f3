package fluss_test

import (
	"encoding/binary"
	"math"
	"math/bits"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
)

// interopKeys is the number of keys of the 100,000-key cross checks
// (FLUSSQL_INTEROP_KEYS overrides; -short uses 10,000).
func interopKeys(t *testing.T) int {
	if v := os.Getenv("FLUSSQL_INTEROP_KEYS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		return n
	}
	if testing.Short() {
		return 10_000
	}
	return 100_000
}

// wideIDBase is the first id whose INT key encoding takes 4 bytes (ids up
// to 2^28-1 do): such keys have no tail bytes for the bucket hash, where
// pyfluss hashes differently from Java (see TestInteropBucketingOfPyfluss).
const wideIDBase = 1 << 21

// TestInterop100kKeysBothWays: keys upserted by pyfluss are all found by
// flussql lookups and keys upserted by flussql are all found by pyfluss
// lookups, with the values written, in a 16-bucket table.
func TestInterop100kKeysBothWays(t *testing.T) {
	n := interopKeys(t)
	c := connect(t)
	ctx := testCtx(t)

	t.Run("pyfluss writes, flussql reads", func(t *testing.T) {
		path := createUsersTable(t, c, 16)
		var w struct{ Written int }
		runPyKV(t, &w, "upsert", "--db", path.Database, "--table", path.Table,
			"--start", strconv.Itoa(wideIDBase), "--count", strconv.Itoa(n), "--prefix", "py")
		require.Equal(t, n, w.Written)
		l := newLookuper(t, c, path)
		keys := make([][]any, n)
		for i := range keys {
			keys[i] = []any{int32(wideIDBase + i)}
		}
		rows, err := l.LookupMany(ctx, keys)
		require.NoError(t, err)
		found := 0
		for i, r := range rows {
			if r != nil {
				found++
				require.Equal(t, userRow(wideIDBase+i, "py"), r)
			}
		}
		require.Equal(t, n, found, "flussql found %d of %d rows written by pyfluss", found, n)
	})

	t.Run("flussql writes, pyfluss reads", func(t *testing.T) {
		path := createUsersTable(t, c, 16)
		w := newUpsertWriter(t, openTable(t, c, path), fluss.UpsertWriterOptions{})
		for i := range n {
			require.NoError(t, w.Upsert(ctx, userRow(wideIDBase+i, "go")))
		}
		require.NoError(t, w.Flush(ctx))
		var res pyLookupResult
		runPyKV(t, &res, "lookup", "--db", path.Database, "--table", path.Table,
			"--start", strconv.Itoa(wideIDBase), "--count", strconv.Itoa(n), "--prefix", "go")
		require.Equal(t, n, res.Checked)
		require.Zero(t, res.WrongCount, "rows with wrong values: %v", res.Wrong)
		require.Equal(t, n, res.Found, "pyfluss found %d of %d rows written by flussql; missing e.g. %v", res.Found, n, res.Missing)
	})
}

// TestInteropBucketingOfPyfluss writes small ids (1- to 3-byte keys, whose
// trailing bytes are hashed one by one) with pyfluss into 16 buckets, finds
// in which bucket each row landed with LimitScan, and checks that flussql's
// lookups find exactly the rows stored in the bucket Java's hash names.
// pyfluss 1.0.0 zero-extends those tail bytes where Java sign-extends them,
// so rows of keys with a tail byte >= 0x80 land elsewhere, where no Java or
// flussql lookup looks; the reverse direction shows the same split.
func TestInteropBucketingOfPyfluss(t *testing.T) {
	const n, buckets = 3000, 16
	c := connect(t)
	ctx := testCtx(t)
	path := createUsersTable(t, c, buckets)
	tb := openTable(t, c, path)
	var w struct{ Written int }
	runPyKV(t, &w, "upsert", "--db", path.Database, "--table", path.Table, "--start", "0", "--count", strconv.Itoa(n))

	stored := map[int]int{} // id -> bucket holding it
	require.Eventually(t, func() bool {
		clear(stored)
		for b := range int32(buckets) {
			rows, err := tb.LimitScan(ctx, "", b, 10*n)
			if err != nil {
				return false
			}
			for _, r := range rows {
				stored[int(r[0].(int32))] = int(b)
			}
		}
		return len(stored) == n
	}, 20*time.Second, 100*time.Millisecond)

	keys := make([][]any, n)
	for i := range keys {
		keys[i] = []any{int32(i)}
	}
	rows, err := newLookuper(t, c, path).LookupMany(ctx, keys)
	require.NoError(t, err)
	misrouted := 0
	for id, r := range rows {
		key := intKey(int32(id))
		java, zero := javaBucket(key, buckets), zeroExtendedBucket(key, buckets)
		require.Contains(t, []int{java, zero}, stored[id], "id %d stored in bucket %d: neither Java's %d nor zero-extended %d", id, stored[id], java, zero)
		if stored[id] == java {
			require.Equal(t, userRow(id, "name"), r, "id %d is in its Java bucket: lookup must find it", id)
		} else {
			require.Nil(t, r)
			misrouted++
		}
	}
	t.Logf("pyfluss stored %d of %d rows outside the bucket Java's hash assigns", misrouted, n)

	// flussql writes to Java's buckets: pyfluss lookups miss exactly the
	// keys whose zero-extended bucket differs.
	path2 := createUsersTable(t, c, buckets)
	gw := newUpsertWriter(t, openTable(t, c, path2), fluss.UpsertWriterOptions{})
	diverging := map[int]bool{}
	for id := range n {
		require.NoError(t, gw.Upsert(ctx, userRow(id, "go")))
		key := intKey(int32(id))
		if javaBucket(key, buckets) != zeroExtendedBucket(key, buckets) {
			diverging[id] = true
		}
	}
	require.NoError(t, gw.Flush(ctx))
	var res pyLookupResult
	runPyKV(t, &res, "lookup", "--db", path2.Database, "--table", path2.Table, "--start", "0",
		"--count", strconv.Itoa(n), "--prefix", "go", "--max-listed", strconv.Itoa(n))
	require.Zero(t, res.WrongCount)
	for _, id := range res.Missing {
		assert.True(t, diverging[id], "pyfluss missed id %d, whose bucket does not depend on the tail-byte extension", id)
	}
	t.Logf("pyfluss lookups missed %d of %d rows written by flussql (%d keys hash differently)", res.MissingCount, n, len(diverging))
}

// intKey is the key encoding of an INT primary key: unsigned LEB128 of
// the 32-bit value.
func intKey(v int32) []byte { return binary.AppendUvarint(nil, uint64(uint32(v))) }

// javaBucket and zeroExtendedBucket are Fluss's bucket function with the
// tail bytes sign-extended (Java) or zero-extended (pyfluss 1.0.0).
func javaBucket(key []byte, n int) int { return flussBucket(key, n, true) }

func zeroExtendedBucket(key []byte, n int) int { return flussBucket(key, n, false) }

func flussBucket(key []byte, n int, signExtend bool) int {
	mix := func(h, k uint32) uint32 {
		k *= 0xcc9e2d51
		k = bits.RotateLeft32(k, 15) * 0x1b873593
		return bits.RotateLeft32(h^k, 13)*5 + 0xe6546b64
	}
	fmix := func(h uint32) uint32 {
		h ^= h >> 16
		h *= 0x85ebca6b
		h ^= h >> 13
		h *= 0xc2b2ae35
		return h ^ h>>16
	}
	h := uint32(42)
	full := len(key) - len(key)%4
	for i := 0; i < full; i += 4 {
		h = mix(h, binary.LittleEndian.Uint32(key[i:]))
	}
	for _, b := range key[full:] {
		if signExtend {
			h = mix(h, uint32(int32(int8(b))))
		} else {
			h = mix(h, uint32(b))
		}
	}
	code := int32(fmix(mix(0, fmix(h^uint32(len(key)))) ^ 4))
	switch {
	case code == math.MinInt32:
		code = 0
	case code < 0:
		code = -code
	}
	return int(code) % n
}
