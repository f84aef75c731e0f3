package planner

import (
	"context"
	"fmt"

	"github.com/flussql/flussql/parser"
)

func ExampleBuild() {
	// testCatalog holds fluss.partitioned_users:
	// (user_id INT, region STRING, score BIGINT), PRIMARY KEY (user_id, region), PARTITIONED BY (region).
	st, err := parser.Parse("SELECT user_id, score AS points FROM partitioned_users WHERE user_id IN (1, 2) AND region = ?")
	if err != nil {
		panic(err)
	}
	p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss"})
	if err != nil {
		panic(err)
	}
	p, err = Bind(p, []Arg{{Ordinal: 1, Value: "US"}})
	if err != nil {
		panic(err)
	}
	fmt.Print(p)

	// Execute: look each key up, then feed the rows found to the output.
	lookup := p.(*Lookup)
	found := map[int32][]any{2: {int32(2), "US", int64(40)}}
	res := lookup.Begin()
	for _, k := range lookup.Keys {
		if row, ok := found[k.Values[0].(int32)]; ok && !res.Done() {
			out, err := res.Add(row)
			if err != nil {
				panic(err)
			}
			if out != nil {
				fmt.Println(lookup.ResultColumns()[0].Name, out[0], lookup.ResultColumns()[1].Name, out[1])
			}
		}
	}
	// Output:
	// Lookup fluss.partitioned_users (primary-key table (user_id, region), partitioned by (region), 2 buckets)
	//   key: (user_id, region)
	//   keys: 2
	//     (1, 'US') → partition US
	//     (2, 'US') → partition US
	//   filter: user_id IN (1, 2) AND region = 'US'
	//   columns: user_id, points
	// user_id 2 points 40
}
