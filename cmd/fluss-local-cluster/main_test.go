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
