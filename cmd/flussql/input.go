package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flussql/flussql/parser"
)

// lineReader is where the shell's input lines come from: the line editor on a terminal, or
// a plain reader for -e, -f and piped standard input.
type lineReader interface {
	// readLine returns the next line without its line ending; io.EOF at the end (Ctrl-D),
	// errAborted when Ctrl-C was pressed at the prompt.
	readLine(prompt string) (string, error)
	// remember adds a complete statement or command to the history.
	remember(entry string)
}

// errAborted is what a line editor returns for Ctrl-C at the prompt.
var errAborted = errors.New("aborted at the prompt")

// plainReader reads lines with no prompt and no history.
type plainReader struct{ r *bufio.Reader }

func newPlainReader(r io.Reader) *plainReader { return &plainReader{r: bufio.NewReader(r)} }

func (p *plainReader) readLine(string) (string, error) {
	line, err := p.r.ReadString('\n')
	if err == io.EOF && line != "" {
		err = nil
	}
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\n")
	return strings.TrimSuffix(line, "\r"), nil
}

func (p *plainReader) remember(string) {}

// source names the input for error messages: "-e", a file name or "<stdin>"; interactive
// input has no name (and an error does not end the session).
type source struct {
	name        string
	interactive bool
}

// Exit codes.
const (
	exitOK        = 0
	exitError     = 1
	exitUsage     = 2
	exitCancelled = 130 // Ctrl-C ended a script, as a shell reports SIGINT
)

// loop reads statements and backslash commands from r and runs them until the input ends,
// \q, or — for a script — the first error. Statements end with ';' outside quotes and
// comments (parser.Split) and may span lines; a statement left without ';' at the end of a
// script still runs. It returns the exit code.
func (s *shell) loop(ctx context.Context, r lineReader, src source) int {
	var buf string // whole input lines not run yet; text already run is blanked out
	bufLine := 1   // the line number of buf's first line
	lineNo := 0
	var interp interpolation // quotes and comments open at the end of buf, for :name
	for {
		pending := hasPending(buf)
		if !pending {
			buf = ""
			interp = interpolation{}
		}
		_ = s.out.Flush()
		s.typed = buf
		line, err := r.readLine(s.prompt(pending))
		switch {
		case errors.Is(err, errAborted): // Ctrl-C at the prompt drops what was typed
			buf = ""
			continue
		case errors.Is(err, io.EOF):
			if src.interactive {
				fmt.Fprintln(s.out)
				_ = s.out.Flush()
				return exitOK
			}
			for _, p := range parser.Split(buf) {
				if code := s.runPiece(ctx, p, buf, bufLine, src); code != exitOK {
					return code
				}
			}
			_ = s.out.Flush()
			return exitOK
		case err != nil:
			s.errorf("%sreading input: %v", prefix(src, lineNo+1, 0), err)
			return exitError
		}
		lineNo++
		inText := interp.quote != 0 || interp.comment // the line continues a quote or comment
		if inText || !isCommandLine(line) || !readsOwnArgs(line) {
			line = s.interpolate(line, &interp)
		}
		if !inText && isCommandLine(line) && isBufferCommand(line) {
			cmd := strings.TrimSpace(line)
			r.remember(cmd)
			if s.echo && !src.interactive {
				fmt.Fprintln(s.out, cmd)
			}
			code, quit := s.bufferCommand(ctx, cmd, buf, bufLine, src, lineNo)
			buf, interp = "", interpolation{}
			if quit || code != exitOK && !src.interactive {
				_ = s.out.Flush()
				return code
			}
			continue
		}
		if !pending {
			switch sessionWord(line) {
			case "quit", "exit":
				_ = s.out.Flush()
				return exitOK
			case "help":
				fmt.Fprint(s.out, helpWordText)
				continue
			}
		}
		if src.interactive && isEditLine(line) {
			r.remember(strings.TrimSpace(line))
			s.edit(ctx, r, buf, src)
			buf = ""
			continue
		}
		if !pending && isCommandLine(line) {
			cmd := strings.TrimSpace(line)
			r.remember(cmd)
			if s.echo && !src.interactive {
				fmt.Fprintln(s.out, cmd)
			}
			code, quit := s.command(ctx, cmd, src, lineNo)
			if quit || code != exitOK && !src.interactive {
				_ = s.out.Flush()
				return code
			}
			continue
		}
		if buf == "" {
			bufLine = lineNo
		}
		buf += line + "\n"
		end := -1
		for _, p := range parser.Split(buf) {
			if !p.Terminated {
				break
			}
			r.remember(historyEntry(p.Text))
			code := s.runPiece(ctx, p, buf, bufLine, src)
			if code != exitOK && !src.interactive {
				_ = s.out.Flush()
				return code
			}
			end = p.Offset + len(p.Text)
		}
		if end >= 0 {
			buf, bufLine = consume(buf, end, bufLine)
		}
	}
}

