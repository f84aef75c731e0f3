package tpch

import (
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"time"
)

// Value is one cell: I for INT, BIGINT, DECIMAL (cents) and DATE (days since 1970-01-01),
// S for STRING.
type Value struct {
	I int64
	S string
}

// Row is one row, in its table's column order.
type Row []Value

// The specification's dates (clause 4.2.2.12).
var (
	startDate   = dayOf(1992, 1, 1)
	currentDate = dayOf(1995, 6, 17)
	endDate     = dayOf(1998, 12, 31)
)

func dayOf(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// DateString renders a DATE value as YYYY-MM-DD.
func DateString(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format(time.DateOnly)
}

// DefaultSeed is the seed the tests and the benchmark use: with it every query with the
// specification's validation parameters returns rows at scale 0.01 (with most seeds Q18,
// Q19 or Q20 has none there), and Q8's market share is not 0 in both years.
const DefaultSeed = 11

// Generator produces the tables of one scale factor and seed. The same scale factor and
// seed always give the same rows.
type Generator struct {
	SF   float64
	Seed uint64
	pool string
}

// NewGenerator returns a generator of scale factor sf (1 ≈ 8.7 million rows, 0.01 ≈ 86,000).
func NewGenerator(sf float64, seed uint64) *Generator {
	g := &Generator{SF: sf, Seed: seed}
	g.pool = textPool(g.rng(100))
	return g
}

func (g *Generator) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(g.Seed, stream))
}

func (g *Generator) scaled(base float64) int64 {
	return max(1, int64(math.Round(base*g.SF)))
}

// Suppliers, Parts, Customers and Orders are the tables' cardinalities (clause 4.2.5).
func (g *Generator) Suppliers() int64 { return g.scaled(10_000) }

// Parts is the number of parts (partsupp has four rows per part).
func (g *Generator) Parts() int64 { return g.scaled(200_000) }

// Customers is the number of customers.
func (g *Generator) Customers() int64 { return g.scaled(150_000) }

// Orders is the number of orders (lineitem has 1 to 7 rows per order).
func (g *Generator) Orders() int64 { return g.scaled(1_500_000) }

// Rows yields the rows of the named table. The yielded Row is reused: it is valid until
// the next one.
func (g *Generator) Rows(table string) iter.Seq[Row] {
	switch table {
	case "region":
		return g.regions
	case "nation":
		return g.nations
	case "supplier":
		return g.suppliers
	case "customer":
		return g.customers
	case "part":
		return g.parts
	case "partsupp":
		return g.partsupps
	case "orders":
		return func(yield func(Row) bool) { g.ordersAndLines(yield, nil) }
	case "lineitem":
		return func(yield func(Row) bool) { g.ordersAndLines(nil, yield) }
	}
	panic(fmt.Sprintf("tpch: no table %q", table))
}

func iv(i int64) Value  { return Value{I: i} }
func sv(s string) Value { return Value{S: s} }

func (g *Generator) regions(yield func(Row) bool) {
	rng := g.rng(1)
	for i, name := range regionNames {
		if !yield(Row{iv(int64(i)), sv(name), sv(g.text(rng, 31, 115))}) {
			return
		}
	}
}

func (g *Generator) nations(yield func(Row) bool) {
	rng := g.rng(2)
	for i, n := range nations {
		if !yield(Row{iv(int64(i)), sv(n.name), iv(int64(n.region)), sv(g.text(rng, 31, 114))}) {
			return
		}
	}
}

// vstring is a random string of letters, digits, commas and spaces (clause 4.2.2.7).
func vstring(rng *rand.Rand, min, max int) string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, "
	b := make([]byte, min+rng.IntN(max-min+1))
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// phone is a phone number whose country code is the nation key + 10 (clause 4.2.2.9).
func phone(rng *rand.Rand, nation int64) string {
	return fmt.Sprintf("%02d-%03d-%03d-%04d", nation+10, 100+rng.IntN(900), 100+rng.IntN(900), 1000+rng.IntN(9000))
}

// between is a random integer in [lo, hi].
func between(rng *rand.Rand, lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }

func (g *Generator) suppliers(yield func(Row) bool) {
	rng := g.rng(3)
	n := g.Suppliers()
	// SF*5 suppliers have "Customer … Complaints" in their comment, SF*5 "Customer …
	// Recommends" (at least one each).
	special := map[int64]string{}
	for _, word := range []string{"Complaints", "Recommends"} {
		for k := g.scaled(5); k > 0; {
			key := between(rng, 1, n)
			if _, taken := special[key]; !taken || n <= 2 {
				special[key] = word
				k--
			}
		}
	}
	for key := int64(1); key <= n; key++ {
		nation := between(rng, 0, 24)
		comment := g.text(rng, 25, 100)
		if word, ok := special[key]; ok {
			at := rng.IntN(len(comment)/2 + 1)
			comment = comment[:at] + "Customer " + g.text(rng, 3, 12) + " " + word + " " + comment[at:]
			if len(comment) > 100 {
				comment = comment[:100]
			}
		}
		row := Row{iv(key), sv(fmt.Sprintf("Supplier#%09d", key)), sv(vstring(rng, 10, 40)), iv(nation),
			sv(phone(rng, nation)), iv(between(rng, -99999, 999999)), sv(comment)}
		if !yield(row) {
			return
		}
	}
}

