package parser

import (
	"slices"
	"strings"
)

// FlinkText returns the statement text src as Flink SQL reads it: the OPTIONS hints keep
// every option but those named in drop (options only flussql knows, which Flink's
// connector would refuse as unknown), a hint left empty goes, and a trailing ';' goes.
// Everything else is sent as written: flussql's dialect follows Flink SQL.
func FlinkText(src string, drop ...string) (string, error) {
	l, err := lex(src)
	if err != nil {
		return "", err
	}
	out := src
	for _, c := range slices.Backward(l.comments) {
		if !strings.HasPrefix(c.val, "/*+") {
			continue
		}
		opts, err := l.parseHint(c)
		if err != nil {
			return "", err
		}
		n := len(opts)
		for _, k := range drop {
			delete(opts, k)
		}
		if len(opts) == n {
			continue
		}
		start, repl := c.start, ""
		if len(opts) > 0 {
			repl = hintsString(opts)
		} else if start > 0 && out[start-1] == ' ' {
			start-- // the blank before the hint goes with it
		}
		out = out[:start] + repl + out[c.end:]
	}
	out = strings.TrimSpace(out)
	for strings.HasSuffix(out, ";") {
		out = strings.TrimSpace(strings.TrimSuffix(out, ";"))
	}
	return out, nil
}
