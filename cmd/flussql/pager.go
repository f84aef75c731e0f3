package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/term"
)

// A result taller than the terminal goes through a pager, as in psql: $PAGER, else
// less -S (long lines scroll sideways instead of wrapping). Only when standard output is
// a terminal and results are not sent to a \o file; \pset pager or --no-pager turn it off.

// pagerMode is \pset pager's setting.
type pagerMode string

// The pager settings: auto (and its psql name on) pages a result taller than the terminal,
// always every result, off none.
const (
	pagerAuto   pagerMode = "auto"
	pagerAlways pagerMode = "always"
	pagerOff    pagerMode = "off"
)

// defaultPager is the pager without $PAGER.
const defaultPager = "less -S"

// pset is \pset: only the pager setting exists.
func (s *shell) pset(args []string) error {
	if len(args) == 0 || args[0] != "pager" || len(args) > 2 {
		return errors.New(`\pset knows one setting: \pset pager [on|off|auto|always]`)
	}
	if len(args) == 1 {
		if s.pager == pagerOff {
			s.pager = pagerAuto
		} else {
			s.pager = pagerOff
		}
	} else {
		switch strings.ToLower(args[1]) {
		case "on", "auto":
			s.pager = pagerAuto
		case "always":
			s.pager = pagerAlways
		case "off":
			s.pager = pagerOff
		default:
			return fmt.Errorf(`\pset pager %s: say on, off, auto or always`, args[1])
		}
	}
	switch s.pager {
	case pagerOff:
		fmt.Fprintln(s.out, "Pager usage is off.")
	case pagerAlways:
		fmt.Fprintln(s.out, "Pager is always used.")
	default:
		fmt.Fprintln(s.out, "Pager is used for long output.")
	}
	return nil
}

// startPaging sends what the shell writes from now on through a pagedOutput when a pager
// applies, and returns the function that ends it (it waits for the pager to be quit). With
// no pager it returns a function that does nothing.
func (s *shell) startPaging() func() {
	if s.pager == pagerOff || s.terminal == nil || s.outFile != nil {
		return func() {}
	}
	limit := 0
	if s.pager == pagerAuto {
		_, rows, err := term.GetSize(int(s.terminal.Fd()))
		if err != nil || rows <= 0 {
			return func() {}
		}
		limit = rows - 1 // the prompt's line
	}
	_ = s.out.Flush()
	p := &pagedOutput{limit: limit, direct: s.stdoutRaw, command: s.pagerCmd,
		terminal: s.terminal, errw: s.errw, progress: s.progress}
	saved := s.out
	s.out = bufio.NewWriterSize(p, 64<<10)
	s.paged = p
	return func() {
		_ = s.out.Flush()
		s.out, s.paged = saved, nil
		p.finish()
	}
}

// holding reports whether the result is held back to decide on the pager (nothing of it
// is on the screen yet).
func (p *pagedOutput) holding() bool {
	return p != nil && p.pipe == nil && !p.quit
}

// errPagerQuit is what writes return once the pager has been quit: the result's rows are
// not wanted any more.
var errPagerQuit = errors.New("the pager was quit")

// pagedOutput holds a result's first lines; when they pass limit it starts the pager and
// sends it everything, else finish writes them to the terminal.
type pagedOutput struct {
	limit    int
	direct   io.Writer // the terminal, when no pager runs
	command  string
	terminal *os.File
	errw     io.Writer
	progress *progress

	held  bytes.Buffer
	lines int
	cmd   *exec.Cmd
	pipe  io.WriteCloser
	quit  bool // the pager has ended or could not start
	// after are lines to write on the terminal once the pager has ended.
	after []string
}

// repeatAfter has line written on the terminal once the pager has ended, when one ran;
// p may be nil (no pager).
func (p *pagedOutput) repeatAfter(line string) {
	if p != nil && p.cmd != nil {
		p.after = append(p.after, line)
	}
}

func (p *pagedOutput) Write(b []byte) (int, error) {
	switch {
	case p.pipe != nil:
		if _, err := p.pipe.Write(b); err != nil {
			p.quit = true
			return 0, errPagerQuit
		}
		return len(b), nil
	case p.quit: // the pager could not start: straight to the terminal
		return p.direct.Write(b)
	}
	p.held.Write(b)
	p.lines += bytes.Count(b, []byte{'\n'})
	if p.lines > p.limit {
		p.start()
	}
	return len(b), nil
}

// start runs the pager (through sh, so $PAGER may carry arguments) and hands it what is
// held. When it cannot start, the output goes to the terminal and the shell says why.
func (p *pagedOutput) start() {
	p.progress.suspend(true) // the pager owns the screen now
	cmd := exec.Command("sh", "-c", p.command)
	cmd.Stdout, cmd.Stderr = p.terminal, p.terminal
	pipe, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		p.progress.suspend(false)
		fmt.Fprintf(p.errw, "flussql: cannot start the pager %q: %v (\\pset pager off turns it off)\n", p.command, err)
		p.quit = true
		_, _ = p.direct.Write(p.held.Bytes())
		p.held.Reset()
		return
	}
	p.cmd, p.pipe = cmd, pipe
	if _, err := pipe.Write(p.held.Bytes()); err != nil {
		p.quit = true
	}
	p.held.Reset()
}

// finish writes what is held to the terminal, or ends the pager's input and waits until
// it is quit.
func (p *pagedOutput) finish() {
	if p.pipe == nil {
		if p.held.Len() > 0 {
			_, _ = p.direct.Write(p.held.Bytes())
			p.held.Reset()
		}
		return
	}
	_ = p.pipe.Close()
	_ = p.cmd.Wait()
	p.progress.suspend(false)
	for _, l := range p.after {
		fmt.Fprintln(p.direct, l)
	}
}
