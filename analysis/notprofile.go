package analysis

import (
	"bytes"
	"fmt"
)

// notProfile is a kind of file that users load by mistake, recognised by
// its first bytes, and what to do instead.
type notProfile struct {
	magic []byte
	at    int    // offset of magic
	what  string // "a PNG image"
	hint  string // "" or what to load instead
}

// notProfiles are checked before the formats' sniffers, so that such a file
// is named instead of failing as a malformed profile (binary content would
// otherwise reach the pprof decoder).
var notProfiles = []notProfile{
	{magic: []byte("\x89PNG\r\n\x1a\n"), what: "a PNG image"},
	{magic: []byte("\xff\xd8\xff"), what: "a JPEG image"},
	{magic: []byte("GIF8"), what: "a GIF image"},
	{magic: []byte("RIFF"), what: "a RIFF file (WebP, WAV or AVI)"},
	{magic: []byte("%PDF-"), what: "a PDF document"},
	{magic: []byte("PK\x03\x04"), what: "a ZIP archive (also .jar, .docx, Instruments .trace.zip)", hint: "extract the profile from it first"},
	{magic: []byte("ustar"), at: 257, what: "a tar archive", hint: "extract the profile from it first"},
	{magic: []byte("7z\xbc\xaf\x27\x1c"), what: "a 7-Zip archive", hint: "extract the profile from it first"},
	{magic: []byte("\xfd7zXZ\x00"), what: "xz-compressed data", hint: "decompress it first (proflens reads gzip itself)"},
	{magic: []byte("BZh"), what: "bzip2-compressed data", hint: "decompress it first (proflens reads gzip itself)"},
	{magic: []byte("\x28\xb5\x2f\xfd"), what: "zstd-compressed data", hint: "decompress it first (proflens reads gzip itself)"},
	{magic: []byte("\x7fELF"), what: "an ELF executable or library", hint: "load the profile, not the program"},
	{magic: []byte("MZ"), what: "a Windows executable", hint: "load the profile, not the program"},
	{magic: []byte("\xcf\xfa\xed\xfe"), what: "a Mach-O executable", hint: "load the profile, not the program"},
	{magic: []byte("PERFILE2"), what: "a perf.data file", hint: "load the text that `perf script` prints from it"},
	{magic: []byte("JAVA PROFILE 1.0.1\x00"), what: "a binary hprof heap dump", hint: "proflens reads hprof's text CPU output (cpu=samples or cpu=times)"},
	{magic: []byte("JAVA PROFILE 1.0.2\x00"), what: "a binary hprof heap dump", hint: "proflens reads hprof's text CPU output (cpu=samples or cpu=times)"},
	{magic: []byte("SQLite format 3\x00"), what: "an SQLite database"},
	{magic: []byte("<!DOCTYPE html"), what: "an HTML page", hint: "save the profile itself, not the page that shows it"},
	{magic: []byte("<html"), what: "an HTML page", hint: "save the profile itself, not the page that shows it"},
	{magic: []byte("<svg"), what: "an SVG image", hint: "load the profile the picture was drawn from"},
	{magic: []byte("<?xml"), what: "an XML document"},
}

// notProfileError returns the error for a file that looks like a known
// non-profile file, or nil.
func notProfileError(name string, head []byte) error {
	markup := bytes.ToLower(bytes.TrimLeft(head, " \t\r\n"))
	binary := bytes.IndexByte(head, 0) >= 0
	for _, k := range notProfiles {
		h, magic := head, k.magic
		switch {
		case magic[0] == '<':
			h, magic = markup, bytes.ToLower(magic) // after white space, in any case
		case len(magic) < 4 && !binary:
			continue // "MZ" or "BZh" may start a line of text
		}
		if len(h) < k.at || !bytes.HasPrefix(h[k.at:], magic) {
			continue
		}
		msg := fmt.Sprintf("expected a profile, found %s", k.what)
		if k.hint != "" {
			msg += "; " + k.hint
		}
		return &SyntaxError{File: name, Offset: 0, Msg: msg}
	}
	if isMarkup(markup) {
		return &SyntaxError{File: name, Offset: 0, Msg: "expected a profile, found HTML or XML markup"}
	}
	return nil
}

// isMarkup reports whether text starts with a tag and closes one; a
// folded line may start with "<module>" or "<unknown>", but closes none.
func isMarkup(text []byte) bool {
	return len(text) > 1 && text[0] == '<' && 'a' <= text[1] && text[1] <= 'z' && bytes.Contains(text, []byte("</"))
}
