package localcluster

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/flussql/flussql/internal/flinkgw"
)

// catalogName is what CreateFlussCatalog accepts as a catalog name: a plain identifier.
var catalogName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// CreateFlussCatalog creates, through the SQL Gateway, a Fluss catalog called name for the
// cluster at bootstrap (host:port). The local Flink keeps catalogs in a file catalog store in
// its run folder, so every later gateway session (and the SQL client) sees it: `USE CATALOG
// name` or name.db.table. A catalog of that name that exists already is replaced.
func (f *Flink) CreateFlussCatalog(ctx context.Context, name, bootstrap string) error {
	if !catalogName.MatchString(name) {
		return fmt.Errorf("localcluster: catalog name %q is not a plain identifier (letters, digits, _)", name)
	}
	if strings.ContainsAny(bootstrap, "'\\") {
		return fmt.Errorf("localcluster: bootstrap address %q cannot hold quotes or backslashes", bootstrap)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	gw := flinkgw.New(f.GatewayAddress, nil)
	s, err := gw.OpenSession(ctx, "flussql-catalog", nil)
	if err != nil {
		return fmt.Errorf("localcluster: creating the Fluss catalog %s: %w", name, err)
	}
	defer s.Close(context.WithoutCancel(ctx))
	for _, stmt := range []string{
		"DROP CATALOG IF EXISTS " + name,
		fmt.Sprintf("CREATE CATALOG %s WITH ('type' = 'fluss', 'bootstrap.servers' = '%s')", name, bootstrap),
	} {
		op, err := s.Execute(ctx, stmt, nil)
		if err == nil {
			_, err = op.All(ctx)
			_ = op.Close(context.WithoutCancel(ctx))
		}
		if err != nil {
			return fmt.Errorf("localcluster: %s: %w", stmt, err)
		}
	}
	if f.Catalogs == nil {
		f.Catalogs = map[string]string{}
	}
	f.Catalogs[name] = bootstrap
	return nil
}