func (g *Generator) customers(yield func(Row) bool) {
	rng := g.rng(4)
	for key := int64(1); key <= g.Customers(); key++ {
		nation := between(rng, 0, 24)
		row := Row{iv(key), sv(fmt.Sprintf("Customer#%09d", key)), sv(vstring(rng, 10, 40)), iv(nation),
			sv(phone(rng, nation)), iv(between(rng, -99999, 999999)), sv(segments[rng.IntN(len(segments))]),
			sv(g.text(rng, 29, 116))}
		if !yield(row) {
			return
		}
	}
}

// retailPrice is p_retailprice in cents (clause 4.2.3).
func retailPrice(partkey int64) int64 {
	return 90000 + (partkey/10)%20001 + 100*(partkey%1000)
}

// partSupplier is the supplier of the i-th (0..3) partsupp row of a part (clause 4.2.3).
func partSupplier(partkey, i, suppliers int64) int64 {
	return (partkey+i*(suppliers/4+(partkey-1)/suppliers))%suppliers + 1
}

func (g *Generator) parts(yield func(Row) bool) {
	rng := g.rng(5)
	for key := int64(1); key <= g.Parts(); key++ {
		perm := rng.Perm(len(colours))
		name := colours[perm[0]]
		for _, c := range perm[1:5] {
			name += " " + colours[c]
		}
		m, n := between(rng, 1, 5), between(rng, 1, 5)
		typ := typeSyl1[rng.IntN(len(typeSyl1))] + " " + typeSyl2[rng.IntN(len(typeSyl2))] + " " + typeSyl3[rng.IntN(len(typeSyl3))]
		container := containerSyl1[rng.IntN(len(containerSyl1))] + " " + containerSyl2[rng.IntN(len(containerSyl2))]
		row := Row{iv(key), sv(name), sv(fmt.Sprintf("Manufacturer#%d", m)), sv(fmt.Sprintf("Brand#%d%d", m, n)),
			sv(typ), iv(between(rng, 1, 50)), sv(container), iv(retailPrice(key)), sv(g.text(rng, 5, 22))}
		if !yield(row) {
			return
		}
	}
}

func (g *Generator) partsupps(yield func(Row) bool) {
	rng := g.rng(6)
	s := g.Suppliers()
	for key := int64(1); key <= g.Parts(); key++ {
		for i := int64(0); i < 4; i++ {
			row := Row{iv(key), iv(partSupplier(key, i, s)), iv(between(rng, 1, 9999)), iv(between(rng, 100, 100000)),
				sv(g.text(rng, 49, 198))}
			if !yield(row) {
				return
			}
		}
	}
}

// orderKey is the key of the i-th (0-based) order: only the first 8 of every 32 keys are
// used (clause 4.2.3).
func orderKey(i int64) int64 { return i/8*32 + i%8 + 1 }

// ordersAndLines generates each order with its lines (an order's status and total price
// follow from its lines) and yields the orders to orders and the lines to lines.
func (g *Generator) ordersAndLines(orders, lines func(Row) bool) {
	rng := g.rng(7)
	customers, parts, suppliers := g.Customers(), g.Parts(), g.Suppliers()
	order := make(Row, 9)
	line := make(Row, 16)
	for i := int64(0); i < g.Orders(); i++ {
		key := orderKey(i)
		cust := between(rng, 1, customers)
		for cust%3 == 0 { // a third of the customers have no orders
			cust = between(rng, 1, customers)
		}
		date := between(rng, startDate, endDate-151)
		priority := priorities[rng.IntN(len(priorities))]
		clerk := fmt.Sprintf("Clerk#%09d", between(rng, 1, g.scaled(1000)))
		comment := g.text(rng, 19, 78)
		var total int64
		nf, no := 0, 0
		nlines := int(between(rng, 1, 7))
		for ln := 1; ln <= nlines; ln++ {
			part := between(rng, 1, parts)
			supp := partSupplier(part, between(rng, 0, 3), suppliers)
			qty := between(rng, 1, 50)
			price := qty * retailPrice(part)
			discount, tax := between(rng, 0, 10), between(rng, 0, 8)
			ship := date + between(rng, 1, 121)
			commit := date + between(rng, 30, 90)
			receipt := ship + between(rng, 1, 30)
			returnFlag := "N"
			if receipt <= currentDate {
				returnFlag = [...]string{"R", "A"}[rng.IntN(2)]
			}
			status := "F"
			if ship > currentDate {
				status = "O"
				no++
			} else {
				nf++
			}
			// extendedprice * (1 + tax) * (1 - discount), rounded to cents
			total += (price*(100+tax)*(100-discount) + 5000) / 10000
			instruct := instructions[rng.IntN(len(instructions))]
			mode := modes[rng.IntN(len(modes))]
			lcomment := g.text(rng, 10, 43)
			if lines != nil {
				copy(line, Row{iv(key), iv(part), iv(supp), iv(int64(ln)), iv(qty * 100), iv(price), iv(discount), iv(tax),
					sv(returnFlag), sv(status), iv(ship), iv(commit), iv(receipt), sv(instruct), sv(mode), sv(lcomment)})
				if !lines(line) {
					return
				}
			}
		}
		if orders != nil {
			status := "P"
			if no == 0 {
				status = "F"
			} else if nf == 0 {
				status = "O"
			}
			copy(order, Row{iv(key), iv(cust), sv(status), iv(total), iv(date), sv(priority), sv(clerk), iv(0), sv(comment)})
			if !orders(order) {
				return
			}
		}
	}
}
