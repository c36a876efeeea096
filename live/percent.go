package live

import (
	"math"
	"strconv"
	"strings"
)

// Percent shows a share (0.01 for 1%) as a percentage with three
// significant digits at every magnitude and no trailing zeros: 10%, 1.04%,
// 0.1%, 0.05%, 0.001%, 0%.
func Percent(x float64) string {
	v := 100 * x
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64) + "%"
	}
	s := strconv.FormatFloat(v, 'f', decimals(v), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "%"
}

// decimals is how many decimals show v, a percentage, to three
// significant digits.
func decimals(v float64) int { return max(0, 2-int(math.Floor(math.Log10(math.Abs(v))))) }
