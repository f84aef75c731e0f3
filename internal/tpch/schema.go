// Package tpch generates the eight tables of the TPC-H benchmark at any scale factor,
// deterministically from a seed, following the specification's rules for cardinalities,
// keys, value ranges and the word lists its 22 queries' predicates depend on (it is not
// byte-identical to the reference generator dbgen). Rows are streamed table by table as
// Arrow record batches (for flussql.ArrowConn.AppendArrowReader) or as multi-row INSERTs
// into any database/sql database (the tests' SQLite reference).
package tpch

import (
	"fmt"
	"strings"
)

// Kind is the type of a column.
type Kind int

// The column kinds: INT, BIGINT, DECIMAL(15,2) held as cents, DATE held as days since
// 1970-01-01, STRING.
const (
	Int Kind = iota
	BigInt
	Money
	Date
	String
)

// Column is one column of a table.
type Column struct {
	Name string
	Kind Kind
}

// Table is one of the eight TPC-H tables.
type Table struct {
	Name    string
	Columns []Column
	// Buckets is the bucket count the table gets in Fluss (by its size at scale 1).
	Buckets int
	// Key is the primary key of a dimension table (none for orders and lineitem), for the
	// KeyedDimensions layout.
	Key []string
}

func cols(spec string) []Column {
	var out []Column
	for _, f := range strings.Fields(spec) {
		name, kind, _ := strings.Cut(f, ":")
		k := map[string]Kind{"i": Int, "l": BigInt, "m": Money, "d": Date, "s": String}[kind]
		out = append(out, Column{Name: name, Kind: k})
	}
	return out
}

// Tables are the eight tables in the order they are generated and loaded.
var Tables = []Table{
	{"region", cols("r_regionkey:i r_name:s r_comment:s"), 1, []string{"r_regionkey"}},
	{"nation", cols("n_nationkey:i n_name:s n_regionkey:i n_comment:s"), 1, []string{"n_nationkey"}},
	{"supplier", cols("s_suppkey:i s_name:s s_address:s s_nationkey:i s_phone:s s_acctbal:m s_comment:s"), 2, []string{"s_suppkey"}},
	{"customer", cols("c_custkey:i c_name:s c_address:s c_nationkey:i c_phone:s c_acctbal:m c_mktsegment:s c_comment:s"), 2, []string{"c_custkey"}},
	{"part", cols("p_partkey:i p_name:s p_mfgr:s p_brand:s p_type:s p_size:i p_container:s p_retailprice:m p_comment:s"), 2, []string{"p_partkey"}},
	{"partsupp", cols("ps_partkey:i ps_suppkey:i ps_availqty:i ps_supplycost:m ps_comment:s"), 4, []string{"ps_partkey", "ps_suppkey"}},
	{"orders", cols("o_orderkey:l o_custkey:i o_orderstatus:s o_totalprice:m o_orderdate:d o_orderpriority:s o_clerk:s o_shippriority:i o_comment:s"), 4, nil},
	{"lineitem", cols("l_orderkey:l l_partkey:i l_suppkey:i l_linenumber:i l_quantity:m l_extendedprice:m l_discount:m l_tax:m " +
		"l_returnflag:s l_linestatus:s l_shipdate:d l_commitdate:d l_receiptdate:d l_shipinstruct:s l_shipmode:s l_comment:s"), 8, nil},
}

// TableByName returns the table of that name.
func TableByName(name string) (Table, bool) {
	for _, t := range Tables {
		if t.Name == name {
			return t, true
		}
	}
	return Table{}, false
}

// FlussDDL is the CREATE TABLE statement of t in database db: a log table, or with
// keyed a primary-key table of t.Key.
func (t Table) FlussDDL(db string, keyed bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s.%s (", db, t.Name)
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + [...]string{"INT", "BIGINT", "DECIMAL(15, 2)", "DATE", "STRING"}[c.Kind])
	}
	if keyed {
		fmt.Fprintf(&b, ", PRIMARY KEY (%s) NOT ENFORCED", strings.Join(t.Key, ", "))
	}
	fmt.Fprintf(&b, ") WITH ('bucket.num' = '%d')", t.Buckets)
	return b.String()
}

// SQLiteDDL is the CREATE TABLE statement of t for SQLite: money as REAL, dates as
// 'YYYY-MM-DD' text.
func (t Table) SQLiteDDL() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (", t.Name)
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " " + [...]string{"INTEGER", "INTEGER", "REAL", "TEXT", "TEXT"}[c.Kind])
	}
	b.WriteString(")")
	return b.String()
}
