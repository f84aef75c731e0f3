package planner

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// StartMode is where a log scan starts reading.
type StartMode int

// Start modes.
const (
	// StartEarliest reads from the earliest offset of every bucket.
	StartEarliest StartMode = iota
	// StartLatest reads from the end offsets seen when the scan starts.
	StartLatest
	// StartTimestamp reads from the first offset at or after a timestamp.
	StartTimestamp
)

// String returns "earliest", "latest" or "timestamp".
func (m StartMode) String() string {
	switch m {
	case StartLatest:
		return "latest"
	case StartTimestamp:
		return "timestamp"
	}
	return "earliest"
}

// Hint keys of SELECT … FROM t /*+ OPTIONS(…) */.
const (
	HintStartupMode      = "scan.startup.mode"
	HintStartupTimestamp = "scan.startup.timestamp"
	HintBounded          = "scan.bounded"
)

var knownHints = []string{HintBounded, HintStartupMode, HintStartupTimestamp}

// scanHints is what the hints of a log-table SELECT decide.
type scanHints struct {
	start     StartMode
	timestamp int64 // epoch ms, for StartTimestamp
	bounded   bool
	// logOnly is set by an explicit 'earliest': the log alone, no union read of a
	// datalake-enabled table (Flink's 'full', the default, reads the lake first).
	logOnly bool
}

func parseHints(h map[string]string, loc *time.Location) (scanHints, error) {
	out := scanHints{bounded: true}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		if !slices.Contains(knownHints, k) {
			return out, fmt.Errorf("unknown hint option %s; known options: %s", parser.QuoteString(k), strings.Join(knownHints, ", "))
		}
	}
	switch m := h[HintStartupMode]; strings.ToLower(m) {
	case "", "full":
	case "earliest":
		out.logOnly = true
	case "latest":
		out.start = StartLatest
	case "timestamp":
		out.start = StartTimestamp
	default:
		return out, fmt.Errorf("'%s' must be 'full', 'earliest', 'latest' or 'timestamp', not %s", HintStartupMode, parser.QuoteString(m))
	}
	ts, hasTS := h[HintStartupTimestamp]
	switch {
	case out.start == StartTimestamp && !hasTS:
		return out, fmt.Errorf("'%s' = 'timestamp' needs '%s' (epoch milliseconds or an RFC 3339 time)", HintStartupMode, HintStartupTimestamp)
	case out.start != StartTimestamp && hasTS:
		return out, fmt.Errorf("'%s' needs '%s' = 'timestamp'", HintStartupTimestamp, HintStartupMode)
	case hasTS:
		ms, err := strconv.ParseInt(ts, 10, 64)
		if err != nil {
			t, ok := sqlkind.ParseTimestamp(ts, loc, true)
			if !ok {
				return out, fmt.Errorf("'%s' must be epoch milliseconds or a time like 2024-01-02T15:04:05Z, not %s", HintStartupTimestamp, parser.QuoteString(ts))
			}
			ms = t.UnixMilli()
		}
		out.timestamp = ms
	}
	if v, ok := h[HintBounded]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return out, fmt.Errorf("'%s' must be 'true' or 'false', not %s", HintBounded, parser.QuoteString(v))
		}
		out.bounded = b
	}
	return out, nil
}
