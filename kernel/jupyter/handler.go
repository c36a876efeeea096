package jupyter

import "context"

// Bundle is a MIME bundle: mime type → data (string for text types, any JSON
// value for application/json). Every bundle proflens sends has "text/plain".
type Bundle map[string]any

// Output receives what one execution produces, in order. The protocol layer
// turns each call into an iopub message parented to the execute_request; the
// run mode writes them to stdout and files. Implementations are safe for use
// by one goroutine at a time.
type Output interface {
	// Stream writes text to "stdout" or "stderr".
	Stream(name, text string)
	// Display shows a bundle (display_data); metadata may be nil.
	Display(data Bundle, metadata map[string]any)
	// Result sets the cell's result (execute_result); at most once per cell.
	Result(data Bundle, metadata map[string]any)
	// Clear clears the cell's output (clear_output).
	Clear(wait bool)
	// Payload adds an execute_reply payload (for example a pager).
	Payload(p map[string]any)
}

// Updater is an Output that can show a bundle under a display id and later
// replace it in place: display_data whose transient.display_id is id, then
// update_display_data, which front ends apply to every output of that id
// (so ids must be unique in the kernel's lifetime). The cell's output given
// to Handler.Execute implements it; other Outputs need not.
// https://jupyter-client.readthedocs.io/en/stable/messaging.html#update-display-data
type Updater interface {
	DisplayID(id string, data Bundle, metadata map[string]any)
	Update(id string, data Bundle, metadata map[string]any)
}

// Error is an error with Jupyter's fields. A handler returns one (or any
// error, which becomes ename "Error") to make execute_reply status "error".
type Error struct {
	Name      string   // ename, e.g. "UsageError"
	Value     string   // evalue: one line saying what was wrong and what to do
	Traceback []string // defaults to ["Name: Value"]
}

func (e *Error) Error() string { return e.Name + ": " + e.Value }

// LanguageInfo is kernel_info_reply's language_info.
type LanguageInfo struct {
	Name          string `json:"name"`
	Version       string `json:"version"`
	Mimetype      string `json:"mimetype"`
	FileExtension string `json:"file_extension"`
	PygmentsLexer string `json:"pygments_lexer,omitempty"`
	// CodemirrorMode names the editor mode front ends load for cells; an
	// unknown name makes the classic Notebook request a file that is not there.
	CodemirrorMode string `json:"codemirror_mode,omitempty"`
}

// Completion is the content of a complete_reply.
type Completion struct {
	Matches     []string
	CursorStart int // in Unicode code points, as the protocol counts
	CursorEnd   int
	Metadata    map[string]any
}

// Handler is what the protocol layer serves: the language. It knows nothing
// about sockets. Execute is called from one goroutine at a time; ctx is
// cancelled when the user interrupts. The other methods may be called while
// Execute runs (from another front end) and must not block on it.
type Handler interface {
	Info() (impl, version, banner string, lang LanguageInfo)
	Execute(ctx context.Context, code string, out Output) error
	Complete(code string, cursor int) Completion
	// Inspect returns a bundle for the word at cursor, or nil when there is nothing.
	Inspect(code string, cursor int, detail int) Bundle
	// IsComplete returns "complete", "incomplete", "invalid" or "unknown", and the indent to use.
	IsComplete(code string) (status, indent string)
}
