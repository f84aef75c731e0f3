// Package consumergraph holds a test of what an application gains by requiring the driver: it
// builds a fresh consumer module that imports github.com/flussql/flussql and checks that the
// module graph, go.sum and the packages compiled carry none of the driver's test-only or
// adapter-only dependencies (GORM, OpenTelemetry, the shell's terminal libraries, SQLite,
// sqlx, the pseudo-terminal library). The package has no code of its own.
package consumergraph
