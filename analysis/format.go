package analysis

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format is one profile format: how to recognise it and how to parse it.
// Each format is a package under analysis/ that registers itself from init,
// as image/png registers with image.
type Format struct {
	Name     string
	Priority int                    // sniffers run by ascending priority, then name
	Sniff    func(head []byte) bool // head is at most the first 4 KiB
	// Parse reads in.Data (decompressed) into a profile built with
	// in.NewBuilder. It returns an error naming in.Name, the line or byte
	// offset and what was expected.
	Parse func(in *Input) (*Profile, error)
	// Gzipped, when set, parses gzip content (in.Data, see Unzip) without
	// holding its decompressed bytes. It declines (ok false) what it cannot
	// read exactly as Parse would, and the content then takes the ordinary
	// path; an error (a limit, the context) ends the load.
	Gzipped func(in *Input) (p *Profile, ok bool, err error)
}

// Input is one load's content as a format's Parse sees it, with the load's
// context and limits.
type Input struct {
	Name  string // the file as the user named it, for errors
	Data  []byte // the content
	Limit int64  // cap on decompressed bytes, for Gzipped (see LoadOptions.Limit)

	ctx      context.Context
	cancel   context.CancelCauseFunc
	limits   Limits
	format   string
	builders []*Builder
}

// Context returns the load's context, for loaders that work long between
// two calls of a Builder; never nil.
func (in *Input) Context() context.Context {
	if in.ctx == nil {
		return context.Background()
	}
	return in.ctx
}

// NewBuilder starts the profile of this input, with the given value types:
// its Format is the format's name, and it keeps the load's limits and
// watches its context (see Builder).
func (in *Input) NewBuilder(types ...ValueType) *Builder {
	b := NewBuilder(in.format, types...).bounded(in.ctx, in.cancel, in.Name, in.Limits())
	in.builders = append(in.builders, b)
	return b
}

// Limits returns the load's limits, for loaders that keep tables of their
// own beside the Builder's.
func (in *Input) Limits() Limits { return in.limits.orDefault() }

// Unzip returns a reader of the decompressed content of gzip in.Data, which
// fails once more than in.Limit bytes have come or the load's context has
// ended: for Gzipped, which streams the content instead of holding it.
func (in *Input) Unzip() (io.Reader, error) {
	zr, err := gzip.NewReader(bytes.NewReader(in.Data))
	if err != nil {
		return nil, err
	}
	return &capReader{r: ctxReader{in.Context(), zr}, n: in.Limit}, nil
}

// err returns the first error of the input's builders, or the context's.
func (in *Input) err() error {
	for _, b := range in.builders {
		if b.err != nil {
			return b.err
		}
	}
	if err := in.Context().Err(); err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	return nil
}

var formats []Format

// RegisterFormat adds a format; format packages call it from init.
func RegisterFormat(f Format) {
	formats = append(formats, f)
	slices.SortFunc(formats, func(a, b Format) int {
		return cmp.Or(cmp.Compare(a.Priority, b.Priority), strings.Compare(a.Name, b.Name))
	})
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
	return Format{}, fmt.Errorf("unknown format %q (known: %s)", name, strings.Join(Formats(), ", "))
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
	if err := notProfileError(name, head); err != nil {
		return Format{}, err
	}
	for _, f := range formats {
		if f.Sniff != nil && f.Sniff(head) {
			return f, nil
		}
	}
	return Format{}, &SyntaxError{File: name, Offset: 0,
		Msg: fmt.Sprintf("expected a known profile format (%s); set format= to choose one", strings.Join(Formats(), ", "))}
}
