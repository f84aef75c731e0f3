package planner

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/flussql/flussql/fluss"
)

// NameLister is implemented by catalogs that can list the names that exist,
// so that the error for a missing table can suggest the closest ones.
// AdminCatalog implements it.
type NameLister interface {
	ListDatabases(ctx context.Context) ([]string, error)
	ListTables(ctx context.Context, database string) ([]string, error)
}

// maxSuggestions bounds the names a "does not exist" error suggests.
const maxSuggestions = 3

// missingTable builds the error for a table the catalog does not have,
// with the closest existing names when the catalog can list them. Listing
// is best effort: when it fails, the error simply has no suggestion.
func missingTable(ctx context.Context, cat Catalog, path fluss.TablePath, cause error) *TableNotExistError {
	e := &TableNotExistError{Path: path, cause: cause}
	l, ok := cat.(NameLister)
	if !ok {
		return e
	}
	tables, err := l.ListTables(ctx, path.Database)
	switch {
	case err == nil:
		e.Suggestions = closestNames(path.Table, tables)
	case errors.Is(err, fluss.ErrDatabaseNotExist):
		e.NoDatabase = true
		if dbs, err := l.ListDatabases(ctx); err == nil {
			e.Suggestions = closestNames(path.Database, dbs)
		}
	}
	return e
}

// suggestionText renders names as "a", "a or b", "a, b or c", each in
// backticks when it needs them.
func suggestionText(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteIdent(n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// quoteIdent writes name bare when it is a plain word, else in backticks.
func quoteIdent(name string) string {
	plain := name != ""
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// closestNames returns up to maxSuggestions of names that are close to
// want: the same but for case, one that contains the other, or within an
// edit distance of about a third of its length. Closest first, then by name.
func closestNames(want string, names []string) []string {
	type cand struct {
		name string
		dist int
	}
	lw := strings.ToLower(want)
	limit := max(1, len(lw)/3)
	var cs []cand
	for _, n := range names {
		ln := strings.ToLower(n)
		d := editDistance(lw, ln)
		switch {
		case ln == lw:
			d = 0
		case d <= limit:
		case len(lw) >= 3 && (strings.Contains(ln, lw) || strings.Contains(lw, ln) && len(ln) >= 3):
			d = limit + 1
		default:
			continue
		}
		cs = append(cs, cand{n, d})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].dist != cs[j].dist {
			return cs[i].dist < cs[j].dist
		}
		return cs[i].name < cs[j].name
	})
	out := make([]string, 0, maxSuggestions)
	for _, c := range cs {
		if len(out) == maxSuggestions {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Error names the missing table and the closest existing names.
func (e *TableNotExistError) Error() string {
	switch {
	case e.NoDatabase && len(e.Suggestions) > 0:
		return fmt.Sprintf("table %s does not exist: there is no database %s (did you mean %s?)", e.Path, quoteIdent(e.Path.Database), suggestionText(e.Suggestions))
	case e.NoDatabase:
		return fmt.Sprintf("table %s does not exist: there is no database %s (SHOW DATABASES lists them)", e.Path, quoteIdent(e.Path.Database))
	case len(e.Suggestions) > 0:
		return fmt.Sprintf("table %s does not exist (did you mean %s?)", e.Path, suggestionText(e.Suggestions))
	}
	return fmt.Sprintf("table %s does not exist", e.Path)
}
