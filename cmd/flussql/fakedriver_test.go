package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A tiny database/sql driver for the shell's unit tests (formatting, streaming, cancellation,
// backslash commands). It is never the only evidence: golden_test.go runs the same shell
// against a real Fluss cluster through the real driver.
//
// Tables: numbers (id BIGINT, name STRING, ts TIMESTAMP_LTZ(3)), LIMIT n rows, every third name
// NULL; endless (n BIGINT), rows until the query's context is cancelled; stall, which
// returns no row until cancelled; anything else does not exist.
const fakeDriverName = "flussql-fake"

func init() { sql.Register(fakeDriverName, &fakeDriver{}) }

type fakeDriver struct{}

// fakeLog records every statement the fake driver received, in order.
var fakeLog struct {
	sync.Mutex
	stmts []string
}

// fakeProduced counts the rows the fake driver has handed out (all queries).
var fakeProduced atomic.Int64

func fakeStatements() []string {
	fakeLog.Lock()
	defer fakeLog.Unlock()
	return append([]string(nil), fakeLog.stmts...)
}

func resetFake() {
	fakeLog.Lock()
	fakeLog.stmts = nil
	fakeLog.Unlock()
	fakeProduced.Store(0)
}

func (fakeDriver) Open(string) (driver.Conn, error) { return &fakeConn{db: "fluss"}, nil }

type fakeConn struct{ db string }

func (c *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("fake: no Prepare") }
func (c *fakeConn) Close() error                        { return nil }
func (c *fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("fake: no transactions") }
func (c *fakeConn) Ping(context.Context) error          { return nil }

func record(q string) {
	fakeLog.Lock()
	fakeLog.stmts = append(fakeLog.stmts, q)
	fakeLog.Unlock()
}

var (
	reUse    = regexp.MustCompile("(?i)^USE\\s+`?([A-Za-z0-9_]+)`?$")
	reLimit  = regexp.MustCompile(`(?i)LIMIT\s+(\d+)`)
	reInsert = regexp.MustCompile(`(?i)^INSERT INTO (\w+) VALUES (.*)$`)
)

func (c *fakeConn) ExecContext(ctx context.Context, q string, _ []driver.NamedValue) (driver.Result, error) {
	record(q)
	if m := reUse.FindStringSubmatch(q); m != nil {
		if m[1] == "nope" {
			return nil, errors.New("database nope does not exist")
		}
		c.db = m[1]
		return driver.RowsAffected(0), nil
	}
	if m := reInsert.FindStringSubmatch(q); m != nil {
		if m[1] != "numbers" {
			return nil, fmt.Errorf("table %s.%s does not exist", c.db, m[1])
		}
		return driver.RowsAffected(strings.Count(m[2], "(")), nil
	}
	return driver.RowsAffected(0), nil
}

func (c *fakeConn) QueryContext(ctx context.Context, q string, _ []driver.NamedValue) (driver.Rows, error) {
	record(q)
	upper := strings.ToUpper(q)
	switch {
	case upper == "SHOW DATABASES":
		return listRows("database", "default", "fluss"), nil
	case strings.HasPrefix(upper, "SHOW TABLES"):
		return listRows("table", "endless", "numbers"), nil
	case strings.HasPrefix(upper, "DESCRIBE NUMBERS"):
		return &fakeRows{cols: []string{"column", "type", "key"}, types: []string{"STRING", "STRING", "STRING"},
			data: [][]driver.Value{{"id", "BIGINT", "PRI"}, {"name", "STRING", nil}, {"ts", "TIMESTAMP(3)", nil}}}, nil
	case strings.HasPrefix(upper, "SHOW CREATE TABLE NUMBERS"):
		return listRows("create table", "CREATE TABLE `fluss`.`numbers` (\n  `id` BIGINT NOT NULL,\n  PRIMARY KEY (`id`) NOT ENFORCED\n) WITH ('bucket.num' = '1')"), nil
	case strings.HasPrefix(upper, "SHOW PARTITIONS NUMBERS"):
		return listRows("partition", "region=EU", "region=US"), nil
	case strings.Contains(upper, "FROM NUMBERS"):
		n := 3
		if m := reLimit.FindStringSubmatch(q); m != nil {
			n, _ = strconv.Atoi(m[1])
			n = min(n, 50000) // keeps fuzzing quick
		}
		return &fakeRows{ctx: ctx, cols: []string{"id", "name", "ts"}, types: []string{"BIGINT", "STRING", "TIMESTAMP_LTZ"}, gen: numbersRow, limit: n}, nil
	case strings.Contains(upper, "FROM ENDLESS"):
		return &fakeRows{ctx: ctx, cols: []string{"n"}, types: []string{"BIGINT"}, limit: -1,
			gen: func(i int) []driver.Value { time.Sleep(time.Millisecond); return []driver.Value{int64(i)} }}, nil
	case strings.Contains(upper, "FROM STALL"):
		return &fakeRows{ctx: ctx, cols: []string{"n"}, types: []string{"BIGINT"}, limit: -1, stall: true}, nil
	}
	return nil, fmt.Errorf("table %s.%s does not exist", c.db, lastWord(q))
}

func lastWord(q string) string {
	f := strings.Fields(q)
	return strings.Trim(f[len(f)-1], ";")
}

func numbersRow(i int) []driver.Value {
	var name driver.Value = fmt.Sprintf("name-%d", i)
	if i%3 == 2 {
		name = nil
	}
	ts := time.Date(2025, 3, 5, 10, 0, i%60, 5_000_000, time.UTC)
	return []driver.Value{int64(i), name, ts}
}

func listRows(col string, vals ...string) *fakeRows {
	r := &fakeRows{cols: []string{col}, types: []string{"STRING"}}
	for _, v := range vals {
		r.data = append(r.data, []driver.Value{v})
	}
	return r
}

// fakeRows serves fixed data, or generated rows up to limit (-1: no limit) until ctx ends.
type fakeRows struct {
	ctx   context.Context
	cols  []string
	types []string
	data  [][]driver.Value
	gen   func(int) []driver.Value
	limit int
	stall bool
	i     int
}

func (r *fakeRows) Columns() []string                       { return r.cols }
func (r *fakeRows) Close() error                            { return nil }
func (r *fakeRows) ColumnTypeDatabaseTypeName(i int) string { return r.types[i] }

// ColumnTypePrecisionScale reports TIMESTAMP_LTZ's fractional digits as its precision, as
// the real driver does (its type names carry no parameters).
func (r *fakeRows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if r.types[i] == "TIMESTAMP_LTZ" {
		return 3, 0, true
	}
	return 0, 0, false
}

func (r *fakeRows) Next(dest []driver.Value) error {
	if r.ctx != nil {
		if r.stall {
			<-r.ctx.Done()
		}
		if err := r.ctx.Err(); err != nil {
			return err
		}
	}
	var row []driver.Value
	switch {
	case r.gen != nil:
		if r.limit >= 0 && r.i >= r.limit {
			return io.EOF
		}
		row = r.gen(r.i)
	case r.i < len(r.data):
		row = r.data[r.i]
	default:
		return io.EOF
	}
	r.i++
	fakeProduced.Add(1)
	copy(dest, row)
	return nil
}
