package analysis

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf16"
)

// DefaultLimit caps the decompressed size of gzip input (2 GiB).
const DefaultLimit = 2 << 30

// LoadOptions are the user's choices for Load.
type LoadOptions struct {
	Format string // "" or "auto": chosen by content
	Limit  int64  // cap on decompressed bytes; 0 means DefaultLimit
	Value  string // preferred value type; "" keeps the format's default
}

// Format is one profile format: how to recognise it and how to parse it.
// Parse gets the (decompressed) content and the file name for error messages;
// it returns an error naming the line or byte offset and what was expected.
type Format struct {
	Name     string
	Priority int                    // sniffers run by ascending priority
	Sniff    func(head []byte) bool // head is at most the first 4 KiB
	Parse    func(name string, data []byte) (*Profile, error)
}

var formats []Format

// RegisterFormat adds a format; format files call it from init.
func RegisterFormat(f Format) {
	formats = append(formats, f)
	sort.SliceStable(formats, func(i, j int) bool { return formats[i].Priority < formats[j].Priority })
}

// Formats returns the registered format names in sniffing order.
func Formats() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.Name
	}
	return out
}

func formatNamed(name string) (Format, error) {
	for _, f := range formats {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("unknown format %q (known: %v)", name, Formats())
}

// SyntaxError is bad input with its position: a 1-based line for text
// formats, or a byte offset for binary ones. Loaders return it (possibly
// wrapped) so that every message names the file, the place and what was
// expected.
type SyntaxError struct {
	File   string
	Line   int   // 1-based line; 0 when Offset is used or unknown
	Offset int64 // byte offset; -1 when unknown
	Msg    string
	Err    error // underlying cause, if any
}

// Error gives "FILE: line N: MSG[: CAUSE]" (or "byte N").
func (e *SyntaxError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, ": line %d", e.Line)
	case e.Offset >= 0:
		fmt.Fprintf(&b, ": byte %d", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying cause, if any.
func (e *SyntaxError) Unwrap() error { return e.Err }

// lineError returns a SyntaxError at a line.
func lineError(file string, line int, format string, args ...any) error {
	return &SyntaxError{File: file, Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// offsetError returns a SyntaxError at a byte offset, wrapping err.
func offsetError(file string, off int64, err error, format string, args ...any) error {
	return &SyntaxError{File: file, Offset: off, Msg: fmt.Sprintf(format, args...), Err: err}
}

// Load reads the profile at path: it decompresses gzip (at most opts.Limit
// bytes), picks the format by content unless opts.Format names one, and
// applies opts.Value. Errors name the file and, for bad content, the line or
// byte offset.
func Load(path string, opts LoadOptions) (*Profile, error) {
	data, err := readFile(path, opts.Limit)
	if err != nil {
		return nil, fmt.Errorf("load %w", err)
	}
	p, err := Parse(path, data, opts)
	if err != nil {
		return nil, fmt.Errorf("load %w", err)
	}
	return p, nil
}

// Parse is Load on content already in memory; name is used in errors and as
// the profile's Source. Gzip content is decompressed first.
func Parse(name string, data []byte, opts LoadOptions) (*Profile, error) {
	if p, ok := decodePprofGzip(data, opts); ok { // gzipped pprof, streamed (pprofstream.go)
		p.Source = name
		if err := chooseValue(name, p, opts.Value); err != nil {
			return nil, err
		}
		return p, nil
	}
	data, err := gunzip(name, data, opts.Limit)
	if err != nil {
		return nil, err
	}
	data = utf8Text(data)
	f, err := pickFormat(name, data, opts.Format)
	if err != nil {
		return nil, err
	}
	p, err := f.Parse(name, data)
	if err != nil {
		return nil, err
	}
	p.Source = name
	if err := chooseValue(name, p, opts.Value); err != nil {
		return nil, err
	}
	return p, nil
}

func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, capOf(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: read: %w", path, err)
	}
	if int64(len(data)) > capOf(limit) {
		return nil, fmt.Errorf("%s: larger than the limit of %d bytes (set limit= to raise it)", path, capOf(limit))
	}
	return data, nil
}

func capOf(limit int64) int64 {
	if limit <= 0 {
		return DefaultLimit
	}
	return limit
}

// isGzip reports whether data starts with the gzip magic bytes.
func isGzip(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
}

// gunzip decompresses gzip content (all members), refusing more than limit
// bytes of output; other content is returned as is. A gzip bomb is an error,
// not an out-of-memory kill.
func gunzip(name string, data []byte, limit int64) ([]byte, error) {
	if !isGzip(data) {
		return data, nil
	}
	cr := &countReader{r: bytes.NewReader(data)}
	zr, err := gzip.NewReader(cr)
	if err != nil {
		return nil, offsetError(name, 0, err, "expected a gzip header")
	}
	max := capOf(limit)
	out, err := readAllSized(io.LimitReader(zr, max+1), gzipSize(data, max))
	if err != nil {
		return nil, offsetError(name, cr.n, err, "expected valid gzip data (%d bytes decompressed so far)", len(out))
	}
	if int64(len(out)) > max {
		return nil, &SyntaxError{File: name, Offset: -1,
			Msg: fmt.Sprintf("gzip content exceeds the limit of %d decompressed bytes (set limit= to raise it)", max)}
	}
	return out, nil
}

// gzipSize is the decompressed size that a single-member gzip stream
// announces in its trailer (modulo 4 GiB), for a capacity hint. The trailer
// is not trusted beyond max and deflate's best ratio (1032:1), so a forged
// one cannot make us allocate more than the data could expand to.
func gzipSize(data []byte, max int64) int64 {
	if len(data) < 18 {
		return 0
	}
	return min(int64(binary.LittleEndian.Uint32(data[len(data)-4:])), max, 1032*int64(len(data)))
}

// readAllSized is io.ReadAll starting with room for hint bytes, so that a
// correct hint costs one allocation instead of a doubling series.
func readAllSized(r io.Reader, hint int64) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(int(hint) + bytes.MinRead)
	_, err := b.ReadFrom(r)
	return b.Bytes(), err
}

// countReader counts the compressed bytes gzip consumed, for error offsets.
// It is an io.ByteReader so that gzip reads it without buffering ahead.
type countReader struct {
	r *bytes.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// utf8Text converts UTF-16 text with a byte-order mark to UTF-8 and drops a
// UTF-8 byte-order mark; other data is returned as is.
func utf8Text(data []byte) []byte {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return data[3:]
	case len(data)%2 != 0:
		return data
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return fromUTF16(data[2:], binary.LittleEndian)
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return fromUTF16(data[2:], binary.BigEndian)
	}
	return data
}

func fromUTF16(data []byte, order binary.ByteOrder) []byte {
	u := make([]uint16, len(data)/2)
	for i := range u {
		u[i] = order.Uint16(data[2*i:])
	}
	return []byte(string(utf16.Decode(u)))
}

func pickFormat(name string, data []byte, want string) (Format, error) {
	if want != "" && want != "auto" {
		f, err := formatNamed(want)
		if err != nil {
			return Format{}, fmt.Errorf("%s: %w", name, err)
		}
		return f, nil
	}
	head := data
	if len(head) > 4096 {
		head = head[:4096]
	}
	for _, f := range formats {
		if f.Sniff != nil && f.Sniff(head) {
			return f, nil
		}
	}
	return Format{}, &SyntaxError{File: name, Offset: 0,
		Msg: fmt.Sprintf("expected a known profile format (%s); set format= to choose one", strings.Join(Formats(), ", "))}
}

func chooseValue(name string, p *Profile, value string) error {
	if value == "" {
		return nil
	}
	i := p.ValueIndex(value)
	if i < 0 {
		have := make([]string, len(p.ValueTypes))
		for j, vt := range p.ValueTypes {
			have[j] = vt.Type
		}
		return fmt.Errorf("%s: no value type %q (have: %s)", name, value, strings.Join(have, ", "))
	}
	p.DefaultValue = i
	return nil
}
