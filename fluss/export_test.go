package fluss

// DeadAddr gives the external test package (fluss_test) the internal tests' helper.
var DeadAddr = deadAddr

// ServersForExamples returns the cluster the Example functions use (see TestMain).
func ServersForExamples() []string { return exampleServers }
