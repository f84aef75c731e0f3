package flussql

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss"
)

// TestConfigNeverPrintsThePassword checks every fmt verb on Config and fluss.Config, by value
// and by pointer.
func TestConfigNeverPrintsThePassword(t *testing.T) {
	c := NewConfig()
	c.User, c.Password = "alice", "zz-s3cret"
	fc := fluss.Config{BootstrapServers: []string{"h:1"}, Username: "alice", Password: "zz-s3cret"}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for name, v := range map[string]any{"Config": *c, "*Config": c, "fluss.Config": fc, "*fluss.Config": &fc} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, "zz-s3cret", "%s of %s: %s", verb, name, out)
			assert.Contains(t, out, "alice", "%s of %s names the user", verb, name)
		}
	}
	assert.Contains(t, c.FormatDSN(), "zz-s3cret", "FormatDSN is the one form with the password (to open the DSN again)")
}
