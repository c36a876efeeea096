package analysis

import (
	"cmp"
	"fmt"
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
	// Gzipped, when set, parses gzip content (in.Data) without holding its
	// decompressed bytes. It declines (ok false) what it cannot read exactly
	// as Parse would, and the content then takes the ordinary path.
	Gzipped func(in *Input) (p *Profile, ok bool)
}

// Input is one load's content as a format's Parse sees it.
type Input struct {
	Name  string // the file as the user named it, for errors
	Data  []byte // the content
	Limit int64  // cap on decompressed bytes, for Gzipped (see LoadOptions.Limit)

	format string
}

// NewBuilder starts the profile of this input, with the given value types.
func (in *Input) NewBuilder(types ...ValueType) *Builder {
	return NewBuilder(in.format, types...)
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
	return Format{}, fmt.Errorf("unknown format %q (known: %v)", name, Formats())
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
