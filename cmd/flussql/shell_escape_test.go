package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShellEscape(t *testing.T) {
	code, out := runFake(t, "\\! echo one; echo two >&2\n\\! exit 4\n\\set x from-var\n\\! echo :x\n")
	assert.Equal(t, exitOK, code, "a failing command is no error of the session")
	assert.Contains(t, out, "one\n")
	assert.Contains(t, out, "two\n")
	assert.Contains(t, out, "\\!: the command exited with status 4\n")
	assert.Contains(t, out, "from-var\n")
}
