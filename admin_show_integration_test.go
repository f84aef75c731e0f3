package flussql_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// TestShowClusterStatements runs the cluster-inspection statements of the Fluss CLI against
// the real cluster: SHOW SERVERS, SHOW OFFSETS, SHOW KV SNAPSHOTS and SHOW CLUSTER CONFIGS.
func TestShowClusterStatements(t *testing.T) {
	db, dbName := openTestDB(t)

	servers := queryStrings(t, db, `SHOW SERVERS`)
	require.NotEmpty(t, servers)
	assert.Equal(t, "coordinator", servers[0][1], "the coordinator comes first")
	var addrs []string
	for i, s := range servers {
		require.Len(t, s, 5)
		if i > 0 {
			assert.Equal(t, "tablet server", s[1])
		}
		assert.Equal(t, "127.0.0.1", s[2])
		addrs = append(addrs, s[2]+":"+s[3])
	}
	assert.Contains(t, addrs, strings.Split(realcluster.Addr(t), ",")[0], "the bootstrap server is listed")

	// Offsets of a log table: the records of each bucket between earliest and latest.
	logT := dbName + ".clicks"
	_, err := db.Exec(`CREATE TABLE ` + logT + ` (id INT, page STRING) WITH ('bucket.num' = '3')`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO ` + logT + ` VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')`)
	require.NoError(t, err)
	offsets := queryStrings(t, db, `SHOW OFFSETS FOR `+logT)
	require.Len(t, offsets, 3, "one row per bucket")
	total := 0
	for i, o := range offsets {
		assert.Equal(t, strconv.Itoa(i), o[0], "by bucket")
		earliest, _ := strconv.Atoi(o[1])
		latest, _ := strconv.Atoi(o[2])
		total += latest - earliest
	}
	assert.Equal(t, 5, total, "every inserted row is between earliest and latest")

	// A partitioned primary-key table: offsets and KV snapshots per partition.
	kv := dbName + ".profiles"
	_, err = db.Exec(`CREATE TABLE ` + kv + ` (id INT, region STRING, name STRING, PRIMARY KEY (id, region) NOT ENFORCED)
		PARTITIONED BY (region) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	for _, r := range []string{"EU", "US"} {
		_, err = db.Exec(`ALTER TABLE ` + kv + ` ADD PARTITION (region = '` + r + `')`)
		require.NoError(t, err)
	}
	_, err = db.Exec(`INSERT INTO ` + kv + ` VALUES (1, 'EU', 'a'), (2, 'EU', 'b'), (1, 'US', 'c')`)
	require.NoError(t, err)
	offsets = queryStrings(t, db, `SHOW OFFSETS FOR `+kv)
	require.Len(t, offsets, 4, "2 partitions × 2 buckets")
	assert.Equal(t, []string{"EU", "EU", "US", "US"}, []string{offsets[0][0], offsets[1][0], offsets[2][0], offsets[3][0]})
	eu := queryStrings(t, db, `SHOW OFFSETS FOR `+kv+` PARTITION (region = ?)`, "EU")
	require.Len(t, eu, 2)
	changes := 0
	for _, o := range eu {
		earliest, _ := strconv.Atoi(o[2])
		latest, _ := strconv.Atoi(o[3])
		changes += latest - earliest
	}
	assert.Equal(t, 2, changes, "two +I changes in the EU partition's changelog")

	snaps := queryStrings(t, db, `SHOW KV SNAPSHOTS FOR `+kv)
	require.Len(t, snaps, 4)
	for _, s := range snaps {
		require.Len(t, s, 4)
		assert.Contains(t, []string{"0", "1"}, s[1])
		if s[2] != "NULL" {
			_, err := strconv.ParseInt(s[2], 10, 64)
			assert.NoError(t, err, "snapshot id %q", s[2])
		}
	}
	_, err = db.Query(`SHOW KV SNAPSHOTS FOR ` + logT)
	require.ErrorContains(t, err, "is a log table: only primary-key tables have KV snapshots")

	// Every snapshot the cluster keeps (Fluss 1.0's LIST_KV_SNAPSHOTS): the latest ones are
	// among them (the test cluster snapshots every 10 minutes, so there may be none yet).
	if !testServerVersion(t).AtLeast(1, 0) {
		_, err = db.Query(`SHOW ACTIVE KV SNAPSHOTS FOR ` + kv)
		require.Error(t, err)
		assert.True(t, errors.Is(err, fluss.ErrUnsupportedByServer), "%v", err)
		assert.Contains(t, err.Error(), "LIST_KV_SNAPSHOTS(1064) API, which Fluss 1.0 added")
	} else {
		active := map[string]bool{}
		for _, s := range queryStrings(t, db, `SHOW ACTIVE KV SNAPSHOTS FOR `+kv+` PARTITION (region = 'EU')`) {
			require.Len(t, s, 4)
			assert.Equal(t, "EU", s[0])
			assert.Contains(t, []string{"0", "1"}, s[1])
			active[s[1]+"/"+s[2]] = true
		}
		for _, s := range queryStrings(t, db, `SHOW KV SNAPSHOTS FOR `+kv+` PARTITION (region = 'EU')`) {
			if s[2] != "NULL" {
				assert.True(t, active[s[1]+"/"+s[2]], "latest snapshot %s of bucket %s is active", s[2], s[1])
			}
		}
	}

	// Cluster configs: the server sends its whole configuration; secrets are masked.
	configs := queryStrings(t, db, `SHOW CLUSTER CONFIGS`)
	require.NotEmpty(t, configs, "0.9+ servers describe their configuration")
	keys := map[string]string{}
	for _, c := range configs {
		keys[c[0]] = c[1]
		if fluss.IsSensitiveConfig(c[0]) && c[1] != "NULL" {
			assert.Equal(t, fluss.MaskedConfigValue, c[1], c[0])
		}
	}
	assert.Contains(t, keys, "bind.listeners", "the coordinator's listeners are part of its configuration")
	only := queryStrings(t, db, `SHOW CLUSTER CONFIGS LIKE 'bind.%'`)
	require.NotEmpty(t, only)
	for _, c := range only {
		assert.True(t, strings.HasPrefix(c[0], "bind."), c[0])
	}
}
