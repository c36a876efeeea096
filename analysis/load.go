package analysis

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/proflens/proflens/internal/bounded"
)

// DefaultLimit caps the decompressed size of gzip input (2 GiB).
const DefaultLimit = 2 << 30

// LoadOptions are the user's choices for Load.
type LoadOptions struct {
	Format string // "" or "auto": chosen by content
	Limit  int64  // cap on decompressed bytes; 0 means DefaultLimit
	Value  string // preferred value type; "" keeps the format's default
	Limits Limits // caps on the model; zero fields mean DefaultLimits
	// Profile chooses the recording of a file that holds several (a
	// speedscope file's profiles): an index, a name, or "all"; "" for the
	// format's default (the file's active one).
	Profile string
}

// Load reads the profile at path: it decompresses gzip (at most opts.Limit
// bytes), picks the format by content unless opts.Format names one, and
// applies opts.Value. Errors name the file and, for bad content, the line or
// byte offset. Reading, decoding and building stop soon after ctx ends (a
// named pipe without a writer included), with an error wrapping ctx.Err();
// a model that would pass opts.Limits is refused with a *LimitError.
func Load(ctx context.Context, path string, opts LoadOptions) (*Profile, error) {
	data, err := readFile(ctx, path, capOf(opts.Limit))
	if err != nil {
		return nil, fmt.Errorf("load %w", err)
	}
	p, err := Parse(ctx, path, data, opts)
	if err != nil {
		return nil, fmt.Errorf("load %w", err)
	}
	return p, nil
}

// Parse is Load on content already in memory; name is used in errors and as
// the profile's Source. Gzip content is decompressed first. The profile is
// at Functions; At gives it at the granularities its file allows.
func Parse(ctx context.Context, name string, data []byte, opts LoadOptions) (*Profile, error) {
	p, err := parse(ctx, name, data, opts)
	if err != nil {
		return nil, err
	}
	p.Source = name
	if err := chooseValue(name, p, opts.Value); err != nil {
		return nil, err
	}
	if opts.Value == "" {
		nonZeroDefault(p)
	}
	notePlausibility(p)
	noteNegative(p)
	return p.At(Functions), nil
}

func parse(ctx context.Context, name string, data []byte, opts LoadOptions) (*Profile, error) {
	// A builder that fails cancels ctx, so that whatever watches ctx (line
	// readers, decompression) stops too.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	input := func(f Format, data []byte) *Input {
		return &Input{Name: name, Data: data, Limit: capOf(opts.Limit), Profile: opts.Profile, ctx: ctx, cancel: cancel, limits: opts.Limits, format: f.Name}
	}
	if isGzip(data) {
		for _, f := range formats {
			if f.Gzipped != nil && (opts.Format == "" || opts.Format == "auto" || opts.Format == f.Name) {
				in := input(f, data)
				p, ok, err := f.Gzipped(in)
				if err == nil {
					err = in.err()
				}
				if err != nil || ok {
					return p, err
				}
			}
		}
	}
	data, err := gunzip(ctx, name, data, opts.Limit)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, &SyntaxError{File: name, Offset: 0, Msg: "expected a profile, found an empty file"}
	}
	data = utf8Text(data)
	f, err := pickFormat(name, data, opts.Format)
	if err != nil {
		return nil, err
	}
	in := input(f, data)
	p, err := f.Parse(in)
	if berr := in.err(); berr != nil {
		return nil, berr // a limit or the context: the format's own error, if any, follows from it
	}
	return p, err
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
// not an out-of-memory kill, and decompression stops when ctx ends.
func gunzip(ctx context.Context, name string, data []byte, limit int64) ([]byte, error) {
	if !isGzip(data) {
		return data, nil
	}
	cr := &countReader{r: bytes.NewReader(data)}
	zr, err := gzip.NewReader(cr)
	if err != nil {
		return nil, OffsetError(name, 0, err, "expected a gzip header")
	}
	max := capOf(limit)
	out, err := bounded.ReadAll(ctxReader{ctx, zr}, max, gzipSize(data, max))
	var tl *bounded.TooLarge
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s: %w", name, ctx.Err())
	case errors.As(err, &tl):
		return nil, &SyntaxError{File: name, Offset: -1,
			Msg: fmt.Sprintf("gzip content exceeds the limit of %d decompressed bytes (set limit= to raise it)", max)}
	case err != nil:
		return nil, OffsetError(name, cr.n, err, "expected valid gzip data")
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
