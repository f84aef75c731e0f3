package flusserr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// constant is a Code constant as codes.go declares it.
type constant struct {
	name string // Go name
	doc  string // doc comment, on one line
}

// constants parses codes.go and returns every Code constant by value.
func constants(t *testing.T) map[Code]constant {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, parser.ParseComments)
	require.NoError(t, err)
	out := map[Code]constant{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			lit := vs.Values[0]
			neg := false
			if u, ok := lit.(*ast.UnaryExpr); ok {
				neg, lit = u.Op == token.SUB, u.X
			}
			n, err := strconv.Atoi(lit.(*ast.BasicLit).Value)
			require.NoError(t, err)
			if neg {
				n = -n
			}
			out[Code(n)] = constant{vs.Names[0].Name, strings.Join(strings.Fields(vs.Doc.Text()), " ")}
		}
	}
	return out
}

// enumName turns a Go constant name into the Fluss enum name it should stand for:
// TableNotExist → TABLE_NOT_EXIST, UnknownWriterIDException → UNKNOWN_WRITER_ID_EXCEPTION.
func enumName(goName string) string {
	var b strings.Builder
	r := []rune(goName)
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) && (unicode.IsLower(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(c))
	}
	return b.String()
}

// TestEveryCodeIsNamed: every code from -1 to 73 has a constant, a Fluss name, and the
// constant's name is that enum name in Go case (except Fluss's two SEVER_ misspellings).
func TestEveryCodeIsNamed(t *testing.T) {
	consts := constants(t)
	sic := map[string]string{
		"SERVER_TAG_ALREADY_EXIST_EXCEPTION": "SEVER_TAG_ALREADY_EXIST_EXCEPTION",
		"SERVER_TAG_NOT_EXIST_EXCEPTION":     "SEVER_TAG_NOT_EXIST_EXCEPTION",
	}
	for c := Code(-1); c <= 73; c++ {
		k, ok := consts[c]
		require.True(t, ok, "code %d has no constant", c)
		goName := k.name
		assert.True(t, c.Known(), "%s", goName)
		want := enumName(goName)
		if s, ok := sic[want]; ok {
			want = s
		}
		assert.Equal(t, want, c.String(), "constant %s", goName)
		if c != None {
			assert.NotEmpty(t, c.Description(), "%s", c)
			// the doc comment states what the table holds
			assert.True(t, strings.HasPrefix(k.doc, goName+" is "+c.String()+`: "`+strings.TrimSpace(c.Description())+`"`),
				"doc of %s: %s", goName, k.doc)
			assert.Equal(t, c.Retriable(), strings.Contains(k.doc, "Retriable"), "doc of %s: %s", goName, k.doc)
			assert.Equal(t, c.InvalidMetadata(), strings.Contains(k.doc, "metadata refresh"), "doc of %s: %s", goName, k.doc)
		}
	}
	assert.Len(t, consts, len(codes), "a constant for every table entry and no more")
}

func TestUnknownCode(t *testing.T) {
	c := Code(99)
	assert.False(t, c.Known())
	assert.Equal(t, "UNKNOWN_ERROR_CODE(99)", c.String())
	assert.Equal(t, "fluss: UNKNOWN_ERROR_CODE(99)", c.Error())
	assert.Empty(t, c.Description())
	assert.False(t, c.Retriable())
	assert.False(t, c.InvalidMetadata())
}

func TestCodeError(t *testing.T) {
	assert.Equal(t, "fluss: TABLE_NOT_EXIST: The table does not exist.", TableNotExist.Error())
	assert.Equal(t, "fluss: NONE", None.Error())
	var err error = TableNotExist
	assert.ErrorIs(t, err, TableNotExist)
	assert.NotErrorIs(t, err, DatabaseNotExist)
}

// TestRetryClasses: the codes a client retries, and those after which it refreshes
// metadata first; a stale-metadata code is always retriable.
func TestRetryClasses(t *testing.T) {
	var retriable, metadata []Code
	for c := range codes {
		if c.Retriable() {
			retriable = append(retriable, c)
		}
		if c.InvalidMetadata() {
			metadata = append(metadata, c)
			assert.True(t, c.Retriable(), "%s refreshes metadata but is not retriable", c)
		}
	}
	assert.ElementsMatch(t, []Code{NetworkException, CorruptMessage, SchemaNotExist, LogStorageException,
		KvStorageException, NotLeaderOrFollower, CorruptRecordException, UnknownTableOrBucketException,
		RequestTimeOut, StorageException, NotEnoughReplicasAfterAppendException, NotEnoughReplicasException,
		LeaderNotAvailableException, RetriableAuthenticateException, DiskWriteLocked,
		StorageBackpressureException, HistoricalPartitionThrottled}, retriable)
	assert.ElementsMatch(t, []Code{NetworkException, NotLeaderOrFollower, UnknownTableOrBucketException,
		LeaderNotAvailableException}, metadata)
}
