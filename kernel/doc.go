// Package kernel is the engine of proflens's command language, the last
// stage of the pipeline: it parses cells into statements (parse.go), binds
// them against a table of commands (bind.go), runs them on a Session of
// loaded profiles, and answers with MIME bundles (tables, text, SVG
// pictures) through jupyter.Output, within the session's output budget
// (budget.go). It implements jupyter.Handler (Interp) for the protocol layer
// in kernel/jupyter, and serves `proflens run` without Jupyter.
//
// The engine has no command of its own. A command is a Command value; the
// program hands the engine one CommandTable of them (New, NewSession), as
// cmd/proflens does with kernel/commands.All. A command's usage line, help
// (one model rendered into plain text, markdown and HTML; help.go), usage
// errors, completion and inspect (complete.go) come from its value. Before
// Run, the engine binds the words (profile names, arguments, key=value
// options, "as NAME" anywhere) and resolves the profiles the command reads:
// Call.Profile, or BASE and NEW in Call.Profiles. A command that reads a
// call tree (Command.Tree) takes focus, ignore, hide and value (filter.go)
// and granularity (granularity.go), and reads Call.Tree and Call.View: the
// profile's tree at the call's granularity under its standing filter and
// the call's own, and its compacted view with the profile's granularity
// state.
//
// A profile (Loaded) keeps its tree, filter, recursion, mapping,
// granularity state, cached view and last picture behind methods, and what
// commands keep beside them under typed keys (Key). When a command fails,
// is interrupted or panics, the engine puts every profile it read back as
// it was: a command's changes are all or nothing.
//
// Around the commands, the interpreter expands parameters ($NAME, set by
// the set command or given in the environment; expand.go) in every
// statement before binding it, and runs the table's Sync hook, where work
// done in the background (live windows) joins the session in the cell's
// goroutine, so commands never see a profile change under them.
//
// Invariants: the session survives every failed, interrupted or panicking
// command; a cell's outputs stay within Settings.MaxOutput plus short
// notes; completion and inspect never wait for a running cell (they read
// the profile names through a snapshot); the same cell gives the same bytes
// on every run.
package kernel
