package flussql

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBoundErrShortensQuotedInput(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	tests := []struct {
		name      string
		err       error
		keep      []string // parts that must survive
		maxLen    int
		unchanged bool
	}{
		{name: "short error unchanged", err: errors.New(`table "db.t" does not exist`), unchanged: true},
		{name: "long text without long quotes unchanged below the cap",
			err: errors.New(strings.Repeat("word ", 500)), unchanged: true},
		{name: "1 MB identifier in double quotes",
			err:  fmt.Errorf(`flussql: permission denied: user alice may not READ table "db.%s"; grant it with CREATE ACL`, long),
			keep: []string{"flussql: permission denied: user alice may not READ table \"db.xxx", "bytes left out", "xxx\"; grant it with CREATE ACL"}, maxLen: 600},
		{name: "backquoted and single-quoted values",
			err:  fmt.Errorf("column `%s` cannot hold '%s'", long, long),
			keep: []string{"column `xxx", "xxx` cannot hold 'xxx", "xxx'"}, maxLen: 1000},
		{name: "escaped quote inside %q",
			err:  fmt.Errorf("bad value %q here", `a"b`+long),
			keep: []string{`bad value "a\"bxxx`, `xxx" here`}, maxLen: 600},
		{name: "an unclosed quote is capped as text", err: errors.New(`value "` + long),
			keep: []string{`value "xxx`}, maxLen: maxErrorText + 64},
		{name: "multi-byte runes are cut on their boundaries", err: fmt.Errorf("name %q", strings.Repeat("é", 1<<16)),
			keep: []string{`name "éé`, `éé"`}, maxLen: 600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := boundErr(tt.err)
			if tt.unchanged {
				assert.Same(t, tt.err, got)
				return
			}
			require.Error(t, got)
			assert.ErrorIs(t, got, tt.err, "the original stays reachable")
			msg := got.Error()
			assert.LessOrEqual(t, len(msg), tt.maxLen)
			assert.True(t, strings.ToValidUTF8(msg, "?") == msg, "valid UTF-8")
			for _, k := range tt.keep {
				assert.Contains(t, msg, k)
			}
		})
	}
	assert.NoError(t, boundErr(nil))
	wrapped := boundErr(fmt.Errorf("open %q: %w", long, fs.ErrNotExist))
	assert.ErrorIs(t, wrapped, fs.ErrNotExist, "sentinels below still match")
}
