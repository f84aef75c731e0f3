package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// helpText is what \? prints.
const helpText = `Statements end with ';' and may span lines. Ctrl-C cancels the running statement
(or clears the one being typed); Ctrl-D or \q leaves. Tab completes keywords, commands,
databases, tables and columns.

  \?              this help
  \l              list databases                 (SHOW DATABASES)
  \dt [db]        list tables                    (SHOW TABLES [FROM db])
  \d  table       describe a table: columns, types, primary key, partition keys,
                  buckets and properties          (DESCRIBE t; SHOW CREATE TABLE t)
  \d+ table       \d, then its partitions, bucket offsets and KV snapshots
                  (SHOW PARTITIONS t; SHOW OFFSETS FOR t; SHOW KV SNAPSHOTS FOR t)
  \dp table       list a table's partitions      (SHOW PARTITIONS t)
  \dA [resource]  list ACLs                      (SHOW ACLS [FOR 'db.t']; grant with
                  CREATE ACL (resource => 'db.t', principal => 'User:alice', operation => 'READ'))
  \c  db          use another database           (USE db)
  \jobs           list the Flink jobs            (SHOW JOBS; needs flink_gateway in the
                  DSN; STOP JOB 'id' [WITH SAVEPOINT] ends one)
  \timing [on|off]  show how long statements take
  \x [on|off|auto]  expanded output: one block per row (auto: when a table
                  would be wider than the terminal)
  \format [table|csv|tsv|json]  output format
  \pset pager [on|off|auto|always]  page results taller than the terminal ($PAGER,
                  else less -S): on and auto when taller, always for every result
  \e              edit the last statement (or the one being typed) in $EDITOR, then
                  run it
  \i file         run the statements of a file
  \o [file]       send results to a file (\o alone: back to the screen)
  \conninfo       where the shell is connected
  \g [file]       run the statement being typed (or the last one again); its
                  result to the file if one is given
  \watch [sec] [count=N]  run it every sec seconds (2) until Ctrl-C
  \copy t FROM 'file' [(FORMAT csv|parquet|json, HEADER, DELIMITER ',')]
  \copy t|(SELECT …) TO 'file' [(…)]  load a file into a log table, or write a
                  table's or query's rows to a file, streamed; the format
                  follows the extension unless FORMAT says
  \set [name [value]]  set a variable (alone: list them); \unset name
                  use it as :name, :'name' (a string), :"name" (a name)
  \echo text      print the text
  \! [command]    run a shell command
  \h [statement]  the syntax of a statement (alone: list the statements)
  \q              quit (also: quit, exit)
`

