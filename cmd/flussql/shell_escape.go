package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// \! [command], as psql's: run a command through sh (with none, $SHELL, else sh) with the
// shell's terminal, and come back. Its output goes where results go (the \o file too); a
// command that fails says with which status, which is no error of the session.
func (s *shell) shellEscape(parent context.Context, command string) error {
	ctx, end := s.begin(parent) // Ctrl-C reaches the command itself on a terminal; this ends it otherwise
	defer end()
	var cmd *exec.Cmd
	if command == "" {
		sh := s.getenv("SHELL")
		if sh == "" {
			sh = "sh"
		}
		cmd = exec.CommandContext(ctx, sh)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
	}
	if err := s.out.Flush(); err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = s.out, s.errw
	if s.terminal != nil && s.outFile == nil {
		cmd.Stdin, cmd.Stdout = os.Stdin, s.terminal
	}
	err := cmd.Run()
	_ = s.out.Flush()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return errCancelled
	case errors.As(err, &exit):
		fmt.Fprintf(s.errw, "\\!: the command exited with status %d\n", exit.ExitCode())
		return nil
	}
	return fmt.Errorf(`\!: %w`, err)
}
