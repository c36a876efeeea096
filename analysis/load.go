package analysis

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
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
	p, err := parse(name, data, opts)
	if err != nil {
		return nil, err
	}
	p.Source = name
	if err := chooseValue(name, p, opts.Value); err != nil {
		return nil, err
	}
	return p, nil
}

func parse(name string, data []byte, opts LoadOptions) (*Profile, error) {
	if isGzip(data) {
		for _, f := range formats {
			if f.Gzipped != nil && (opts.Format == "" || opts.Format == "auto" || opts.Format == f.Name) {
				if p, ok := f.Gzipped(&Input{Name: name, Data: data, Limit: capOf(opts.Limit), format: f.Name}); ok {
					return p, nil
				}
			}
		}
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
	return f.Parse(&Input{Name: name, Data: data, Limit: capOf(opts.Limit), format: f.Name})
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
		return nil, OffsetError(name, 0, err, "expected a gzip header")
	}
	max := capOf(limit)
	out, err := readAllSized(io.LimitReader(zr, max+1), gzipSize(data, max))
	if err != nil {
		return nil, OffsetError(name, cr.n, err, "expected valid gzip data (%d bytes decompressed so far)", len(out))
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