// command runs one backslash command line. It returns the exit code it earns and whether
// the shell should stop (\q).
func (s *shell) command(ctx context.Context, line string, src source, lineNo int) (int, bool) {
	fields := strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), ";"))
	name, args := fields[0], fields[1:]
	fail := func(err error) (int, bool) {
		return s.commandFailed(err, line, src, lineNo), false
	}
	// raw is what follows the command's name as typed (with a trailing ';'), for the
	// commands that read their arguments themselves.
	raw := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), name))
	arg := func(what string) (string, error) {
		if len(args) != 1 {
			return "", fmt.Errorf("%s wants one argument: %s", name, what)
		}
		return args[0], nil
	}
	var err error
	switch name {
	case `\q`, `\quit`:
		return exitOK, true
	case `\i`, `\include`:
		var f string
		if f, err = arg("a file"); err == nil {
			var code int
			if code, err = s.include(ctx, f, src); err == nil && code != exitOK {
				return code, false
			}
		}
	case `\o`, `\out`:
		err = s.redirect(args)
	case `\pset`:
		err = s.pset(args)
	case `\e`, `\edit`:
		err = errors.New(`\e needs an interactive terminal`)
	case `\conninfo`:
		fmt.Fprint(s.out, s.conninfoText())
	case `\?`:
		fmt.Fprint(s.out, helpText)
	case `\h`, `\help`:
		var text string
		if text, err = statementHelpText(args); err == nil {
			fmt.Fprint(s.out, text)
		}
	case `\copy`:
		err = s.copyCommand(ctx, strings.TrimSuffix(raw, ";"))
	case `\set`:
		err = s.setCommand(raw)
	case `\unset`:
		err = s.unsetCommand(raw)
	case `\echo`:
		err = s.echoCommand(raw)
	case `\!`:
		err = s.shellEscape(ctx, raw)
	case `\d+`:
		var t string
		if t, err = arg("a table"); err == nil {
			err = s.describePlus(ctx, t)
		}
	case `\l`:
		err = s.runQuery(ctx, "SHOW DATABASES")
	case `\jobs`:
		if len(args) > 0 {
			err = errors.New(`\jobs takes no argument`)
			break
		}
		err = s.runQuery(ctx, "SHOW JOBS")
	case `\dt`:
		switch len(args) {
		case 0:
			err = s.runQuery(ctx, "SHOW TABLES")
		case 1:
			err = s.runQuery(ctx, "SHOW TABLES FROM "+args[0])
		default:
			err = errors.New(`\dt wants at most one argument: a database`)
		}
	case `\d`:
		if len(args) == 0 {
			err = s.runQuery(ctx, "SHOW TABLES")
			break
		}
		var t string
		if t, err = arg("a table"); err == nil {
			err = s.describe(ctx, t)
		}
	case `\dp`:
		var t string
		if t, err = arg("a table"); err == nil {
			err = s.runQuery(ctx, "SHOW PARTITIONS "+t)
		}
	case `\dA`:
		switch len(args) {
		case 0:
			err = s.runQuery(ctx, "SHOW ACLS")
		case 1:
			err = s.runQuery(ctx, "SHOW ACLS FOR '"+strings.ReplaceAll(args[0], "'", "''")+"'")
		default:
			err = errors.New(`\dA wants at most one argument: a resource ('cluster', 'db' or 'db.table')`)
		}
	case `\c`:
		if len(args) == 0 {
			fmt.Fprintf(s.out, "You are using database %q.\n", s.database)
			break
		}
		var db string
		if db, err = arg("a database"); err == nil {
			err = s.use(ctx, db)
		}
	case `\timing`:
		err = toggle(&s.timing, args, "Timing")
		if err == nil {
			fmt.Fprintf(s.out, "Timing is %s.\n", onOff(s.timing))
		}
	case `\x`:
		err = s.expandedCommand(args)
	case `\format`:
		switch {
		case len(args) == 0:
			fmt.Fprintf(s.out, "Output format is %s.\n", s.format)
		case len(args) == 1 && validFormat(args[0]):
			s.format = args[0]
			fmt.Fprintf(s.out, "Output format is %s.\n", s.format)
		default:
			err = errors.New(`\format wants one of table, csv, tsv, json`)
		}
	default:
		err = fmt.Errorf(`unknown command %s; \? lists the commands`, name)
	}
	if err != nil {
		return fail(err)
	}
	_ = s.out.Flush()
	return exitOK, false
}

// commandFailed reports a backslash command's error as the session reports errors and
// returns the exit code it earns.
func (s *shell) commandFailed(err error, line string, src source, lineNo int) int {
	switch {
	case errors.Is(err, errCancelled):
		if src.interactive {
			return exitOK
		}
		return exitCancelled
	case src.interactive:
		s.errorf("ERROR: %v", err)
	default:
		s.errorf("%s%s: %v", prefix(src, lineNo, 0), line, err)
	}
	return exitError
}

// expandedCommand is \x [on|off|auto].
func (s *shell) expandedCommand(args []string) error {
	if len(args) == 1 && strings.EqualFold(args[0], "auto") {
		s.expanded, s.expandedAuto = false, true
		fmt.Fprintln(s.out, "Expanded display is used automatically.")
		return nil
	}
	if len(args) == 0 && s.expandedAuto {
		s.expanded = true // psql: \x toggles from auto to on
	} else if err := toggle(&s.expanded, args, "Expanded display"); err != nil {
		return errors.New(`\x: say on, off or auto`)
	}
	s.expandedAuto = false
	fmt.Fprintf(s.out, "Expanded display is %s.\n", onOff(s.expanded))
	return nil
}

// use is \c db.
func (s *shell) use(parent context.Context, db string) error {
	ctx, end := s.begin(parent)
	defer end()
	if _, err := s.conn.ExecContext(ctx, "USE "+db); err != nil {
		return s.failed(ctx, err)
	}
	s.database = strings.ReplaceAll(strings.Trim(db, "`"), "``", "`")
	fmt.Fprintf(s.out, "You are now using database %q.\n", s.database)
	return nil
}

func toggle(b *bool, args []string, what string) error {
	switch {
	case len(args) == 0:
		*b = !*b
	case len(args) == 1 && strings.EqualFold(args[0], "on"):
		*b = true
	case len(args) == 1 && strings.EqualFold(args[0], "off"):
		*b = false
	default:
		return fmt.Errorf("%s: say on or off", what)
	}
	return nil
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func validFormat(f string) bool {
	switch f {
	case formatTable, formatCSV, formatTSV, formatJSON:
		return true
	}
	return false
}
