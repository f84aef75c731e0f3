package flusslake

// SetMaxFileReaders sets how many Iceberg data files a read decodes at once and returns
// the previous value (for the benchmark's serial baseline).
func SetMaxFileReaders(n int) int {
	old := maxFileReaders
	maxFileReaders = n
	return old
}
