package fluss

import (
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// FuzzKvScanResponse feeds arbitrary bytes as a SCAN_KV answer through the session state
// machine and the record decoder: they fail with an error or give rows of the table's
// width, never panic, and a session that failed sends nothing but a close.
func FuzzKvScanResponse(f *testing.F) {
	seed := func(r *protocol.ScanKvResponse) {
		b, err := proto.Marshal(r)
		require.NoError(f, err)
		f.Add(b, true)
		f.Add(b, false)
	}
	seed(kvAnswer("id", true, valueBatch(f, 1, []any{int32(1), "EU", int64(10)})))
	seed(kvAnswer("", false, valueBatch(f, 1, []any{int32(2), "US", nil}, []any{int32(3), "EU", int64(-1)})))
	seed(kvErrorAnswer(flusserr.ScannerExpired))
	f.Fuzz(func(t *testing.T, data []byte, opened bool) {
		var resp protocol.ScanKvResponse
		if proto.Unmarshal(data, &resp) != nil {
			return
		}
		s := newKvSession(1, nil, 0, 100, 0)
		if opened {
			_, err := s.handle(kvAnswer("id", true, nil))
			require.NoError(t, err)
		}
		recs, err := s.handle(&resp)
		if err != nil {
			require.NotEqual(t, kvOpen, s.state)
			return
		}
		if s.state == kvOpen {
			require.NotEmpty(t, s.request().GetScannerId())
		}
		rows, err := kvScannerOffline(t, []int{2, 0}).decode(recs)
		if err != nil {
			return
		}
		for _, r := range rows {
			require.Len(t, r, 2)
		}
	})
}
