package fluss

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/types"
)

// partitionRouter finds the partition of each row of a partitioned table:
// its name from the partition columns' values (Fluss's PartitionGetter),
// then its id from the metadata. A partition that does not exist is
// created when auto-creation is on; otherwise the router waits for it up to
// the configured bound and fails with an error that says how to create it.
// The Java and Python clients wait forever here.
type partitionRouter struct {
	t       *Table
	cfg     writerConfig
	keys    []string
	indexes []int
	types   []types.DataType

	mu    sync.RWMutex
	known map[string]int64
}

func newPartitionRouter(t *Table, cfg writerConfig) (*partitionRouter, error) {
	r := &partitionRouter{t: t, cfg: cfg, keys: t.info.PartitionKeys(), known: map[string]int64{}}
	s := t.info.Schema()
	for _, k := range r.keys {
		i := s.Index(k)
		if i < 0 {
			return nil, fmt.Errorf("fluss: partition key %q of %s is not a column", k, t.Path())
		}
		r.indexes = append(r.indexes, i)
		r.types = append(r.types, s.Columns[i].Type)
	}
	return r, nil
}

// name returns the partition name of a row.
func (r *partitionRouter) name(values []any) (string, []string, error) {
	parts := make([]string, len(r.indexes))
	for i, idx := range r.indexes {
		s, err := bucketing.PartitionValueString(r.types[i], values[idx])
		if err != nil {
			return "", nil, fmt.Errorf("fluss: partition column %q: %w", r.keys[i], err)
		}
		parts[i] = s
	}
	return strings.Join(parts, PartitionSeparator), parts, nil
}

// resolve returns the partition name and id of a row.
func (r *partitionRouter) resolve(ctx context.Context, values []any) (string, int64, error) {
	name, parts, err := r.name(values)
	if err != nil {
		return "", 0, err
	}
	r.mu.RLock()
	id, ok := r.known[name]
	r.mu.RUnlock()
	if ok {
		return name, id, nil
	}
	id, err = r.lookup(ctx, name, parts)
	if err != nil {
		return "", 0, err
	}
	r.mu.Lock()
	r.known[name] = id
	r.mu.Unlock()
	return name, id, nil
}

// lookup finds a partition's id, creating the partition or waiting for it.
func (r *partitionRouter) lookup(ctx context.Context, name string, parts []string) (int64, error) {
	c := r.t.c
	path := r.t.Path()
	deadline := time.Now().Add(r.cfg.missingPartition)
	created := false
	wait := 100 * time.Millisecond
	for {
		pm, err := c.partitionMetadata(ctx, path, name)
		if err == nil {
			return pm.ID, nil
		}
		missing := isMissingPartition(err)
		if !missing && !isStale(err) {
			return 0, fmt.Errorf("fluss: partition %s of %s: %w", name, path, err)
		}
		if missing && r.cfg.autoCreate && !created {
			spec := make(PartitionSpec, len(r.keys))
			for i, k := range r.keys {
				spec[k] = parts[i]
			}
			c.debug("fluss: creating missing partition", "table", path.String(), "partition", name)
			if err := c.Admin().CreatePartition(ctx, path, spec, true); err != nil {
				return 0, fmt.Errorf("fluss: creating partition %s of %s: %w", r.qualified(parts), path, err)
			}
			created = true
			// Give the new partition's buckets time to get leaders.
			deadline = time.Now().Add(max(r.cfg.missingPartition, 30*time.Second))
			continue
		}
		if !time.Now().Before(deadline) {
			if missing {
				return 0, r.missingError(parts, err)
			}
			return 0, fmt.Errorf("fluss: partition %s of %s: %w", name, path, err)
		}
		c.debug("fluss: waiting for partition", "table", path.String(), "partition", name, "for", wait, "until", deadline, "err", err)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		wait = min(2*wait, time.Second)
	}
}

func (r *partitionRouter) qualified(parts []string) string {
	kv := make([]string, len(parts))
	for i, k := range r.keys {
		kv[i] = k + "=" + parts[i]
	}
	return strings.Join(kv, "/")
}

// missingError is the *PartitionNotExistError of a write to a missing
// partition, after the wait.
func (r *partitionRouter) missingError(parts []string, cause error) error {
	return &PartitionNotExistError{Table: r.t.Path(), Keys: r.keys, Values: parts, Waited: r.cfg.missingPartition, Cause: cause}
}

// isMissingPartition reports whether a metadata error means the partition
// does not exist.
func isMissingPartition(err error) bool {
	if errors.Is(err, ErrPartitionNotExists) {
		return true
	}
	var fe *Error
	return errors.As(err, &fe) && fe.Code == flusserr.UnknownServerError &&
		strings.Contains(fe.Message, "PartitionNotExist")
}
