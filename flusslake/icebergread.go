package flusslake

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"
)

// maxFileReaders bounds the data files of one Iceberg read decoded at the same time (a
// variable for the benchmark's serial baseline).
var maxFileReaders = 4

// fileReaders is how many data files a read decodes at once: maxFileReaders, at most the
// processors Go may use, at least one.
func fileReaders(files int) int {
	return max(1, min(maxFileReaders, runtime.GOMAXPROCS(0), files))
}

// fileBatch is a converted batch of one data file, or the error that ended its read.
type fileBatch struct {
	rec arrow.RecordBatch
	err error
}

// parallelFiles reads the planned files of an Iceberg scan a few at a time
// (fileReaders): each worker takes the next file, decodes it batch by batch with its own
// ReadTasks call (the file's delete files applied) and hands each batch, converted to the
// Fluss Arrow types, to next through a channel as deep as the workers. So a read holds at
// most about two batches per worker however big the files and the lake are, and the batches
// of different files interleave: a union read (and the merge of a primary-key table, whose
// equality deletes iceberg-go applies per file) does not depend on the order of lake rows.
type parallelFiles struct {
	out    chan fileBatch
	cancel context.CancelFunc
	wg     sync.WaitGroup
	done   bool
}

// newIcebergScan starts reading tasks with parallelFiles.
func newIcebergScan(ctx context.Context, scan *table.Scan, tasks []table.FileScanTask, files []string, out *arrow.Schema, names []string) *icebergScan {
	s := &icebergScan{scan: scan, files: files, out: out, names: names}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	workers := fileReaders(len(tasks))
	p := &parallelFiles{out: make(chan fileBatch, workers), cancel: cancel}
	var nextTask atomic.Int64
	for range workers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for {
				i := int(nextTask.Add(1) - 1)
				if i >= len(tasks) || !s.readFile(ctx, tasks[i], p.out) {
					return
				}
			}
		}()
	}
	go func() {
		p.wg.Wait()
		close(p.out)
	}()
	s.par = p
	return s
}

// readFile decodes one data file into out; false when the read is over (an error was sent,
// or the scan was closed).
func (s *icebergScan) readFile(ctx context.Context, task table.FileScanTask, out chan<- fileBatch) bool {
	send := func(b fileBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			if b.rec != nil {
				b.rec.Release()
			}
			return false
		}
	}
	_, seq, err := s.scan.ReadTasks(ctx, []table.FileScanTask{task})
	if err != nil {
		send(fileBatch{err: fmt.Errorf("flusslake: reading Iceberg data file %s: %w", task.File.FilePath(), err)})
		return false
	}
	for rec, err := range seq {
		if err != nil {
			send(fileBatch{err: fmt.Errorf("flusslake: reading Iceberg data file %s: %w", task.File.FilePath(), err)})
			return false
		}
		conv, err := s.convert(ctx, rec)
		rec.Release()
		if err != nil {
			send(fileBatch{err: err})
			return false
		}
		if !send(fileBatch{rec: conv}) {
			return false
		}
	}
	return true
}

// next returns the next batch of any file, or io.EOF after the last of every file.
func (p *parallelFiles) next(ctx context.Context) (arrow.RecordBatch, error) {
	if p.done {
		return nil, io.EOF
	}
	select {
	case b, ok := <-p.out:
		if !ok {
			p.done = true
			return nil, io.EOF
		}
		if b.err != nil {
			p.done = true
			p.close()
			return nil, b.err
		}
		return b.rec, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// close stops the workers and releases the batches they had decoded ahead.
func (p *parallelFiles) close() {
	p.cancel()
	for b := range p.out {
		if b.rec != nil {
			b.rec.Release()
		}
	}
}
