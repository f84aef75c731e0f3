package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/parser"
)

// \watch [seconds] [count=N], as psql's: run the statement being typed — or, with none,
// the last one run — every few seconds (2 by default) until Ctrl-C, a failure, or N runs.
// Each run is headed by the time it started and the interval. The pager is off while it
// runs, so that one result does not wait for the pager to be quit.

// watchSpec is \watch's arguments.
type watchSpec struct {
	every time.Duration
	count int // 0: until Ctrl-C
}

// parseWatch reads \watch's arguments: a number of seconds (also i=, interval=) and
// count= (c=).
func parseWatch(args []string) (watchSpec, error) {
	w := watchSpec{every: 2 * time.Second}
	seconds := func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1e6 {
			return fmt.Errorf(`\watch: %q is not a number of seconds`, v)
		}
		w.every = time.Duration(f * float64(time.Second))
		return nil
	}
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		var err error
		switch {
		case !ok:
			err = seconds(a)
		case name == "i" || name == "interval":
			err = seconds(val)
		case name == "c" || name == "count":
			n, cerr := strconv.Atoi(val)
			if cerr != nil || n < 1 {
				err = fmt.Errorf(`\watch: count %q is not a positive whole number`, val)
			}
			w.count = n
		default:
			err = fmt.Errorf(`\watch: unknown option %q (seconds, interval=, count=)`, a)
		}
		if err != nil {
			return w, err
		}
	}
	return w, nil
}

// watch runs text as \watch says. It returns nil after count runs, errCancelled after
// Ctrl-C (the interactive loop takes that as the normal end), or the first failure.
func (s *shell) watch(parent context.Context, text string, args []string) error {
	spec, err := parseWatch(args)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return errors.New(`\watch: no statement to run yet (type one, then \watch)`)
	}
	ctx, end := s.begin(parent) // Ctrl-C between runs ends the watch
	defer end()
	savedPager := s.pager
	s.pager = pagerOff
	defer func() { s.pager = savedPager }()
	for run := 1; ; run++ {
		fmt.Fprintf(s.out, "%s (every %gs)\n\n", time.Now().Format(time.RFC1123), spec.every.Seconds())
		if err := s.runText(ctx, text); err != nil {
			return err
		}
		_ = s.out.Flush()
		if spec.count > 0 && run >= spec.count {
			return nil
		}
		select {
		case <-ctx.Done():
			return errCancelled
		case <-time.After(spec.every):
		}
	}
}

// runText parses and runs one statement's text (no trailing ';' needed).
func (s *shell) runText(ctx context.Context, text string) error {
	text = strings.TrimSuffix(strings.TrimSpace(text), ";")
	s.lastStatement = text
	pieces := parser.Split(text)
	if len(pieces) == 0 {
		return errors.New("no statement to run")
	}
	for _, p := range pieces {
		st, err := p.Parse()
		if err != nil {
			return err
		}
		if err := s.runStatement(ctx, p.Text, st); err != nil {
			return err
		}
	}
	return nil
}
