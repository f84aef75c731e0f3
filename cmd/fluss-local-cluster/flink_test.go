package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFlinkDownWithoutState(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "flink.json")
	assert.NoError(t, flinkDown(missing, false), "cluster-down without a Flink beside it")
	assert.ErrorContains(t, flinkDown(missing, true), "no Flink was started")
}
