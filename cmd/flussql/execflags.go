package main

import "strings"

// execFlags holds the -e flags in the order given: psql's -c and the duckdb CLI's -c run every
// one of theirs, so a second -e adds to the first instead of replacing it.
type execFlags []string

// String is the flag's value as flag.PrintDefaults shows it.
func (f *execFlags) String() string { return strings.Join(*f, " ") }

// Set adds one -e.
func (f *execFlags) Set(v string) error {
	*f = append(*f, v)
	return nil
}

// script joins the -e flags into one script, one per line; a piece of SQL that does not end
// with ';' is ended, so that the next -e starts a statement of its own (a backslash command
// ends at its line anyway).
func (f execFlags) script() string {
	var b strings.Builder
	for i, piece := range f {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(piece)
		t := strings.TrimSpace(piece)
		if i < len(f)-1 && t != "" && !strings.HasPrefix(t, `\`) && !strings.HasSuffix(t, ";") {
			b.WriteString("\n;") // on a line of its own: the piece may end in a -- comment
		}
	}
	return b.String()
}
