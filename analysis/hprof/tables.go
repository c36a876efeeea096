package hprof

import (
	"math"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// table is one kind of hprof CPU table.
type table struct {
	begin, end string
	types      []analysis.ValueType
	// row returns a row's values from its self percentage and its count,
	// and how much of the table's total the row covers; ok false when the
	// percentage is not one.
	row func(self string, count, total int64) (values []int64, covered int64, ok bool)
	// cutoff says what the rows left out of the total, "" when nothing.
	cutoff func(covered, total int64, rows int) string
}

// samplesTable is cpu=samples': a count of samples per trace.
var samplesTable = table{
	begin: "CPU SAMPLES BEGIN",
	end:   "CPU SAMPLES END",
	types: []analysis.ValueType{{Type: "samples", Unit: "count"}},
	row: func(_ string, count, _ int64) ([]int64, int64, bool) {
		return []int64{count}, count, true
	},
	cutoff: func(covered, total int64, _ int) string {
		if covered >= total {
			return ""
		}
		return "hprof lists " + strconv.FormatInt(covered, 10) + " of " + strconv.FormatInt(total, 10) +
			" samples; it left out the traces below its cutoff"
	},
}

// timesTable is cpu=times': the share of the total time (ms) spent in each
// trace's method itself, to two decimals of a percent, and its calls.
var timesTable = table{
	begin: "CPU TIME (ms) BEGIN",
	end:   "CPU TIME (ms) END",
	types: []analysis.ValueType{{Type: "cpu", Unit: "nanoseconds"}, {Type: "calls", Unit: "count"}},
	row: func(self string, count, total int64) ([]int64, int64, bool) {
		pct, err := strconv.ParseFloat(strings.TrimSuffix(self, "%"), 64)
		if err != nil || !strings.HasSuffix(self, "%") || pct < 0 || pct > 100 {
			return nil, 0, false
		}
		ns := int64(math.Round(pct * float64(total) * 1e4)) // pct/100 of total ms, in ns
		return []int64{ns, count}, ns, true
	},
	cutoff: func(covered, total int64, rows int) string {
		// Each percentage is rounded to 0.005% of the total.
		if float64(covered) >= float64(total)*1e6*(1-0.00005*float64(rows)) {
			return ""
		}
		return "hprof lists " + strconv.FormatFloat(float64(covered)/float64(total)/1e4, 'f', 2, 64) +
			"% of the " + strconv.FormatInt(total, 10) + " ms; it left out the traces below its cutoff"
	},
}
