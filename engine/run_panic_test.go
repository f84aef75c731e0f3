package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// panicking is an operator whose Next panics, as an arrow-go kernel can.
type panicking struct{ closed bool }

func (p *panicking) Next() (arrow.RecordBatch, error) { panic("index out of range [1] with length 1") }
func (p *panicking) Close()                           { p.closed = true }

// TestPanicIsAnError: a panic while evaluating a query is the query's error (ErrInternal,
// again on every later Next), not a crash of the program, and the tree still closes.
func TestPanicIsAnError(t *testing.T) {
	in := &panicking{}
	op, err := Build(context.Background(), &Input{Cols: testCols}, in, Options{})
	require.NoError(t, err)
	_, err = op.Next()
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrInternal))
	assert.ErrorContains(t, err, "index out of range [1] with length 1")
	_, again := op.Next()
	assert.Equal(t, err, again)
	op.Close()
	assert.True(t, in.closed)
}
