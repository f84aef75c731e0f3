package localcluster

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestDownloadedBytes(t *testing.T) {
	for _, tc := range []struct {
		line string
		n    int64
		ok   bool
	}{
		{"Downloaded from central: https://repo.maven.apache.org/maven2/org/apache/fluss/fluss-server/0.9.1-incubating/fluss-server-0.9.1-incubating.jar (86 MB at 9.1 MB/s)", 86_000_000, true},
		{"[INFO] Downloaded from central: https://repo/x.pom (2.5 kB at 40 kB/s)", 2500, true},
		{"Downloaded from mirror: https://m/y.jar (512 B at 3 kB/s)", 512, true},
		{"Downloading from central: https://repo/x.jar", 0, false},
		{"[INFO] BUILD SUCCESS", 0, false},
	} {
		n, ok := downloadedBytes(tc.line)
		assert.Equal(t, tc.ok, ok, tc.line)
		assert.Equal(t, tc.n, n, tc.line)
	}
}

// TestFetchProgress: Maven's output, written in pieces that split lines, is kept whole
// and its downloads counted; the report says the total once the fetch ends.
func TestFetchProgress(t *testing.T) {
	p := &fetchProgress{}
	out := "[INFO] Scanning\nDownloaded from central: https://r/a.jar (1.5 MB at 1 MB/s)\nDownloading from central: https://r/b.jar\nDownloaded from central: https://r/b.jar (500 kB at 1 MB/s)\n"
	for i := 0; i < len(out); i += 7 {
		_, _ = p.Write([]byte(out[i:min(i+7, len(out))]))
	}
	files, n := p.counts()
	assert.Equal(t, 2, files)
	assert.Equal(t, int64(2_000_000), n)
	assert.Equal(t, out, p.output())

	var mu sync.Mutex
	var logged []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}
	stop := make(chan struct{})
	close(stop)
	p.report(logf, "the jars", time.Now(), stop)
	assert.Len(t, logged, 1)
	assert.True(t, strings.HasPrefix(logged[0], "fetched the jars: 2 files, 2.0 MB in "), logged[0])
}
