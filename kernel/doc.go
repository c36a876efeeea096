// Package kernel is proflens's command language, the last stage of the
// pipeline: it parses cells into commands, binds them against a registry,
// runs them on a Session of loaded profiles, and answers with MIME bundles
// (tables, text, SVG pictures) through jupyter.Output. It implements
// jupyter.Handler (Interp) for the protocol layer in kernel/jupyter, and
// serves `proflens run` without Jupyter.
//
// A command is a Command value in a file of its own, cmd_NAME.go, listed in
// commands.go, the table registration happens from. Its usage line, help
// (one model rendered into plain text, markdown and HTML), usage errors,
// completion and inspect come from that value, and a test runs its
// examples. Before Run, the registry binds the words (profile names,
// arguments, key=value options, "as NAME" anywhere) and resolves the
// profiles the command reads: Call.Profile, or BASE and NEW in
// Call.Profiles. A command that reads a call tree (Command.Tree) takes
// focus, ignore, hide and value, and reads Call.Tree and Call.View: the
// profile's tree under its standing filter (the filter command) and the
// call's own, and its compacted view with the profile's granularity state.
// Commands use shared helpers only, never each other's code: options.go,
// filter.go, view.go, picture.go, picturebundle.go, exports.go, summary.go,
// phases.go, phaseshow.go, avid.go, writefile.go, output.go, progress.go,
// settings.go (TestCommandFilesStandAlone checks it). Adding a command is
// one new file and one line in commands.go.
//
// Around the commands, the interpreter expands parameters ($NAME, set by
// the set command or given in the environment; expand.go) in every
// statement before binding it, and holds each cell's outputs to the
// session's budget (budget.go).
//
// Invariants: the session survives every failed, interrupted or panicking
// command; a cell's outputs stay within Settings.MaxOutput plus short notes; completion and inspect never wait for a running cell (they read
// the profile names through a snapshot); the same cell gives the same bytes
// on every run; a file the user names is written whole or not at all, and
// never removed.
package kernel
