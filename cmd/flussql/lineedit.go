package main

// Line editing uses github.com/peterh/liner. Chosen over the alternatives because it is
// small, pure Go (no cgo, no libreadline), has no dependencies beyond go-runewidth, is
// maintained (v1.2.3, October 2026) and does exactly what a SQL shell needs: emacs-style
// editing, history with search (Ctrl-R) and a history file format of one entry per line,
// Ctrl-C reported as an error at the prompt (ErrPromptAborted) and Ctrl-D as io.EOF.
// Between prompts it leaves the terminal generating SIGINT, so Ctrl-C reaches the running
// statement. Its word completer (the line, the cursor → the text before the word, the
// candidates, the text after) is all tab completion needs. github.com/ergochat/readline (the maintained chzyer/readline fork) is not on
// the module proxy here; chzyer/readline itself has had no release since 2022;
// github.com/reeflective/readline is maintained but much larger (vim mode, completion
// engine) than a SQL prompt needs.

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/peterh/liner"
)

// editor is the interactive lineReader.
type editor struct {
	st      *liner.State
	history string // file, "" when there is none
	last    string
}

// historyPath is $FLUSSQL_HISTORY or ~/.flussql_history ("" when neither can be known).
func historyPath(getenv func(string) string) string {
	if p := getenv("FLUSSQL_HISTORY"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".flussql_history")
}

// newEditor puts the terminal under the line editor, with complete as its Tab completion
// (completion.go), and loads the history.
func newEditor(history string, complete liner.WordCompleter) *editor {
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	st.SetMultiLineMode(true)
	st.SetWordCompleter(complete)
	// One candidate is inserted; with several, Tab inserts their common start and a second
	// Tab lists them (as bash and psql do).
	st.SetTabCompletionStyle(liner.TabPrints)
	e := &editor{st: st, history: history}
	if history != "" {
		if f, err := os.Open(history); err == nil {
			_, _ = st.ReadHistory(f)
			f.Close()
		}
	}
	return e
}

func (e *editor) readLine(prompt string) (string, error) {
	line, err := e.st.Prompt(prompt)
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", errAborted
	}
	return line, err
}

func (e *editor) remember(entry string) {
	if entry == "" || entry == e.last {
		return
	}
	e.last = entry
	e.st.AppendHistory(entry)
	e.save()
}

// save writes the history file (private: statements may hold data).
func (e *editor) save() {
	if e.history == "" {
		return
	}
	f, err := os.OpenFile(e.history, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	_, _ = e.st.WriteHistory(f)
	_ = f.Close()
}

// close restores the terminal.
func (e *editor) close() error {
	return e.st.Close()
}
