package flinkgw

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadyWaitsForColumnsAndKeepsRows(t *testing.T) {
	pollMin, pollMax = time.Millisecond, 2*time.Millisecond
	notReady := `{"resultType":"NOT_READY","nextResultUri":"/v2/sessions/s1/operations/o1/result/1?rowFormat=PLAIN_TEXT"}`
	tests := []struct {
		name  string
		pages []string
		want  [][]string
	}{
		{"columns on an empty page, rows later", []string{notReady, payload(1, ``), payload(2, `{"kind":"UPDATE_AFTER","fields":["1.00","a"]}`), eos(``)},
			[][]string{{"1.00", "a"}}},
		{"columns with the first rows", []string{notReady, payload(1, `{"kind":"INSERT","fields":["2.00","b"]}`), eos(`{"kind":"DELETE","fields":["2.00","b"]}`)},
			[][]string{{"2.00", "b"}, {"2.00", "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := open(t, &fakeGateway{pages: tt.pages})
			op, err := s.Execute(context.Background(), "SELECT d, s FROM t", nil)
			require.NoError(t, err)
			require.NoError(t, op.Ready(context.Background()))
			require.Len(t, op.Columns, 2, "the columns are known once Ready returns")
			require.NoError(t, op.Ready(context.Background()), "Ready again is a no-op")
			rows, err := op.All(context.Background())
			require.NoError(t, err)
			var got [][]string
			for _, r := range rows {
				got = append(got, r.Strings("NULL"))
			}
			assert.Equal(t, tt.want, got, "no row fetched by Ready is lost")
			_, err = op.Next(context.Background())
			assert.Equal(t, io.EOF, err)
		})
	}
}

func TestReadyHonoursContext(t *testing.T) {
	pollMin, pollMax = time.Millisecond, 2*time.Millisecond
	s, _ := open(t, &fakeGateway{pages: []string{""}}) // never ready
	op, err := s.Execute(context.Background(), "SELECT 1", nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, op.Ready(ctx), context.DeadlineExceeded)
}
