package analysis

import (
	"strconv"
	"strings"
)

// scale is one step of a unit ladder: values of at least Factor base units
// are shown divided by Factor with the suffix Name.
type scale struct {
	Name   string
	Factor float64
}

var (
	timeScales = []scale{{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"hrs", 3600e9}}
	byteScales = []scale{{"B", 1}, {"kB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40}}
	// unitBase maps a profile unit to its ladder and its size in base units.
	unitBase = map[string]struct {
		ladder []scale
		factor float64
	}{
		"nanoseconds":  {timeScales, 1},
		"ns":           {timeScales, 1},
		"microseconds": {timeScales, 1e3},
		"us":           {timeScales, 1e3},
		"milliseconds": {timeScales, 1e6},
		"ms":           {timeScales, 1e6},
		"seconds":      {timeScales, 1e9},
		"s":            {timeScales, 1e9},
		"bytes":        {byteScales, 1},
		"b":            {byteScales, 1},
	}
)

// FormatValue shows v, in unit, the way pprof does: times and sizes scaled
// to a readable unit with two decimals unless they are ".00" ("1.70s",
// "9.51MB", "10ms", "0"), other units as plain integers. The result depends only on its arguments.
func FormatValue(v int64, unit string) string {
	u, ok := unitBase[strings.ToLower(unit)]
	if !ok {
		return strconv.FormatInt(v, 10)
	}
	x := float64(v) * u.factor
	ax := x
	if ax < 0 {
		ax = -ax
	}
	s := u.ladder[0]
	for _, c := range u.ladder[1:] {
		if ax >= c.Factor {
			s = c
		}
	}
	if v == 0 {
		return "0"
	}
	// Two decimals, so that a column of values lines up; only an exact
	// ".00" goes, as pprof does ("29.20s", "10ms").
	num := strings.TrimSuffix(strconv.FormatFloat(x/s.Factor, 'f', 2, 64), ".00")
	return num + s.Name
}

// Percent formats part/whole as a percentage with one decimal ("12.5%");
// "-" when whole is zero.
func Percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}
