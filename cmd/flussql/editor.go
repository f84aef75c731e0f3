package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/flussql/flussql/parser"
)

// \e, as in psql: the statement being typed — or, with none, the last one run — goes into
// a temporary file that $EDITOR (then $VISUAL, else vi) opens; when the editor exits and
// the file is not empty, the shell shows the text and runs it.

// isEditLine reports whether a line is the \e command.
func isEditLine(line string) bool {
	f := strings.Fields(line)
	return len(f) == 1 && (f[0] == `\e` || f[0] == `\edit`)
}

// editorCommand is the editor the shell starts.
func (s *shell) editorCommand() string {
	for _, v := range []string{"EDITOR", "VISUAL"} {
		if e := s.getenv(v); e != "" {
			return e
		}
	}
	return "vi"
}

// editText lets the user edit text in the editor and returns what was saved, trimmed.
func (s *shell) editText(text string) (string, error) {
	f, err := os.CreateTemp("", "flussql-*.sql")
	if err != nil {
		return "", err
	}
	path := f.Name()
	defer os.Remove(path)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	editor := s.editorCommand()
	// Through sh, so that EDITOR may carry arguments ("code --wait").
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "flussql-editor", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("the editor %q failed: %v (set $EDITOR to another one)", editor, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// edit is \e at the prompt: pending is the statement being typed, if any. The edited text
// is shown, kept in the history and run; every statement in it runs, the last one also
// without its ';'. It returns the exit code the statements earn.
func (s *shell) edit(ctx context.Context, r lineReader, pending string, src source) int {
	text := strings.TrimSpace(pending)
	if text == "" {
		text = s.lastStatement
		if text != "" {
			text += ";"
		}
	}
	edited, err := s.editText(text)
	if err != nil {
		s.errorf("ERROR: %v", err)
		return exitError
	}
	if edited == "" {
		return exitOK // saved empty: nothing to run, as psql
	}
	fmt.Fprintln(s.out, edited)
	for _, p := range parser.Split(edited + "\n") {
		r.remember(historyEntry(p.Text))
		if code := s.runPiece(ctx, p, edited+"\n", 1, src); code != exitOK {
			return code
		}
	}
	return exitOK
}
