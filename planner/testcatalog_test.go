package planner

import (
	"context"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// memCatalog is an in-memory Catalog with fixed tables, for tests.
type memCatalog struct {
	tables map[fluss.TablePath]*fluss.TableInfo
	parts  map[fluss.TablePath][]fluss.PartitionInfo
}

func (c *memCatalog) Table(_ context.Context, path fluss.TablePath) (*fluss.TableInfo, error) {
	if t, ok := c.tables[path]; ok {
		return t, nil
	}
	return nil, &fluss.Error{Code: flusserr.TableNotExist, Message: "Table '" + path.String() + "' does not exist."}
}

func (c *memCatalog) Partitions(_ context.Context, path fluss.TablePath) ([]fluss.PartitionInfo, error) {
	t, ok := c.tables[path]
	if !ok {
		return nil, &fluss.Error{Code: flusserr.TableNotExist}
	}
	if !t.IsPartitioned() {
		return nil, &fluss.Error{Code: flusserr.TableNotPartitionedException}
	}
	return c.parts[path], nil
}

func col(name string, t types.DataType) types.Column { return types.Column{Name: name, Type: t} }

// testCatalog returns the tables every planner test uses, in database
// "fluss":
//
//	logs               log table
//	events             log table partitioned by (dt, region)
//	users              primary-key table (user_id), name NOT NULL
//	partitioned_users  PRIMARY KEY (user_id, region) PARTITIONED BY (region)
//	orders             PRIMARY KEY (customer_id, order_id), bucket key customer_id
//	region_orders      PRIMARY KEY (customer_id, region, order_id) PARTITIONED BY (region), bucket key customer_id
//	alltypes           log table with a column of every scalar type (and an ARRAY)
func testCatalog() *memCatalog {
	c := &memCatalog{tables: map[fluss.TablePath]*fluss.TableInfo{}, parts: map[fluss.TablePath][]fluss.PartitionInfo{}}
	add := func(name string, cols []types.Column, pk, partKeys, bucketKeys []string, buckets int, parts ...string) {
		path := fluss.TablePath{Database: "fluss", Table: name}
		info := &fluss.TableInfo{Path: path, TableID: int64(len(c.tables) + 1), SchemaID: 1, Descriptor: fluss.TableDescriptor{
			Schema:        types.Schema{Columns: cols, PrimaryKey: pk},
			PartitionKeys: partKeys,
			BucketCount:   buckets,
			BucketKeys:    bucketKeys,
			Properties:    map[string]string{"table.replication.factor": "1"},
		}}
		if len(pk) > 0 && len(bucketKeys) == 0 {
			info.Descriptor.BucketKeys = info.PhysicalPrimaryKey()
		}
		c.tables[path] = info
		for i, p := range parts {
			vals := strings.Split(p, fluss.PartitionSeparator)
			c.parts[path] = append(c.parts[path], fluss.PartitionInfo{
				ID: int64(100*len(c.tables) + i), Name: p, Keys: partKeys, Values: vals,
			})
		}
	}
	nn := func(t types.DataType) types.DataType { return t.AsNotNull() }
	add("logs", []types.Column{
		col("id", types.NewBigInt()), col("msg", types.NewString()), col("level", nn(types.NewInt())), col("ts", types.NewTimestamp(3)),
	}, nil, nil, nil, 2)
	add("events", []types.Column{
		col("id", types.NewBigInt()), col("region", types.NewString()), col("dt", types.NewDate()),
		col("score", types.NewInt()), col("payload", types.NewBytes()),
	}, nil, []string{"dt", "region"}, nil, 2, "2024-01-01$US", "2024-01-01$EU", "2024-01-02$US")
	add("users", []types.Column{
		col("user_id", nn(types.NewInt())), col("name", nn(types.NewString())), col("email", types.NewString()), col("score", types.NewBigInt()),
	}, []string{"user_id"}, nil, nil, 3)
	add("partitioned_users", []types.Column{
		col("user_id", nn(types.NewInt())), col("region", nn(types.NewString())), col("score", types.NewBigInt()),
	}, []string{"user_id", "region"}, []string{"region"}, nil, 2, "US", "EU")
	add("orders", []types.Column{
		col("customer_id", nn(types.NewBigInt())), col("order_id", nn(types.NewBigInt())),
		col("amount", types.NewDecimal(10, 2)), col("status", types.NewString()),
	}, []string{"customer_id", "order_id"}, nil, []string{"customer_id"}, 4)
	add("region_orders", []types.Column{
		col("customer_id", nn(types.NewBigInt())), col("region", nn(types.NewString())), col("order_id", nn(types.NewBigInt())),
		col("amount", types.NewDecimal(10, 2)),
	}, []string{"customer_id", "region", "order_id"}, []string{"region"}, []string{"customer_id"}, 4, "US", "EU")
	add("alltypes", []types.Column{
		col("b", types.NewBoolean()), col("ti", types.NewTinyInt()), col("si", types.NewSmallInt()), col("i", types.NewInt()),
		col("bi", types.NewBigInt()), col("f", types.NewFloat()), col("d", types.NewDouble()), col("dec", types.NewDecimal(10, 2)),
		col("c", types.NewChar(3)), col("s", types.NewString()), col("bin", types.NewBinary(4)), col("bs", types.NewBytes()),
		col("dt", types.NewDate()), col("tm", types.NewTime(3)), col("ts", types.NewTimestamp(6)), col("ltz", types.NewTimestampLTZ(3)),
		col("arr", types.NewArray(types.NewInt())),
	}, nil, nil, nil, 1)
	add("nested", []types.Column{
		col("id", nn(types.NewInt())), col("tags", types.NewArray(types.NewString())),
		col("attrs", types.NewMap(nn(types.NewString()), types.NewInt())),
		col("addr", types.NewRow(types.Field{Name: "city", Type: types.NewString()}, types.Field{Name: "zip", Type: types.NewInt()})),
		col("grid", types.NewArray(types.NewArray(nn(types.NewInt())))),
	}, []string{"id"}, nil, nil, 1)
	// metrics: a log table with column statistics (server filters, pushdown.go).
	add("metrics", []types.Column{
		col("id", nn(types.NewInt())), col("host", types.NewString()), col("v", types.NewBigInt()),
		col("ok", types.NewBoolean()), col("x", types.NewDouble()),
	}, nil, nil, nil, 2)
	c.tables[fluss.TablePath{Database: "fluss", Table: "metrics"}].Descriptor.Properties[fluss.PropStatisticsColumns] = "id,host,v,ok"
	// lineitem: TPC-H's, with statistics on the columns Q6 filters (constant folding, fold.go).
	add("lineitem", []types.Column{
		col("l_orderkey", nn(types.NewBigInt())), col("l_quantity", types.NewDecimal(15, 2)),
		col("l_extendedprice", types.NewDecimal(15, 2)), col("l_discount", types.NewDecimal(15, 2)),
		col("l_shipdate", types.NewDate()), col("l_shipmode", types.NewString()),
	}, nil, nil, nil, 2)
	c.tables[fluss.TablePath{Database: "fluss", Table: "lineitem"}].Descriptor.Properties[fluss.PropStatisticsColumns] = "l_quantity,l_discount,l_shipdate,l_shipmode"
	return c
}
