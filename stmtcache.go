package flussql

import (
	"container/list"

	"github.com/flussql/flussql/parser"
)

// stmtCacheSize is how many statement texts a connection keeps parsed.
const stmtCacheSize = 256

// stmtCache keeps the parsed statements of the most recently run texts of one connection
// (least recently used first out), so that an unprepared query run again — QueryRow with
// the same text and new arguments — is not parsed again. Only the syntax tree is kept:
// it is planned at every execution against the catalog, so schema changes and DDL need no
// invalidation. It is used by one goroutine at a time (database/sql serializes a
// connection's calls) and needs no lock.
type stmtCache struct {
	byText map[string]*list.Element
	order  list.List // of *stmtCacheEntry, most recent first
}

type stmtCacheEntry struct {
	text string
	st   parser.Statement
}

// parse returns the parsed statement of text, from the cache when it is there. Texts that
// fail to parse are not kept.
func (sc *stmtCache) parse(text string) (parser.Statement, error) {
	if e, ok := sc.byText[text]; ok {
		sc.order.MoveToFront(e)
		return e.Value.(*stmtCacheEntry).st, nil
	}
	st, err := parser.Parse(text)
	if err != nil {
		return nil, err
	}
	if sc.byText == nil {
		sc.byText = make(map[string]*list.Element, stmtCacheSize)
	}
	sc.byText[text] = sc.order.PushFront(&stmtCacheEntry{text: text, st: st})
	if sc.order.Len() > stmtCacheSize {
		last := sc.order.Back()
		sc.order.Remove(last)
		delete(sc.byText, last.Value.(*stmtCacheEntry).text)
	}
	return st, nil
}
