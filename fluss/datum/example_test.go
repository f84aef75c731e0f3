package datum_test

import (
	"fmt"
	"math/big"
	"time"

	"github.com/flussql/flussql/fluss/datum"
)

// A row for a table (id INT, price DECIMAL(10, 2), day DATE, at TIMESTAMP_LTZ(3),
// tags MAP<STRING, INT>), as package fluss's writers take it and its scanners return it.
func Example() {
	at := time.Date(2024, 1, 2, 15, 4, 5, 0, time.UTC)
	row := []any{
		int32(1),
		datum.NewDecimal(1999, 2), // 19.99
		datum.DateOf(at),
		datum.TimestampLTZOf(at),
		[]datum.MapEntry{{Key: "a", Value: int32(1)}, {Key: "b", Value: nil}},
	}
	for _, v := range row {
		fmt.Println(v)
	}
	// Output:
	// 1
	// 19.99
	// 2024-01-02
	// 2024-01-02 15:04:05Z
	// [{a 1} {b <nil>}]
}

func ExampleParseDecimal() {
	d, err := datum.ParseDecimal("-12.50")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d, d.Scale(), d.Precision())
	n, _ := d.UnscaledInt64()
	fmt.Println(n)

	// A column's scale: raising it is exact, lowering it must not drop digits.
	d3, _ := d.Rescale(3)
	fmt.Println(d3)
	_, err = d.Rescale(0)
	fmt.Println(err != nil)
	// Output:
	// -12.50 2 4
	// -1250
	// -12.500
	// true
}

func ExampleNewDecimalFromBig() {
	u, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	d := datum.NewDecimalFromBig(u, 10) // DECIMAL(38, 10) holds it; an int64 would not
	fmt.Println(d)
	// Output:
	// 12345678901234567890.1234567890
}
