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
	decimals := max(0, 2-int(math.Floor(math.Log10(math.Abs(v)))))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s + "%"
}
