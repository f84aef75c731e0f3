package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJobsCommandListsFlinkJobs(t *testing.T) {
	runFake(t, `\jobs`+"\n")
	assert.Equal(t, []string{"SHOW JOBS"}, fakeStatements(), `\jobs runs SHOW JOBS`)

	code, out := runFake(t, `\jobs now`+"\n")
	assert.Equal(t, exitError, code, out)
	assert.Contains(t, out, `\jobs takes no argument`)
	assert.Empty(t, fakeStatements())
}
