package flussql_test

import (
	"database/sql"
	"fmt"
	"log"
	"strings"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/types"
)

// Register a scalar function written in Go on a connector and call it in SQL, as a built-in.
func ExampleConnector_RegisterFunction() {
	cfg, err := flussql.ParseDSN(flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	c, err := flussql.NewConnector(cfg)
	if err != nil {
		log.Fatal(err)
	}
	err = c.RegisterFunction(flussql.ScalarFunction{
		Name:        "MASK",
		Args:        []types.DataType{types.NewString(), types.NewInt()},
		Result:      types.NewString(),
		Description: "s with all but its last n characters replaced by *",
		Fn: func(args []any) (any, error) {
			s, keep := []rune(args[0].(string)), int(args[1].(int64))
			hide := max(len(s)-keep, 0)
			return strings.Repeat("*", hide) + string(s[hide:]), nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	var masked string
	var null sql.NullString
	if err := db.QueryRow("SELECT mask('4111111111111111', 4), MASK(NULL, 2)").Scan(&masked, &null); err != nil {
		log.Fatal(err)
	}
	var name, kind, desc string
	if err := db.QueryRow("SHOW FUNCTIONS LIKE 'MASK'").Scan(&name, &kind, &desc); err != nil {
		log.Fatal(err)
	}
	fmt.Println(masked, null.Valid, kind)
	// Output: ************1111 false user
}
