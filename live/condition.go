package live

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// ParseCondition reads a condition on the live data:
//
//	goroutines>N       a goroutine snapshot counts more than N goroutines
//	heap+SIZE          the heap in use grew by SIZE (64MB, 512KB, bytes) since armed
//	cpu:REGEXP>SHARE   in a CPU window, the functions matching REGEXP are on more than SHARE (20%) of the samples' stacks
//
// A new phase is the kernel's condition, since phases are found there.
func ParseCondition(s string) (Condition, error) {
	switch {
	case strings.HasPrefix(s, "goroutines>"):
		n, err := strconv.Atoi(strings.TrimPrefix(s, "goroutines>"))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("when=%s: want goroutines>N with N a count", s)
		}
		return goroutines(n), nil
	case strings.HasPrefix(s, "heap+"):
		b, err := parseSize(strings.TrimPrefix(s, "heap+"))
		if err != nil {
			return nil, fmt.Errorf("when=%s: want heap+SIZE such as heap+64MB: %w", s, err)
		}
		return &heapGrowth{by: b}, nil
	case strings.HasPrefix(s, "cpu:"):
		i := strings.LastIndexByte(s, '>')
		if i < 0 {
			return nil, fmt.Errorf("when=%s: want cpu:REGEXP>SHARE such as cpu:sha256>20%%", s)
		}
		re, err := regexp.Compile(s[len("cpu:"):i])
		if err != nil {
			return nil, fmt.Errorf("when=%s: %w", s, err)
		}
		share, err := parseShare(s[i+1:])
		if err != nil {
			return nil, fmt.Errorf("when=%s: %w", s, err)
		}
		return &cpuShare{re: re, over: share}, nil
	}
	return nil, fmt.Errorf("when=%s: want phase, goroutines>N, heap+SIZE or cpu:REGEXP>SHARE", s)
}

// parseShare reads 20% or 0.2 as 0.2, between 0 and 1.
func parseShare(s string) (float64, error) {
	v, pct := strings.CutSuffix(s, "%")
	f, err := strconv.ParseFloat(v, 64)
	if pct {
		f /= 100
	}
	if err != nil || !(f >= 0 && f < 1) {
		return 0, fmt.Errorf("%q: want a share below 100%%, such as 20%%", s)
	}
	return f, nil
}

// sizes are the units parseSize reads, powers of 1024.
var sizes = []struct {
	suffix string
	mult   int64
}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}, {"", 1}}

func parseSize(s string) (int64, error) {
	for _, u := range sizes {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f > 0) || f*float64(u.mult) > 1<<62 {
				return 0, fmt.Errorf("%q is not a size above 0", s)
			}
			return int64(f * float64(u.mult)), nil
		}
	}
	return 0, fmt.Errorf("%q is not a size", s)
}

// goroutines holds when a goroutine snapshot counts more than n.
type goroutines int

func (g goroutines) String() string { return fmt.Sprintf("goroutines>%d", int(g)) }
func (g goroutines) Needs() Kind    { return Goroutine }

func (g goroutines) Check(w *Window) (string, bool) {
	n := total(w.Profile, "goroutine")
	return fmt.Sprintf("%.0f goroutines > %d in the goroutine snapshot at %.1fs", n, int(g), w.Start.Seconds()), n > float64(g)
}

// heapGrowth holds when the heap in use grew by at least by since it was
// armed or last held: the sum of the heap deltas' inuse_space.
type heapGrowth struct {
	by, grown int64
}

func (h *heapGrowth) String() string { return "heap+" + strconv.FormatInt(h.by, 10) + "B" }
func (h *heapGrowth) Needs() Kind    { return Heap }

func (h *heapGrowth) Check(w *Window) (string, bool) {
	h.grown += int64(total(w.Profile, "inuse_space"))
	if h.grown < h.by {
		return "", false
	}
	why := fmt.Sprintf("the heap in use grew by %d bytes ≥ %d by the heap delta ending at %.1fs", h.grown, h.by, w.End.Seconds())
	h.grown = 0
	return why, true
}

// cpuShare holds when, in a CPU window, the samples whose stacks hold a
// function matching re carry more than over of the CPU time.
type cpuShare struct {
	re   *regexp.Regexp
	over float64
}

func (c *cpuShare) String() string { return "cpu:" + c.re.String() + ">" + Percent(c.over) }
func (c *cpuShare) Needs() Kind    { return CPU }

func (c *cpuShare) Check(w *Window) (string, bool) {
	s := matchShare(w.Profile, c.re)
	return fmt.Sprintf("functions matching %s on %s of the CPU time > %s in the cpu window at %.1fs",
		c.re, Percent(s), Percent(c.over), w.Start.Seconds()), s > c.over
}

// matchShare is the share of p's cpu value in samples with a frame whose
// function matches re.
func matchShare(p *analysis.Profile, re *regexp.Regexp) float64 {
	v := p.ValueIndex("cpu")
	if v < 0 {
		return 0
	}
	match := make([]bool, len(p.Frames))
	for i, f := range p.Frames {
		match[i] = re.MatchString(f.Name)
	}
	var in, all int64
	for i := range p.Samples {
		s := &p.Samples[i]
		x := p.Value(s, v)
		all += x
		for _, f := range p.Stacks.At(s.Stack) {
			if match[f] {
				in += x
				break
			}
		}
	}
	return share(float64(in), float64(all))
}
