package executor

import (
	"strings"

	"github.com/flussql/flussql/fluss"
)

// maxCachedLookupers bounds the lookupers an Executor keeps; past it the cache starts over.
const maxCachedLookupers = 1024

// lookuper returns the executor's Lookuper for the table's current schema. Lookupers are
// shared by the sessions: a lookuper holds the key encoders, is safe for concurrent use,
// and merges concurrent single-key lookups into one request per leader.
func (c *Session) lookuper(info *fluss.TableInfo) (*fluss.Lookuper, error) {
	key := keyOf(info, "")
	if lk, ok := c.ex.lookupers.get(key); ok {
		return lk, nil
	}
	tbl, err := c.client.TableOf(info)
	if err != nil {
		return nil, err
	}
	lk, err := tbl.NewLookuper()
	if err != nil {
		return nil, err
	}
	return c.ex.lookupers.store(key, info.Path, lk), nil
}

// prefixLookuper returns the executor's PrefixLookuper for the table and columns.
func (c *Session) prefixLookuper(info *fluss.TableInfo, cols []string) (*fluss.PrefixLookuper, error) {
	key := keyOf(info, strings.Join(cols, "\x00"))
	if pl, ok := c.ex.prefixLookupers.get(key); ok {
		return pl, nil
	}
	tbl, err := c.client.TableOf(info)
	if err != nil {
		return nil, err
	}
	pl, err := tbl.NewPrefixLookuper(cols)
	if err != nil {
		return nil, err
	}
	return c.ex.prefixLookupers.store(key, info.Path, pl), nil
}
