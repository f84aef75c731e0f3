package fluss

import (
	"errors"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/logbatch"
)

func TestArrowEncoderPoolKeepsEncoders(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	made := 0
	p := newArrowEncoderPool(func() (*logbatch.ArrowEncoder, error) {
		made++
		return logbatch.NewArrowEncoder(schema, logbatch.CompressionZstd)
	})
	e, err := p.get()
	require.NoError(t, err)
	p.put(e)
	runtime.GC() // a sync.Pool would drop it over two collections
	runtime.GC()
	again, err := p.get()
	require.NoError(t, err)
	assert.Same(t, e, again, "the encoder is kept between batches")

	limit := 2 * runtime.GOMAXPROCS(0)
	var out []*logbatch.ArrowEncoder
	for range limit + 3 {
		e, err := p.get()
		require.NoError(t, err)
		out = append(out, e)
	}
	for _, e := range out {
		p.put(e)
	}
	assert.Len(t, p.free, limit, "at most two free encoders per CPU are kept")
	assert.Equal(t, 1+limit+3, made, "the first encoder, then one per get while none is free")
}

func TestArrowEncoderPoolPassesErrors(t *testing.T) {
	boom := errors.New("boom")
	p := newArrowEncoderPool(func() (*logbatch.ArrowEncoder, error) { return nil, boom })
	_, err := p.get()
	assert.ErrorIs(t, err, boom)
}
