package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// csvRecords reads CSV records (RFC 4180) and tells, for each field, whether it was
// quoted: as in PostgreSQL's CSV format an unquoted empty field is NULL and a quoted one
// ("") the empty string, which encoding/csv cannot tell apart. A quoted field may span
// lines; line is the line a record starts on.
type csvRecords struct {
	r      *bufio.Reader
	delim  byte
	line   int // lines read so far
	fields []string
	quoted []bool
}

func newCSVRecords(r io.Reader, delim byte) *csvRecords {
	return &csvRecords{r: bufio.NewReaderSize(r, 1<<20), delim: delim}
}

// readLine returns the next line without its line ending, io.EOF after the last.
func (c *csvRecords) readLine() (string, error) {
	s, err := c.r.ReadString('\n')
	if err == io.EOF && s != "" {
		err = nil
	}
	if err != nil {
		return "", err
	}
	c.line++
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// next returns the next record's fields and whether each was quoted (valid until the next
// call), and the line it starts on; io.EOF after the last record. Blank lines are skipped.
func (c *csvRecords) next() ([]string, []bool, int, error) {
	text, err := c.readLine()
	for err == nil && text == "" {
		text, err = c.readLine()
	}
	if err != nil {
		return nil, nil, 0, err
	}
	start := c.line
	c.fields, c.quoted = c.fields[:0], c.quoted[:0]
	i := 0
	for {
		if i < len(text) && text[i] == '"' {
			var b strings.Builder
			i++
			for {
				if i >= len(text) { // the quoted field goes on on the next line
					more, err := c.readLine()
					if err != nil {
						return nil, nil, start, fmt.Errorf("line %d: a quoted field is not closed before the end of the file", start)
					}
					b.WriteByte('\n')
					text, i = more, 0
					continue
				}
				if text[i] == '"' {
					if i+1 < len(text) && text[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(text[i])
				i++
			}
			c.fields, c.quoted = append(c.fields, b.String()), append(c.quoted, true)
			if i < len(text) && text[i] != c.delim {
				return nil, nil, start, fmt.Errorf("line %d: text after a quoted field's closing quote (a \" inside a field is written \"\")", c.line)
			}
		} else {
			j := strings.IndexByte(text[i:], c.delim)
			if j < 0 {
				j = len(text) - i
			}
			f := text[i : i+j]
			if strings.IndexByte(f, '"') >= 0 {
				return nil, nil, start, fmt.Errorf("line %d: a \" in a field that is not quoted (quote the field and double the quote)", c.line)
			}
			c.fields, c.quoted = append(c.fields, f), append(c.quoted, false)
			i += j
		}
		if i >= len(text) {
			return c.fields, c.quoted, start, nil
		}
		i++ // the delimiter
		if i == len(text) {
			c.fields, c.quoted = append(c.fields, ""), append(c.quoted, false)
			return c.fields, c.quoted, start, nil
		}
	}
}

// errDelimiter is the error for a delimiter csvRecords cannot use.
var errDelimiter = errors.New(`DELIMITER must be one ASCII character other than " and the line ending`)
