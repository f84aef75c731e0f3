package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/flussql/flussql"
)

// Session commands in psql's style: \i runs a script file in this session, \o sends
// results to a file, \conninfo says where the shell is connected; the bare words quit,
// exit and help work as psql's do.

// include is \i file: the file's statements and commands run in this session, as if
// typed; in a script an error in it stops the script as any other would.
func (s *shell) include(ctx context.Context, path string, src source) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return exitError, err
	}
	defer f.Close()
	code := s.loop(ctx, newPlainReader(f), source{name: path})
	if code != exitOK && src.interactive {
		return exitOK, nil // the error was reported; the interactive session goes on
	}
	return code, nil
}

// redirect is \o [file]: results go to the file (created or truncated) until the next \o,
// which sends them back to standard output. Errors and messages stay on their streams.
func (s *shell) redirect(args []string) error {
	if len(args) > 1 {
		return errors.New(`\o wants at most one argument: a file`)
	}
	if err := s.out.Flush(); err != nil {
		return err
	}
	if err := s.closeOutputFile(); err != nil {
		return err
	}
	if len(args) == 0 {
		return nil
	}
	f, err := os.Create(args[0])
	if err != nil {
		return err
	}
	s.outFile = f
	s.out = bufio.NewWriterSize(f, 64<<10)
	return nil
}

// closeOutputFile ends a \o redirection, if any, and restores standard output.
func (s *shell) closeOutputFile() error {
	if s.outFile == nil {
		return nil
	}
	err := s.out.Flush()
	if cerr := s.outFile.Close(); err == nil {
		err = cerr
	}
	s.outFile = nil
	s.out = s.stdout
	return err
}

// conninfoText is \conninfo's answer.
func (s *shell) conninfoText() string {
	return fmt.Sprintf("You are connected to database %q through %s.\n", s.database, s.conninfo)
}

// sessionWord recognises a line that is only quit, exit or help (any case, an optional
// ';'), as psql does; it returns the word in lower case, or "".
func sessionWord(line string) string {
	w := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(line), ";"))
	switch w {
	case "quit", "exit", "help":
		return w
	}
	return ""
}

// helpWordText is what the word help prints.
const helpWordText = `You are using flussql, the SQL shell for Apache Fluss.
Type:  \? for the shell's commands
       statements ending with ';' (SHOW TABLES; SELECT …; see the README's SQL dialect)
       \q, quit or exit to leave
`

// connInfo describes a DSN's connection for \conninfo: the addresses and the user, never
// the password.
func connInfo(cfg *flussql.Config) string {
	where := strings.Join(cfg.Addrs, ", ")
	if cfg.User == "" {
		return where + " without authentication"
	}
	return fmt.Sprintf("%s as user %q (SASL/PLAIN)", where, cfg.User)
}
