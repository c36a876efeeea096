package plotting

import (
	"fmt"
	"strconv"

	"github.com/proflens/proflens/analysis"
)

// Amount formats a value of the given type with its unit: durations in
// ns/µs/ms/s, sizes in B/KiB/MiB/GiB, counts as "12 samples".
func Amount(v int64, vt analysis.ValueType) string {
	switch vt.Unit {
	case "nanoseconds":
		return duration(float64(v))
	case "microseconds":
		return duration(float64(v) * 1e3)
	case "milliseconds":
		return duration(float64(v) * 1e6)
	case "seconds":
		return duration(float64(v) * 1e9)
	case "bytes":
		return size(v)
	}
	word := vt.Type
	if vt.Unit != "count" && vt.Unit != "" {
		word = vt.Unit
	}
	if word == "" {
		word = "samples"
	}
	return strconv.FormatInt(v, 10) + " " + word
}

func duration(ns float64) string {
	abs := ns
	if abs < 0 {
		abs = -abs
	}
	switch {
	case abs >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case abs >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case abs >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func size(b int64) string {
	abs := b
	if abs < 0 {
		abs = -abs
	}
	switch {
	case abs >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
	case abs >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(b)/(1<<20))
	case abs >= 1<<10:
		return fmt.Sprintf("%.2f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// Percent formats a as a percentage of b with two decimals.
func Percent(a, b int64) string {
	return fmt.Sprintf("%.2f%%", 100*frac(a, b))
}
