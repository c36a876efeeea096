package analysis

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// TagFilter selects samples by their labels as pprof's -tagfocus and
// -tagignore do (github.com/google/pprof internal/driver):
//
//   - "KEY=RE1,RE2": the sample has string label KEY with a value that
//     some RE matches;
//   - "RE1,RE2": for every RE, some string label "key:value" matches it;
//   - "KEY=RANGE" or "RANGE": the sample has numeric label KEY (without
//     KEY: any numeric label) with a value in RANGE, which is "N", "N:",
//     ":N" or "N:M", each N a number with an optional unit ("64kb", "2ms");
//     values are compared in the unit of the range's first number, and
//     labels in another kind of unit never match.
type TagFilter struct {
	text  string
	key   string
	res   []*regexp.Regexp // string labels
	num   *numRange        // numeric labels, instead of res
	Range bool             // the filter is numeric: pprof says "interpreted as range"
}

// numRange is a range of numeric label values, both ends in unit.
type numRange struct {
	lo, hi       float64
	hasLo, hasHi bool
	unit         string
}

// rangeNumber is pprof's tagFilterRangeRx: a number and its unit.
var rangeNumber = regexp.MustCompile("([+-]?[[:digit:]]+)([[:alpha:]]+)?")

// ParseTagFilter reads a tagfocus or tagignore value; "" gives nil.
func ParseTagFilter(s string) (*TagFilter, error) {
	if s == "" {
		return nil, nil
	}
	f := &TagFilter{text: s}
	value := s
	if k, v, ok := strings.Cut(s, "="); ok {
		f.key, value = k, v
	}
	if f.num = parseRange(value); f.num != nil {
		f.Range = true
		return f, nil
	}
	for _, part := range strings.Split(value, ",") {
		re, err := regexp.Compile(part)
		if err != nil {
			return nil, fmt.Errorf("tag filter %q: %w", s, err)
		}
		f.res = append(f.res, re)
	}
	return f, nil
}

// String returns the filter as written.
func (f *TagFilter) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

// parseRange reads "N", "N:", ":N" or "N:M"; nil when value is none of
// these (it is then a list of regular expressions).
func parseRange(value string) *numRange {
	m := rangeNumber.FindAllStringSubmatch(value, 2)
	if len(m) == 0 {
		return nil
	}
	v, err := strconv.ParseInt(m[0][1], 10, 64)
	if err != nil {
		return nil
	}
	first, unit := scaleUnit(v, m[0][2], m[0][2])
	r := &numRange{unit: unit}
	switch {
	case len(m) == 1 && value == m[0][0]:
		r.lo, r.hi, r.hasLo, r.hasHi = first, first, true, true
	case len(m) == 1 && value == m[0][0]+":":
		r.lo, r.hasLo = first, true
	case len(m) == 1 && value == ":"+m[0][0]:
		r.hi, r.hasHi = first, true
	case len(m) == 2 && value == m[0][0]+":"+m[1][0]:
		w, err := strconv.ParseInt(m[1][1], 10, 64)
		second, unit2 := scaleUnit(w, m[1][2], unit)
		if err != nil || unit2 != unit {
			return nil
		}
		r.lo, r.hi, r.hasLo, r.hasHi = first, second, true, true
	default:
		return nil
	}
	return r
}

// contains reports whether v, in unit u, lies in the range.
func (r *numRange) contains(v int64, u string) bool {
	x, unit := scaleUnit(v, u, r.unit)
	return unit == r.unit && (!r.hasLo || x >= r.lo) && (!r.hasHi || x <= r.hi)
}

// Match reports whether a sample with labels passes the filter as a
// tagfocus (a tagignore drops the samples that match). units are the
// profile's NumLabelUnits.
func (f *TagFilter) Match(labels map[string][]string, units map[string]string) bool {
	if f.num != nil {
		for key, vals := range labels {
			if unit, ok := units[key]; ok && (f.key == "" || key == f.key) && f.numMatch(vals, unit) {
				return true
			}
		}
		return false
	}
	if f.key != "" {
		for _, v := range stringValues(labels[f.key], units, f.key) {
			for _, re := range f.res {
				if re.MatchString(v) {
					return true
				}
			}
		}
		return false
	}
next:
	for _, re := range f.res {
		for key, vals := range labels {
			for _, v := range stringValues(vals, units, key) {
				if re.MatchString(key + ":" + v) {
					continue next
				}
			}
		}
		return false
	}
	return true
}

// numMatch reports whether a numeric value among vals lies in the range.
func (f *TagFilter) numMatch(vals []string, unit string) bool {
	for _, s := range vals {
		if v, ok := numericValue(s); ok && f.num.contains(v, unit) {
			return true
		}
	}
	return false
}

// stringValues returns the string values of a label: all of them, but
// for a numeric key only those that are no number.
func stringValues(vals []string, units map[string]string, key string) []string {
	if _, numeric := units[key]; !numeric {
		return vals
	}
	var out []string
	for _, s := range vals {
		if _, ok := numericValue(s); !ok {
			out = append(out, s)
		}
	}
	return out
}

// numericValue reads a numeric label value as Labels writes it: "N" or
// "N unit".
func numericValue(s string) (int64, bool) {
	n, _, _ := strings.Cut(s, " ")
	v, err := strconv.ParseInt(n, 10, 64)
	return v, err == nil
}
