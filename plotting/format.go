package plotting

import (
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Amount formats a value of the given type with its unit, as the tables
// do (analysis.FormatValue: "1.5s", "3MB"), and counts as "12 samples"
// ("1 sample").
func Amount(v int64, vt analysis.ValueType) string {
	if analysis.FormatValue(1, vt.Unit) != "1" { // a unit with a scale: time, bytes
		return analysis.FormatValue(v, vt.Unit)
	}
	plain := strconv.FormatInt(v, 10)
	word := vt.Type
	if vt.Unit != "count" && vt.Unit != "" {
		word = vt.Unit
	}
	if word == "" {
		word = "samples"
	}
	if (v == 1 || v == -1) && strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") {
		word = word[:len(word)-1]
	}
	return plain + " " + word
}
