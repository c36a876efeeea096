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
	// Update shows a bundle in place under a display id: the cell's first
	// call with an id shows it (display_data with transient.display_id),
	// later calls replace it (update_display_data), which front ends apply
	// to every output shown under that id. Ids must be unique to what they
	// show: progress lines, live status, a timeline that grows.
	Update(id string, data Bundle, metadata map[string]any)
	// Result sets the cell's result (execute_result); at most once per cell.
	Result(data Bundle, metadata map[string]any)
	// Clear clears the cell's output (clear_output).
	Clear(wait bool)
	// Payload adds an execute_reply payload (for example a pager).
	Payload(p map[string]any)
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
