package kernel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/proflens/proflens/internal/version"
	"github.com/proflens/proflens/kernel/jupyter"
)

// Interp is the proflens language: it runs cells against one Session and
// answers completion, inspection and is_complete. It implements
// jupyter.Handler. Execute runs one cell at a time; Complete, Inspect and
// IsComplete may be called from other goroutines and never wait for a
// running cell.
type Interp struct {
	mu     sync.Mutex // held while a cell runs: commands own the session then
	s      *Session
	opener jupyter.WidgetOpener // the running cell's output, when it opens widgets
	Log    *slog.Logger         // where recovered panics are logged; slog.Default() when nil
}

var _ jupyter.Handler = (*Interp)(nil)

// New returns an interpreter of the commands of t with a fresh session
// resolving relative paths against dir.
func New(dir string, t *CommandTable) *Interp { return NewInterp(NewSession(dir, t)) }

// NewInterp returns an interpreter over an existing session.
func NewInterp(s *Session) *Interp { return &Interp{s: s} }

// Session returns the interpreter's session. Use it only when no cell runs.
func (in *Interp) Session() *Session { return in.s }

// LanguageInfo is the language_info of kernel_info_reply.
func LanguageInfo() jupyter.LanguageInfo {
	return jupyter.LanguageInfo{
		Name:          "proflens",
		Version:       version.Version,
		Mimetype:      "text/x-proflens",
		FileExtension: ".plens",
		// The language is shell-like (words, "quotes", # comments, trailing
		// \), so the shell's highlighters fit it; nbconvert and the classic
		// Notebook otherwise look for a "proflens" mode that does not exist.
		PygmentsLexer:  "bash",
		CodemirrorMode: "shell",
	}
}

// Info implements jupyter.Handler.
func (in *Interp) Info() (impl, ver, banner string, lang jupyter.LanguageInfo) {
	return "proflens", version.Version,
		version.String() + " — a kernel for reading program profiles; type help", LanguageInfo()
}

// Execute implements jupyter.Handler: it runs the cell's commands in
// order and stops at the first error, which it returns as a *jupyter.Error
// (prefixed with its line when the cell has several lines).
func (in *Interp) Execute(ctx context.Context, code string, out jupyter.Output) error {
	line, err := in.Run(ctx, code, out)
	if err == nil {
		return nil
	}
	if strings.Contains(strings.TrimSpace(code), "\n") {
		err = &jupyter.Error{Name: err.Name, Value: fmt.Sprintf("line %d: %s", line, err.Value)}
	}
	return err
}

// Run runs the cell's commands in order, stopping at the first error. It
// returns the error and the 1-based line of the statement that failed.
func (in *Interp) Run(ctx context.Context, code string, out jupyter.Output) (int, *jupyter.Error) {
	stmts, err := Parse(code)
	if err != nil {
		var se *SyntaxError
		errors.As(err, &se)
		return se.Line, &jupyter.Error{Name: "SyntaxError", Value: err.Error()}
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.opener, _ = out.(jupyter.WidgetOpener)
	out = withBudget(out, &in.s.Settings, ctx)
	for _, st := range stmts {
		if ctx.Err() != nil {
			return st.Line, interrupted(st.Line)
		}
		if err := in.stmt(ctx, st, out); err != nil {
			return st.Line, err
		}
	}
	return 0, nil
}

func interrupted(line int) *jupyter.Error {
	return &jupyter.Error{Name: "KeyboardInterrupt", Value: fmt.Sprintf("interrupted at line %d; the session is intact", line)}
}

// stmt runs one statement: a help request CMD? or a command.
func (in *Interp) stmt(ctx context.Context, st Stmt, out jupyter.Output) *jupyter.Error {
	st, err := expandStmt(st, in.s.Param)
	if err != nil {
		return &jupyter.Error{Name: "NameError", Value: err.Error()}
	}
	if name, ok := helpWord(st.Words[0]); ok && in.s.table.Lookup(name) != nil {
		out.Payload(pager(in.s.table.Lookup(name)))
		return nil
	}
	if sync := in.s.table.hooks.Sync; sync != nil {
		sync(ctx, in.s) // work done in the background joins the session
	}
	c, err := bind(st, in.s)
	if err != nil {
		return toJupyter(ctx, st.Line, err)
	}
	c.Ctx, c.Out, c.interp, c.opener = ctx, out, in, in.opener
	return toJupyter(ctx, st.Line, in.call(c))
}

// call runs the command, turning a panic into an InternalError. When the
// command fails (an error, an interrupt, a panic), the profiles it read are
// put back as they were: a command's changes are all or nothing.
func (in *Interp) call(c *Call) (err error) {
	var was []saved
	defer func() {
		if r := recover(); r != nil {
			log := in.Log
			if log == nil {
				log = slog.Default()
			}
			log.Error("command panicked", "command", c.Cmd.Name, "line", c.Line, "panic", r, "stack", string(debug.Stack()))
			err = &jupyter.Error{Name: "InternalError",
				Value: fmt.Sprintf("%s failed inside proflens (%v); the session is intact, please report this", c.Cmd.Name, r)}
		}
		if err != nil {
			restore(was)
		}
	}()
	if err := c.resolve(); err != nil {
		return err
	}
	was = save(c.Profiles)
	if err := c.filterTree(); err != nil {
		return err
	}
	return c.Cmd.Run(c)
}

// toJupyter turns a command's error into a Jupyter error with a one-line
// message.
func toJupyter(ctx context.Context, line int, err error) *jupyter.Error {
	if err == nil {
		return nil
	}
	var je *jupyter.Error
	switch {
	case errors.As(err, &je):
		return je
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return interrupted(line)
	}
	msg := strings.Join(strings.Fields(err.Error()), " ")
	return &jupyter.Error{Name: "Error", Value: msg}
}
