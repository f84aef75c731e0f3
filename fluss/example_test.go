package fluss_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// exampleBootstrap returns the bootstrap servers of the examples: in your program, the
// addresses of your cluster's servers, e.g. []string{"127.0.0.1:9123"}. (Here: the cluster
// make test starts, or the in-memory fake of fluss/flusstest without one.)
func exampleBootstrap() []string { return fluss.ServersForExamples() }

func ExampleConnect() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{
		BootstrapServers: exampleBootstrap(), // e.g. []string{"127.0.0.1:9123"}
		RequestTimeout:   10 * time.Second,
		// Username: "admin", Password: "admin-secret", // for a SASL/PLAIN listener
	})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	nodes, err := client.Admin().ServerNodes(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range nodes {
		fmt.Println(n.Type) // n.Addr() is where it listens
	}
	// Output:
	// coordinator
	// tablet server
}

func ExampleAdmin_CreateTable() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: exampleBootstrap()})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	admin := client.Admin()

	if err := admin.CreateDatabase(ctx, "shop", fluss.DatabaseDescriptor{Comment: "orders and friends"}, true); err != nil {
		log.Fatal(err)
	}
	path := fluss.TablePath{Database: "shop", Table: "orders"}
	if err := admin.DropTable(ctx, path, true); err != nil { // start afresh
		log.Fatal(err)
	}
	err = admin.CreateTable(ctx, path, fluss.TableDescriptor{
		Schema: types.Schema{
			Columns: []types.Column{
				{Name: "region", Type: types.NewString()},
				{Name: "id", Type: types.NewBigInt()},
				{Name: "amount", Type: types.NewDecimal(10, 2)},
				{Name: "ts", Type: types.NewTimestampLTZ(3)},
			},
			PrimaryKey: []string{"region", "id"},
		},
		PartitionKeys: []string{"region"},
		BucketCount:   4,
		Comment:       "one row per order",
	}, false)
	if errors.Is(err, fluss.ErrTableAlreadyExist) {
		fmt.Println("already there")
	} else if err != nil {
		log.Fatal(err)
	}
	if err := admin.CreatePartition(ctx, path, fluss.PartitionSpec{"region": "EU"}, true); err != nil {
		log.Fatal(err)
	}
	parts, err := admin.ListPartitions(ctx, path, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range parts {
		fmt.Println(p.Name)
	}
	// Output: EU
}

func ExampleAdmin_GetTableInfo() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: exampleBootstrap()})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	_, err = client.Admin().GetTableInfo(ctx, fluss.TablePath{Database: "shop", Table: "no_such_table"})
	fmt.Println(errors.Is(err, fluss.ErrTableNotExist))

	// shop.orders: see ExampleAdmin_CreateTable.
	info, err := client.Admin().GetTableInfo(ctx, fluss.TablePath{Database: "shop", Table: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Schema().ColumnNames(), info.PhysicalPrimaryKey(), info.NumBuckets())
	// Output:
	// true
	// [region id amount ts] [id] 4
}

func ExampleAdmin_ListOffsets() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: exampleBootstrap()})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	// End offsets of every bucket of partition "EU" of shop.orders (see
	// ExampleAdmin_CreateTable), which has no rows yet.
	offsets, err := client.Admin().ListOffsets(ctx, fluss.TablePath{Database: "shop", Table: "orders"}, "EU", nil, fluss.OffsetLatest())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(offsets)
	// Output: map[0:0 1:0 2:0 3:0]
}
