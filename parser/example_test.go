package parser_test

import (
	"errors"
	"fmt"

	"github.com/flussql/flussql/parser"
)

func ExampleParse() {
	st, err := parser.Parse("SELECT user_id, score FROM fluss.users /*+ OPTIONS('scan.startup.mode' = 'earliest') */ " +
		"WHERE region = ? AND score >= 10 LIMIT 5")
	if err != nil {
		panic(err)
	}
	sel := st.(*parser.Select)
	fmt.Println(sel.Table.Database, sel.Table.Name, sel.Hints["scan.startup.mode"])
	fmt.Println(sel.Where)
	fmt.Println(parser.Placeholders(st).NumInput())
	fmt.Println(st)

	_, err = parser.Parse("SELECT * FORM users")
	var pe *parser.Error
	if errors.As(err, &pe) {
		fmt.Println(pe.Line, pe.Column, pe.Found, "/", pe.Expected)
	}
	// Output:
	// fluss users earliest
	// region = ? AND score >= 10
	// 1
	// SELECT user_id, score FROM fluss.users /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE region = ? AND score >= 10 LIMIT 5
	// 1 10 FORM / FROM or ','
}

func ExampleSplit() {
	for _, p := range parser.Split("USE fluss;\nSHOW TABLES; -- done\n") {
		fmt.Printf("%d:%d %s\n", p.Line, p.Column, p.Text)
	}
	// Output:
	// 1:1 USE fluss
	// 2:1 SHOW TABLES
}
