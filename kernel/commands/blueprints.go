package commands

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/blueprint"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/plotting"
)

// The Profiling Blueprint's shared helpers (the blueprint and patterns
// commands): the call's view as boxes with call counts, and the pattern
// rules' options.

var patternOptions = []kernel.Option{
	{Name: "by", Default: string(blueprint.ByFunction), Values: []string{string(blueprint.ByFunction), string(blueprint.ByContext)},
		Doc: "function: one box per function (per name of the view), as wide as all its calls; context: one box per call path"},
	{Name: "counts", Default: "exact", Values: []string{"exact", "recovered"},
		Doc: "recovered: use the entries recovered from samples in time order as counts (lower bounds, said so on every row); exact: only exact counts"},
	{Name: "tolerance", Kind: kernel.KindNumber, Default: "0.1",
		Doc: "figures alike within this fraction of the larger (same height, same width); \"little\" is at most this fraction"},
	{Name: "ratio", Kind: kernel.KindNumber, Default: "10", Doc: "a count far above another is at least this many times it"},
	{Name: "min", Kind: kernel.KindNumber, Default: "1%", Doc: "look for patterns only below callers with at least this share of the total"},
}

// maxMutationFile bounds the bytes read from a mutation file.
const maxMutationFile = 16 << 20

// withheld is what a blueprint says when it leaves out the entries
// recovered from samples: they are lower bounds, not call counts.
const withheld = "entries recovered from samples are lower bounds, not call counts: counts=recovered uses them"

// callBlueprint returns the boxes of the call's view (by=) with their call
// counts, first calls and, when mutating names a file, mutations, and the
// patterns found with the call's tolerance, ratio and min. Entries
// recovered from samples count only with counts=recovered.
func callBlueprint(c *kernel.Call, mutating string) (*plotting.Blueprint, error) {
	l, t := c.Profile(), c.Tree()
	v, err := c.View()
	if err != nil {
		return nil, err
	}
	counts, err := blueprint.CallCounts(t, l.Profile, c.Value())
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", c.Cmd.Name, l.Name, err)
	}
	first, _ := analysis.FirstEntries(t)
	var mutations []blueprint.Mutation
	if mutating != "" {
		if mutations, err = readMutations(c, mutating); err != nil {
			return nil, err
		}
	}
	o, err := readPatternOptions(c)
	if err != nil {
		return nil, err
	}
	var noCounts string
	if counts.Source == analysis.CountStackDiffs && c.Opt("counts") != "recovered" {
		counts, noCounts = analysis.Counts{}, withheld
	}
	boxes := blueprint.Of(v, counts, first, mutations, blueprint.By(c.Opt("by")))
	return &plotting.Blueprint{Boxes: boxes, Patterns: boxes.Patterns(o), NoCounts: noCounts}, nil
}

func readPatternOptions(c *kernel.Call) (blueprint.PatternOptions, error) {
	var o blueprint.PatternOptions
	var err error
	if o.Tolerance, err = c.Float("tolerance"); err != nil || o.Tolerance < 0 || o.Tolerance >= 1 {
		return o, c.Usagef("tolerance=%s: want a fraction from 0 up to 1, e.g. tolerance=0.1 or tolerance=10%%", c.Opt("tolerance"))
	}
	if o.Ratio, err = c.Float("ratio"); err != nil || o.Ratio <= 1 {
		return o, c.Usagef("ratio=%s: want a factor above 1, e.g. ratio=10", c.Opt("ratio"))
	}
	pct, err := c.Percent("min")
	o.Min = pct / 100
	return o, err
}

// readMutations reads a mutation file (blueprint.Mutations: a mapping with
// the entities mutates and pure) against the call's tree.
func readMutations(c *kernel.Call, file string) ([]blueprint.Mutation, error) {
	fail := func(err error) error { return fmt.Errorf("%s mutating=%s: %w", c.Cmd.Name, file, err) }
	path := c.Path(file)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fail(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fail(fmt.Errorf("%s, not a regular file: want lines such as `mutates class Cart.add*`", fileKind(fi.Mode())))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fail(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMutationFile+1))
	if err == nil && len(data) > maxMutationFile {
		err = fmt.Errorf("more than %d bytes: a mutation file lists functions, it is not that long", maxMutationFile)
	}
	if err != nil {
		return nil, fail(err)
	}
	m, err := avid.ParseMapping(file, string(data))
	if err != nil {
		return nil, err
	}
	return blueprint.Mutations(m, c.Tree())
}

// parseAmount reads a value of type vt: a raw number in its unit, or for
// times a duration (10ms) and for bytes a size (2MB).
func parseAmount(s string, vt analysis.ValueType) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 {
		return n, nil
	}
	unit := strings.ToLower(vt.Unit)
	if per, ok := map[string]time.Duration{"nanoseconds": 1, "ns": 1, "microseconds": time.Microsecond, "us": time.Microsecond,
		"milliseconds": time.Millisecond, "ms": time.Millisecond, "seconds": time.Second, "s": time.Second}[unit]; ok {
		if d, err := time.ParseDuration(s); err == nil && d >= per {
			return int64(d / per), nil
		}
	}
	if unit == "bytes" || unit == "b" {
		return kernel.ParseSize(s)
	}
	return 0, fmt.Errorf("not a positive amount of %s", vt.Unit)
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
