// Package commands is every command of proflens's language, with the glue
// that ties each seed to it, handed to the engine (package kernel) as one
// table, All. A command is one file, cmd_NAME.go, holding its Command value
// and its run function, listed in commands.go; it uses the engine and this
// package's shared files, never another command's file
// (TestCommandFilesStandAlone checks it). The other files hold what
// several commands of a seed share: views and their pictures, AVID's
// mappings and entities, the Blueprint's boxes and pattern options, phases,
// live attachments, profile stores, exports and the summary of a loaded
// profile.
//
// A command reaches the session through the engine's methods: it reads a
// profile's tree and view, sets its filter, state or picture, and keeps
// its own results (the last phases run, the cels page, the mappings
// defined, the live attachments) under keys (kernel.Key). It changes
// nothing by copying a profile: when it fails, the engine puts back what it
// read. A file the user names is written whole or not at all, and never
// removed.
package commands