// hasPending reports whether buf holds part of a statement: code, or an open /* comment.
func hasPending(buf string) bool {
	if strings.TrimSpace(buf) == "" {
		return false
	}
	if len(parser.Split(buf)) > 0 {
		return true
	}
	// Nothing but comments: pending only when a block comment is still open (then what
	// follows it is swallowed too).
	return len(parser.Split(buf+"\n;x")) == 0
}

// consume drops the lines of buf before offset end and blanks the rest of the text before
// end, keeping the line structure so that positions in what follows stay right.
func consume(buf string, end, bufLine int) (string, int) {
	if k := strings.LastIndexByte(buf[:end], '\n'); k >= 0 {
		bufLine += strings.Count(buf[:k+1], "\n")
		buf, end = buf[k+1:], end-(k+1)
	}
	return strings.Repeat(" ", end) + buf[end:], bufLine
}

// isCommandLine reports whether a line is a backslash command.
func isCommandLine(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), `\`)
}

// historyEntry is how a statement is kept in the history: on one line when that is safe
// (no line comments), else as typed.
func historyEntry(text string) string {
	if !strings.Contains(text, "\n") {
		return text + ";"
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "--") || strings.Contains(l, "#") || strings.Contains(l, "//") {
			return text + ";"
		}
	}
	fields := strings.Fields(text)
	return strings.Join(fields, " ") + ";"
}

// prompt is "db> " for a new statement and an aligned "-> " while one continues.
func (s *shell) prompt(pending bool) string {
	p := s.database + "> "
	if pending {
		return strings.Repeat(" ", max(len(p)-3, 0)) + "-> "
	}
	return p
}

// runPiece parses and runs one statement of buf and reports its error, if any, with the
// position in the input. It returns the exit code the statement earns.
func (s *shell) runPiece(ctx context.Context, p parser.Piece, buf string, bufLine int, src source) int {
	if s.echo && !src.interactive {
		fmt.Fprintf(s.out, "%s;\n", p.Text)
	}
	s.lastStatement = strings.TrimSpace(p.Text)
	st, err := p.Parse()
	if err != nil {
		s.reportError(err, buf, bufLine, p.Line, p.Column, src)
		return exitError
	}
	err = s.runStatement(ctx, p.Text, st)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errCancelled):
		if src.interactive {
			return exitOK
		}
		return exitCancelled
	}
	// A positioned error from the driver (its own parse of the text) is relative to the
	// statement: make it relative to buf.
	var pe *parser.Error
	if errors.As(err, &pe) {
		shifted := *pe
		if shifted.Line == 1 {
			shifted.Column += p.Column - 1
		}
		shifted.Line += p.Line - 1
		err = &shifted
	}
	line, col := codeStart(p.Text)
	if line == 1 {
		col += p.Column - 1
	}
	s.reportError(err, buf, bufLine, p.Line+line-1, col, src)
	return exitError
}
