package tpch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// QueryCount is the number of TPC-H queries.
const QueryCount = 22

// ReadQuery reads query n (1..22) from dir/qN.sql without its whole-line "--" comments.
func ReadQuery(dir string, n int) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("q%d.sql", n)))
	if err != nil {
		return "", err
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n"), nil
}

// TablesOf returns the tables query text q reads (the tables whose column prefix, such as
// "l_" for lineitem, appears in it) and, per table, the columns it names.
func TablesOf(q string) map[string][]string {
	out := map[string][]string{}
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for _, t := range Tables {
		for _, c := range t.Columns {
			if seen[c.Name] {
				out[t.Name] = append(out[t.Name], c.Name)
			}
		}
	}
	return out
}
