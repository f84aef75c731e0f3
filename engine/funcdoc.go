package engine

import (
	"fmt"
	"slices"
	"strings"
)

//go:generate go test -run TestFunctionTableInREADME -update-readme .

// README markers around the generated function table.
const (
	FunctionTableBegin = "<!-- functions:begin (generated from engine's registry: make readme-functions) -->"
	FunctionTableEnd   = "<!-- functions:end -->"
)

// familyOrder is the order of the README's function table.
var familyOrder = []string{"string", "regex", "json", "hash", "math", "conditional", "conversion", "temporal", "collection", "aggregate", "window", "system"}

// FunctionTable renders the registry as the README's Markdown table: one
// row per function, by family, with its aliases, signature, description and
// example.
func FunctionTable() string {
	defs := Functions()
	rank := func(f string) int {
		if i := slices.Index(familyOrder, f); i >= 0 {
			return i
		}
		return len(familyOrder)
	}
	slices.SortStableFunc(defs, func(a, b *FuncDef) int { return rank(a.Family) - rank(b.Family) })
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder
	fmt.Fprintf(&b, "%d functions (`SHOW FUNCTIONS` lists them with their aliases, `\\h NAME` in the shell shows one):\n\n", len(defs))
	b.WriteString("| family | function | signature | description | example |\n| --- | --- | --- | --- | --- |\n")
	for _, d := range defs {
		name := "`" + d.Name + "`"
		if len(d.Aliases) > 0 {
			name += " (" + strings.Join(d.Aliases, ", ") + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | `%s` |\n", d.Family, name, esc(d.Signature), esc(d.Desc), esc(d.Example))
	}
	return b.String()
}

// ReplaceFunctionTable returns readme with the text between the markers
// replaced by FunctionTable; ok is false when the markers are missing.
func ReplaceFunctionTable(readme string) (string, bool) {
	i := strings.Index(readme, FunctionTableBegin)
	j := strings.Index(readme, FunctionTableEnd)
	if i < 0 || j < i {
		return readme, false
	}
	return readme[:i+len(FunctionTableBegin)] + "\n" + FunctionTable() + readme[j:], true
}
