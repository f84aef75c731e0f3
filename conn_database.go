package flussql

// DatabaseConn is implemented by the driver's connections; reach it through sql.Conn.Raw.
// Tools that need the database unqualified names refer to (a schema-migration driver,
// for instance) read it here, as they would run SELECT CURRENT_DATABASE() elsewhere.
type DatabaseConn interface {
	// CurrentDatabase is the connection's current database: the DSN's, or the one its
	// last USE named (a connection going back to the pool gets the DSN's again).
	CurrentDatabase() string
}

var _ DatabaseConn = (*conn)(nil)

// CurrentDatabase is the connection's current database.
func (c *conn) CurrentDatabase() string { return c.sess.Database() }
