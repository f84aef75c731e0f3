package localcluster

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// The first start fetches the server's jars with Maven (about 90 MB for fluss-server and
// its logging backend), which takes a while on a slow link: with Options.Logf set, Start
// says what it fetches and how far it has got every few seconds, counted from Maven's
// "Downloaded from …" lines, instead of being silent until it is done.

// fetchLogKey carries Start's Logf to fetchJars through the context.
type fetchLogKey struct{}

// withFetchLog returns ctx carrying logf for the jar fetches it makes.
func withFetchLog(ctx context.Context, logf func(string, ...any)) context.Context {
	return context.WithValue(ctx, fetchLogKey{}, logf)
}

// fetchLog returns the progress logger of ctx, nil when there is none.
func fetchLog(ctx context.Context) func(string, ...any) {
	logf, _ := ctx.Value(fetchLogKey{}).(func(string, ...any))
	return logf
}

// fetchProgressEvery is how often a fetch's progress is logged.
const fetchProgressEvery = 3 * time.Second

// downloadedRE matches Maven's line for a file it has downloaded, e.g.
// "Downloaded from central: https://…/fluss-server-0.9.1.jar (86 MB at 9.1 MB/s)".
var downloadedRE = regexp.MustCompile(`Downloaded from [^:]+: \S+ \(([0-9.]+) (B|kB|KB|MB|GB)`)

// downloadedBytes returns the size a "Downloaded from" line of Maven reports, and whether
// the line is one.
func downloadedBytes(line string) (int64, bool) {
	m := downloadedRE.FindStringSubmatch(line)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	unit := map[string]float64{"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9}[m[2]]
	return int64(f * unit), true
}

// fetchProgress is Maven's standard output during a fetch: it keeps the output for an
// error message and counts the files and bytes downloaded.
type fetchProgress struct {
	mu      sync.Mutex
	out     bytes.Buffer
	partial []byte
	files   int
	bytes   int64
}

func (p *fetchProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.Write(b)
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		if n, ok := downloadedBytes(string(p.partial[:i])); ok {
			p.files++
			p.bytes += n
		}
		p.partial = p.partial[i+1:]
	}
	return len(b), nil
}

// counts returns the files and bytes downloaded so far.
func (p *fetchProgress) counts() (int, int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.files, p.bytes
}

func (p *fetchProgress) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// report logs the progress every fetchProgressEvery until stop is closed, then the total.
func (p *fetchProgress) report(logf func(string, ...any), what string, start time.Time, stop <-chan struct{}) {
	t := time.NewTicker(fetchProgressEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			if files, n := p.counts(); files > 0 {
				logf("fetched %s: %d files, %s in %s", what, files, megabytes(n), time.Since(start).Round(time.Second))
			}
			return
		case <-t.C:
			files, n := p.counts()
			logf("fetching %s: %d files, %s so far (%s)", what, files, megabytes(n), time.Since(start).Round(time.Second))
		}
	}
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
