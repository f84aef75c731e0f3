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

func ExampleConnect() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{
		BootstrapServers: []string{"127.0.0.1:9123"},
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
		fmt.Println(n)
	}
}

func ExampleAdmin_CreateTable() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{"127.0.0.1:9123"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	admin := client.Admin()

	if err := admin.CreateDatabase(ctx, "shop", fluss.DatabaseDescriptor{Comment: "orders and friends"}, true); err != nil {
		log.Fatal(err)
	}
	path := fluss.TablePath{Database: "shop", Table: "orders"}
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
}

func ExampleAdmin_GetTableInfo() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{"127.0.0.1:9123"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	info, err := client.Admin().GetTableInfo(ctx, fluss.TablePath{Database: "shop", Table: "orders"})
	if errors.Is(err, fluss.ErrTableNotExist) {
		fmt.Println("no such table")
		return
	} else if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Schema().ColumnNames(), info.PhysicalPrimaryKey(), info.NumBuckets())
}

func ExampleAdmin_ListOffsets() {
	ctx := context.Background()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{"127.0.0.1:9123"}})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	// End offsets of every bucket of partition "EU".
	offsets, err := client.Admin().ListOffsets(ctx, fluss.TablePath{Database: "shop", Table: "orders"}, "EU", nil, fluss.OffsetLatest())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(offsets)
}
