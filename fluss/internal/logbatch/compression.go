package logbatch

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// Compression is the Arrow IPC buffer compression of an ARROW batch, set per
// table by `table.log.arrow.compression.type` (Fluss's ArrowCompressionType).
type Compression int8

// The ARROW log compressions Fluss supports. Fluss's default is ZSTD.
const (
	CompressionNone Compression = iota
	CompressionLZ4Frame
	CompressionZstd
)

// String returns the Fluss option value: "NONE", "LZ4_FRAME" or "ZSTD".
func (c Compression) String() string {
	switch c {
	case CompressionNone:
		return "NONE"
	case CompressionLZ4Frame:
		return "LZ4_FRAME"
	case CompressionZstd:
		return "ZSTD"
	}
	return fmt.Sprintf("Compression(%d)", int8(c))
}

// ParseCompression parses a `table.log.arrow.compression.type` value
// (case-insensitive); the empty string means Fluss's default, ZSTD.
func ParseCompression(s string) (Compression, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "NONE":
		return CompressionNone, nil
	case "LZ4_FRAME":
		return CompressionLZ4Frame, nil
	case "ZSTD", "":
		return CompressionZstd, nil
	}
	return 0, fmt.Errorf("logbatch: unknown arrow compression %q", s)
}

// ipcOption returns the arrow-go writer option for c (nil for none).
func (c Compression) ipcOption() (ipc.Option, error) {
	switch c {
	case CompressionNone:
		return nil, nil
	case CompressionLZ4Frame:
		return ipc.WithLZ4(), nil
	case CompressionZstd:
		return ipc.WithZstd(), nil
	}
	return nil, fmt.Errorf("logbatch: unknown compression %d", int8(c))
}
