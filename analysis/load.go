package analysis

import (
	"fmt"
	"sort"
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
	Priority int                   // sniffers run by ascending priority
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
