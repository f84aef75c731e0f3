package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"

	"github.com/flussql/flussql/parser"
)

// The commands that run the statement being typed, as psql's: \g [file] runs it (no ';'
// needed; with a file, its result goes there), \watch [seconds] runs it again and again
// (watch.go). With nothing typed, both run the last statement again. They are
// recognised on a line of their own, also in the middle of a statement.

// isBufferCommand reports whether a command line is \g or \watch.
func isBufferCommand(line string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch strings.TrimSuffix(name, ";") {
	case `\g`, `\go`, `\watch`:
		return true
	}
	return false
}

// bufferCommand runs \g or \watch on buf (the statement being typed, which starts at line
// bufLine of the input). It returns the exit code and whether the loop should stop.
func (s *shell) bufferCommand(ctx context.Context, line, buf string, bufLine int, src source, lineNo int) (int, bool) {
	fields := strings.Fields(strings.TrimSuffix(line, ";"))
	name, args := fields[0], fields[1:]
	pending := hasPending(buf)
	fail := func(err error) (int, bool) {
		return s.commandFailed(err, line, src, lineNo), false
	}
	if name == `\watch` {
		text := s.lastStatement
		if pending {
			text = strings.TrimSpace(buf)
		}
		if err := s.watch(ctx, text, args); err != nil {
			return fail(err)
		}
		return exitOK, false
	}
	if len(args) > 1 {
		return fail(errors.New(`\g wants at most one argument: a file for the result`))
	}
	if len(args) == 1 {
		restore, err := s.resultToFile(args[0])
		if err != nil {
			return fail(err)
		}
		defer func() {
			if err := restore(); err != nil {
				s.errorf("flussql: %v", err)
			}
		}()
	}
	if !pending {
		if s.lastStatement == "" {
			return fail(errors.New(`\g: no statement to run yet`))
		}
		if err := s.runText(ctx, s.lastStatement); err != nil {
			return fail(err)
		}
		return exitOK, false
	}
	for _, p := range parser.Split(buf) {
		if code := s.runPiece(ctx, p, buf, bufLine, src); code != exitOK {
			return code, false
		}
	}
	return exitOK, false
}

// resultToFile sends results to a file (created or truncated) until the function it
// returns is called, which closes the file and restores the output as it was.
func (s *shell) resultToFile(path string) (func() error, error) {
	if err := s.out.Flush(); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	savedOut, savedFile := s.out, s.outFile
	s.outFile = f // no pager for a file
	s.out = bufio.NewWriterSize(f, 64<<10)
	return func() error {
		err := s.out.Flush()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		s.out, s.outFile = savedOut, savedFile
		return err
	}, nil
}
