package row

import "github.com/flussql/flussql/fluss/internal/codec"

// MaxCompactPrecision is the largest DECIMAL precision whose unscaled value Fluss
// stores as a 64-bit integer; larger precisions are stored as bytes.
const MaxCompactPrecision = codec.MaxCompactPrecision
