package executor

import (
	"container/list"

	"github.com/flussql/flussql/parser"
)

// stmtCacheSize is how many statement texts a connection keeps parsed.
const stmtCacheSize = 256

// stmtCache keeps the parsed statements of the most recently run texts of one connection
// (least recently used first out), so that an unprepared query run again — QueryRow with
// the same text and new arguments — is not parsed again. The syntax tree does not depend
// on the catalog; the plan of a lookup kept beside it (lookupPlanCache) is checked against
// the catalog's table metadata at every execution, so schema changes and DDL need no
// invalidation here. It is used by one goroutine at a time (database/sql serializes a
// connection's calls) and needs no lock.
type stmtCache struct {
	byText map[string]*list.Element
	order  list.List // of *stmtCacheEntry, most recent first
}

type stmtCacheEntry struct {
	text  string
	st    parser.Statement
	plans lookupPlanCache
	// write runs the text when it is a write (INSERT, UPDATE, DELETE) as a prepared
	// statement does, keeping its unbound plan: an unprepared INSERT run again — a
	// multi-row INSERT of thousands of placeholders, say — is not planned again.
	write *Prepared
}

// parse returns the parsed statement of text, from the cache when it is there. Texts that
// fail to parse are not kept.
func (sc *stmtCache) parse(text string) (parser.Statement, error) {
	e, err := sc.entry(text)
	if err != nil {
		return nil, err
	}
	return e.st, nil
}

// entry returns the cache entry of text, parsing it when it is not there.
func (sc *stmtCache) entry(text string) (*stmtCacheEntry, error) {
	if e, ok := sc.byText[text]; ok {
		sc.order.MoveToFront(e)
		return e.Value.(*stmtCacheEntry), nil
	}
	st, err := parser.Parse(text)
	if err != nil {
		return nil, err
	}
	if sc.byText == nil {
		sc.byText = make(map[string]*list.Element, stmtCacheSize)
	}
	entry := &stmtCacheEntry{text: text, st: st}
	sc.byText[text] = sc.order.PushFront(entry)
	if sc.order.Len() > stmtCacheSize {
		last := sc.order.Back()
		sc.order.Remove(last)
		delete(sc.byText, last.Value.(*stmtCacheEntry).text)
	}
	return entry, nil
}
