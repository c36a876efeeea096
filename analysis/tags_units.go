package analysis

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The units of numeric labels, as pprof's measurement package knows them:
// a kind of unit is a list of units with their aliases and factors, and
// its default unit.
type tagUnit struct {
	name    string
	aliases []string
	factor  float64
}

type tagUnitKind struct {
	units []tagUnit
	def   tagUnit
}

var tagUnitKinds = []tagUnitKind{{
	units: []tagUnit{
		{"B", []string{"b", "byte"}, 1},
		{"kB", []string{"kb", "kbyte", "kilobyte"}, 1 << 10},
		{"MB", []string{"mb", "mbyte", "megabyte"}, 1 << 20},
		{"GB", []string{"gb", "gbyte", "gigabyte"}, 1 << 30},
		{"TB", []string{"tb", "tbyte", "terabyte"}, 1 << 40},
		{"PB", []string{"pb", "pbyte", "petabyte"}, 1 << 50},
	},
	def: tagUnit{"B", []string{"b", "byte"}, 1},
}, {
	units: []tagUnit{
		{"ns", []string{"ns", "nanosecond"}, 1},
		{"us", []string{"μs", "us", "microsecond"}, 1e3},
		{"ms", []string{"ms", "millisecond"}, 1e6},
		{"s", []string{"s", "sec", "second"}, 1e9},
		{"hrs", []string{"hour", "hr"}, 3600e9},
	},
	def: tagUnit{"s", nil, 1e9},
}, {
	units: []tagUnit{
		{"n*GCU", []string{"nanogcu"}, 1e-9}, {"u*GCU", []string{"microgcu"}, 1e-6},
		{"m*GCU", []string{"milligcu"}, 1e-3}, {"GCU", []string{"gcu"}, 1},
		{"k*GCU", []string{"kilogcu"}, 1e3}, {"M*GCU", []string{"megagcu"}, 1e6},
		{"G*GCU", []string{"gigagcu"}, 1e9}, {"T*GCU", []string{"teragcu"}, 1e12},
		{"P*GCU", []string{"petagcu"}, 1e15},
	},
	def: tagUnit{"GCU", nil, 1},
}}

// find returns the unit of this kind that the text names ("kb", "bytes",
// "Milliseconds"), or nil.
func (k *tagUnitKind) find(text string) *tagUnit {
	text = strings.ToLower(text)
	if utf8.RuneCountInString(text) > 2 {
		text = strings.TrimSuffix(text, "s")
	}
	for i := range k.units {
		if slices.Contains(k.units[i].aliases, text) {
			return &k.units[i]
		}
	}
	return nil
}

// scaleUnit converts v from unit from to unit to, as pprof's
// measurement.Scale does: a unit of a known kind converts to to (or to the
// kind's default when to is not of that kind), and returns the canonical
// name of the unit it converted to; an unknown unit leaves v as it is,
// named to (or "" for to = count, sample, unit).
func scaleUnit(v int64, from, to string) (float64, string) {
	if v < 0 && -v > 0 {
		x, u := scaleUnit(-v, from, to)
		return -x, u
	}
	for i := range tagUnitKinds {
		k := &tagUnitKinds[i]
		f := k.find(from)
		if f == nil {
			continue
		}
		x := float64(v) * f.factor
		if t := k.find(to); t != nil {
			return x / t.factor, t.name
		}
		return x / k.def.factor, k.def.name
	}
	switch to {
	case "count", "sample", "unit", "minimum", "auto":
		return float64(v), ""
	}
	return float64(v), to
}

// NumLabel records that label key of the samples added is numeric, its
// value here in unit ("" when the value has none): loaders of formats with
// numeric labels (pprof's num_label) call it for each, and the profile's
// NumLabelUnits are then those pprof infers: the first unit a key's values
// carry, else "bytes" for "alignment" and "request", else the key itself.
func (b *Builder) NumLabel(key, unit string) {
	if b.numUnits == nil {
		b.numUnits = map[string]string{}
	}
	if u, ok := b.numUnits[key]; !ok || u == "" {
		b.numUnits[key] = unit
	}
}

// inferUnits returns the NumLabelUnits of the keys NumLabel recorded.
func inferUnits(first map[string]string) map[string]string {
	if first == nil {
		return nil
	}
	out := make(map[string]string, len(first))
	for k, u := range first {
		switch {
		case u != "":
			out[k] = u
		case k == "alignment" || k == "request":
			out[k] = "bytes"
		default:
			out[k] = k
		}
	}
	return out
}
