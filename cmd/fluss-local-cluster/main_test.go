package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSASL(t *testing.T) {
	users, first, pass, err := parseSASL("admin:admin-secret,alice:alice-pw,bob:bob-pw")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"admin": "admin-secret", "alice": "alice-pw", "bob": "bob-pw"}, users)
	assert.Equal(t, "admin", first)
	assert.Equal(t, "admin-secret", pass)

	users, first, _, err = parseSASL("")
	require.NoError(t, err)
	assert.Nil(t, users)
	assert.Empty(t, first)

	for _, bad := range []string{"admin", "admin:", ":pw", "admin:pw,", "admin:pw,admin:other"} {
		_, _, _, err := parseSASL(bad)
		require.Error(t, err, bad)
		assert.NotContains(t, err.Error(), "pw", "the error must not echo a password")
	}
}

func TestSuperUsers(t *testing.T) {
	s, err := superUsers(true, "admin")
	require.NoError(t, err)
	assert.Equal(t, []string{"admin"}, s)
	s, err = superUsers(false, "admin")
	require.NoError(t, err)
	assert.Nil(t, s)
	_, err = superUsers(true, "")
	assert.ErrorContains(t, err, "-authorizer needs -sasl")
}

func TestServerOptions(t *testing.T) {
	o := serverOptions{}
	assert.Nil(t, o.config(), "no flag: no extra entries")
	require.NoError(t, o.Set("max.bucket.num=16384"))
	require.NoError(t, o.Set("max.partition.num = 2000"))
	require.NoError(t, o.Set("max.bucket.num=20000"))
	assert.Equal(t, map[string]string{"max.bucket.num": "20000", "max.partition.num": "2000"}, o.config())
	for _, bad := range []string{"", "key", "=v", "k="} {
		assert.Error(t, serverOptions{}.Set(bad), bad)
	}
}

func TestExceptionSummary(t *testing.T) {
	log := []string{
		"15:26:51,391 WARN  Replica - Fail to init kv tablet for bucket TableBucket{tableId=139, bucket=0}, retrying for 5 times",
		"org.rocksdb.RocksDBException: While lock file: /x/LOCK: Resource temporarily unavailable",
		"\tat org.rocksdb.RocksDB.open(Native Method)",
		"15:26:51,922 WARN  Replica - Fail to init kv tablet for bucket TableBucket{tableId=141, bucket=0}, retrying for 1 times",
		"org.rocksdb.RocksDBException: While lock file: /x/LOCK: Resource temporarily unavailable",
		"\tat org.rocksdb.RocksDB.open(Native Method)",
		"Caused by: java.io.IOException: Too many open files",
		"\tat sun.nio.ch.Net.bind(Native Method)",
		"15:26:52,000 INFO  Replica - a line that is not a warning",
		"not an exception: no stack follows",
		"15:26:53,409 WARN  ZooKeeperClient - Failed to get leader and isr: NONODE",
		"15:26:53,410 WARN  ZooKeeperClient - another warning line, not an exception",
	}
	assert.Equal(t, []string{
		"2× org.rocksdb.RocksDBException: While lock file: /x/LOCK: Resource temporarily unavailable",
		"1× Caused by: java.io.IOException: Too many open files",
	}, exceptionSummary(log, 10))
	assert.Len(t, exceptionSummary(log, 1), 1)
	assert.Empty(t, exceptionSummary([]string{"15:26:53,409 WARN  x - y"}, 10))
}
