package flusslake

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPaimonPartition(t *testing.T) {
	// _PARTITION of a manifest entry Fluss's tiering service wrote for partition 'eu' of a
	// table partitioned by a STRING column: field count 1, an 8-byte null bit set, then
	// the 2 bytes inline with 0x80|2 in the slot's last byte.
	eu, err := hex.DecodeString("0000000100000000000000006575000000000082")
	require.NoError(t, err)

	// Two keys, the second a string of 10 bytes stored after the fixed part.
	long := make([]byte, 4+8+16+16)
	binary.BigEndian.PutUint32(long, 2)
	row := long[4:]
	binary.LittleEndian.PutUint32(row[8:], uint32(2026))
	binary.LittleEndian.PutUint64(row[16:], uint64(24)<<32|10)
	copy(row[24:], "north-west")

	nullRow := make([]byte, 4+8+8)
	binary.BigEndian.PutUint32(nullRow, 1)
	nullRow[4+1] = 1 // field 0's null bit: bit 8

	for _, tc := range []struct {
		name  string
		in    []byte
		types []string
		want  []string
		err   string
	}{
		{"unpartitioned", make([]byte, 12), nil, nil, ""},
		{"short string", eu, []string{"STRING"}, []string{"eu"}, ""},
		{"int and long string", long, []string{"INT NOT NULL", "VARCHAR(20)"}, []string{"2026", "north-west"}, ""},
		{"null", nullRow, []string{"STRING"}, []string{"__DEFAULT_PARTITION__"}, ""},
		{"arity mismatch", eu, []string{"STRING", "STRING"}, nil, "2 are expected"},
		{"truncated", eu[:10], []string{"STRING"}, nil, "holds no 1 values"},
		{"unsupported type", eu, []string{"DECIMAL(10, 2)"}, nil, "does not decode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := paimonPartition(tc.in, tc.types)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPaimonPartitionPath(t *testing.T) {
	assert.Equal(t, "", paimonPartitionPath(nil, nil))
	assert.Equal(t, "region=eu/", paimonPartitionPath([]string{"region"}, []string{"eu"}))
	assert.Equal(t, "d=2026-01-01/h=a%2Fb%3Dc/", paimonPartitionPath([]string{"d", "h"}, []string{"2026-01-01", "a/b=c"}))
}
