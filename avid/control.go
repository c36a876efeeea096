package avid

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
)

// A Control says how to thin a recording, as the paper's control file does
// (seed 001, §2.2): ranges of the recording's time, each with its own
// sampling, and a sampling for the parts between them (Default; Trace
// unless the control says otherwise). Written as text, one range a line:
//
//	# SAMPLING [from TIME] [to TIME]
//	c2=50 from 10ms to 200ms
//	m3=1000 from 200ms
//	default trace
//
// A range runs from its from time (the recording's start without one) up
// to, not including, its to time (the end without one); times are
// durations since the recording's start, with their unit ("10ms"), or
// start and end. Ranges may not overlap. The sampling words are those of
// ParseSampling; a kind of event a range's words do not name is not kept
// in that range ("c2=50" keeps no memory event).
type Control struct {
	Ranges  []Range // in time order, disjoint
	Default Sampling
}

// Range is one range of a control: Sampling applies to the events at
// times in [From, To), nanoseconds since the recording's start.
type Range struct {
	From, To int64
	Sampling
}

// Whole is the control that samples a whole recording by s.
func Whole(s Sampling) Control { return Control{Default: s} }

func (c Control) String() string {
	if len(c.Ranges) == 0 {
		return c.Default.String()
	}
	var parts []string
	for _, r := range c.Ranges {
		parts = append(parts, fmt.Sprintf("%v from %s to %s", r.Sampling, timeWord(r.From, "start"), timeWord(r.To, "end")))
	}
	return strings.Join(parts, "; ") + "; elsewhere " + c.Default.String()
}

func timeWord(t int64, edge string) string {
	if t == 0 && edge == "start" || t == math.MaxInt64 {
		return edge
	}
	return time.Duration(t).String()
}

// ParseControl reads a control from text; name is used in errors, which
// name the line and what was expected.
func ParseControl(name, text string) (Control, error) {
	c := Control{Default: Trace}
	defaults := 0
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if f[0] == "default" {
			s, err := ParseSampling(f[1:])
			if defaults++; err == nil && defaults > 1 {
				err = fmt.Errorf("the default is given twice: keep one line default")
			}
			if err != nil {
				return Control{}, analysis.LineError(name, i+1, "%v", err)
			}
			c.Default = s
			continue
		}
		r, err := parseRange(f)
		if err == nil {
			err = c.add(r)
		}
		if err != nil {
			return Control{}, analysis.LineError(name, i+1, "%v", err)
		}
	}
	return c, nil
}

// parseRange reads a line SAMPLING [from TIME] [to TIME].
func parseRange(f []string) (Range, error) {
	r := Range{To: math.MaxInt64}
	var words []string
	for i := 0; i < len(f); i++ {
		if f[i] != "from" && f[i] != "to" {
			words = append(words, f[i])
			continue
		}
		if i+1 == len(f) {
			return Range{}, fmt.Errorf("%s needs a time after it: a duration since the start (10ms), start or end", f[i])
		}
		t, err := rangeTime(f[i+1])
		if err != nil {
			return Range{}, fmt.Errorf("%s %s: %w", f[i], f[i+1], err)
		}
		if f[i] == "from" {
			r.From = t
		} else {
			r.To = t
		}
		i++
	}
	if r.From >= r.To {
		return Range{}, fmt.Errorf("the range ends (%s) before it starts (%s)", timeWord(r.To, "end"), timeWord(r.From, "start"))
	}
	s, err := ParseSampling(words)
	r.Sampling = s
	return r, err
}

// rangeTime reads a time of a range: start, end, 0, or a duration.
func rangeTime(w string) (int64, error) {
	switch w {
	case "start", "0":
		return 0, nil
	case "end":
		return math.MaxInt64, nil
	}
	d, err := time.ParseDuration(w)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("expected a duration since the start with its unit (10ms), start or end")
	}
	return int64(d), nil
}

// add puts r among c's ranges in time order, refusing an overlap.
func (c *Control) add(r Range) error {
	i := 0
	for i < len(c.Ranges) && c.Ranges[i].From < r.From {
		i++
	}
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(c.Ranges) && c.Ranges[j].From < r.To && r.From < c.Ranges[j].To {
			return fmt.Errorf("the range overlaps the one from %s to %s: ranges may not overlap",
				timeWord(c.Ranges[j].From, "start"), timeWord(c.Ranges[j].To, "end"))
		}
	}
	c.Ranges = append(c.Ranges[:i], append([]Range{r}, c.Ranges[i:]...)...)
	return nil
}

// at returns the index of the range holding time t, len(c.Ranges) for the
// default.
func (c *Control) at(t int64) int {
	for i, r := range c.Ranges {
		if r.From <= t && t < r.To {
			return i
		}
	}
	return len(c.Ranges)
}

// sampling returns the sampling of range i (the default for
// len(c.Ranges)).
func (c *Control) sampling(i int) Sampling {
	if i < len(c.Ranges) {
		return c.Ranges[i].Sampling
	}
	return c.Default
}
