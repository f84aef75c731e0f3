package flussql_test

import (
	"database/sql"
	"fmt"
	"log"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/types"
)

// weightedAvg is the state of WAVG(value, weight) for one group.
type weightedAvg struct{ sum, weight float64 }

func (s *weightedAvg) Add(args []any) error {
	v, w := args[0].(float64), args[1].(float64)
	s.sum += v * w
	s.weight += w
	return nil
}

func (s *weightedAvg) Result() (any, error) {
	if s.weight == 0 {
		return nil, nil // no rows: NULL, as AVG
	}
	return s.sum / s.weight, nil
}

// Register an aggregate function written in Go and use it in a grouped query, in the select
// list and in HAVING, as a built-in aggregate.
func ExampleConnector_RegisterAggregate() {
	cfg, err := flussql.ParseDSN(flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	c, err := flussql.NewConnector(cfg)
	if err != nil {
		log.Fatal(err)
	}
	err = c.RegisterAggregate(flussql.AggregateFunction{
		Name:        "WAVG",
		Args:        []types.DataType{types.NewDouble(), types.NewDouble()},
		Result:      types.NewDouble(),
		Description: "the mean of value weighted by weight",
		New:         func() flussql.AggregateState { return &weightedAvg{} },
	})
	if err != nil {
		log.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	rows, err := db.Query(`SELECT item, WAVG(price, qty) AS avg_price
		FROM (VALUES ('apple', 1.0, 10), ('apple', 2.0, 30), ('pear', 3.0, NULL), ('plum', 0.5, 4))
		  AS t(item, price, qty)
		GROUP BY item HAVING WAVG(price, qty) IS NULL OR WAVG(price, qty) > 1 ORDER BY item`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var item string
		var avg sql.NullFloat64
		if err := rows.Scan(&item, &avg); err != nil {
			log.Fatal(err)
		}
		fmt.Println(item, avg.Float64, avg.Valid)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// apple 1.75 true
	// pear 0 false
}
