package fluss

// DeadAddr gives the external test package (fluss_test) the internal tests' helper.
var DeadAddr = deadAddr
