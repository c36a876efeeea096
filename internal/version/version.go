// Package version holds proflens's version, shared by the binary
// (`proflens version`), the kernel's language_info and the `version` command.
package version

// Version is proflens's semantic version.
const Version = "0.1.0"

// String returns the line `proflens version` prints, without a newline.
func String() string { return "proflens " + Version }
