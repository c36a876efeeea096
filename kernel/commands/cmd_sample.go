package commands

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
)

var sampleCommand = &kernel.Command{
	Name:    "sample",
	Summary: "Thin a recording as the AVID paper's samplings C-1..C-3 and M-1..M-3, or by a control of ranges, into a new profile.",
	Doc: "Control flow: `c1=N` keeps every Nth entry or exit event (the thinned recording replays the kept events, " +
		"so a call keeps whatever caller they leave on the stack); `c2=N` takes a snapshot of the call stack of " +
		"the thread of every Nth event; `c3=D` takes a snapshot of every thread's stack every D from the first " +
		"event. Memory (allocations and deallocations): `m1=N` keeps every Nth memory event; `m2=D` the first at " +
		"or after every D; `m3=N` or `m3=D` does the same and snapshots the call stack at each memory event kept " +
		"(M-3), so that it keeps its context. A kind of event no option names is not kept. Calls are then " +
		"recovered by diffing consecutive snapshots; a snapshot of C-2, C-3 or M-3 weighs its sampling period " +
		"(D, or the mean time of N events). A control samples by ranges of the recording, each with its own " +
		"sampling, traced between them: give it as a block (`sample NAME <<`, lines `SAMPLING [from T] [to T]` " +
		"such as `c2=50 from 10ms to 200ms`, an optional `default SAMPLING`, and a line `end`) or as a file " +
		"(`control=FILE`). The result is loaded as a new profile (`as NEW`, else NAME-c1-N and so on); its size " +
		"is counted in records of one frame or one time (an event: 2; a snapshot: its depth + 1) and given as a " +
		"share of the recording's. The recording is thinned as loaded: a standing filter does not apply.",
	Args: []kernel.Arg{{Name: "CONTROL", Doc: "a control: lines `SAMPLING [from T] [to T]` in a << block", Optional: true}},
	Options: []kernel.Option{
		{Name: "c1", Doc: "C-1: keep every Nth event", Kind: kernel.KindNumber},
		{Name: "c2", Doc: "C-2: snapshot the stack every N events", Kind: kernel.KindNumber},
		{Name: "c3", Doc: "C-3: snapshot the stacks every D of time", Kind: kernel.KindDuration},
		{Name: "m1", Doc: "M-1: keep every Nth memory event", Kind: kernel.KindNumber},
		{Name: "m2", Doc: "M-2: keep the first memory event at or after every D", Kind: kernel.KindDuration},
		{Name: "m3", Doc: "M-3: M-1 (a number N) or M-2 (a duration D), with the call stack snapped at each memory event kept"},
		{Name: "control", Doc: "a file of ranges, one a line: `SAMPLING [from T] [to T]`, `default SAMPLING`", Kind: kernel.KindFile},
	},
	Examples: []string{"load demo:eclipse as eclipse", "sample c2=50 as thin", "sample eclipse c1=10", "sample eclipse c3=2ms",
		"sample eclipse as ranged <<\nc2=20 from 5ms to 20ms\nc1=4 from 20ms\nend", "load demo:import as imp", "sample imp m3=10 as m3", "sample imp c1=100 m1=100"},
	Profiles: 1,
	AllowAs:  true,
	Run:      runSample,
}

func runSample(c *kernel.Call) error {
	ctl, key, err := readControl(c)
	if err != nil {
		return err
	}
	l := c.Profile()
	p := l.Profile
	th, err := avid.Thin(p, ctl)
	if err != nil {
		return fmt.Errorf("sample %s: %w", c.Subject(), err)
	}
	q := th.Profile
	t, err := analysis.NewTreeContext(c.Ctx, q)
	if err != nil {
		return err
	}
	name := c.As
	if name == "" {
		name = freeName(c.Session, l.Name+"-"+key)
	}
	nl := kernel.NewLoaded(name, q, t)
	c.Session.Add(nl)
	full := avid.RecordSize(p)
	showInfo(c, nl, fmt.Sprintf("%s: %s sampled by %s; %d records of %d (%s)", name, l.Name, ctl, th.Records, full, analysis.Percent(th.Records, full)))
	return nil
}

// readControl reads the call's control: a block or control=FILE, else the
// sampling of its options for the whole recording; key names the result.
func readControl(c *kernel.Call) (avid.Control, string, error) {
	words, err := samplingWords(c)
	if err != nil {
		return avid.Control{}, "", err
	}
	given := len(c.Args)
	if c.Has("control") {
		given++
	}
	switch {
	case len(c.Args) == 1 && !strings.ContainsAny(c.Arg(0), "= \n") && c.Arg(0) != "trace" && c.Arg(0) != "nothing": // a block holds sampling words
		return avid.Control{}, "", c.Usagef("%s is neither a loaded profile nor a control (a << block of lines `SAMPLING [from T] [to T]`)", c.Arg(0))
	case given > 0 && len(words) > 0:
		return avid.Control{}, "", c.Usagef("give a control or sampling options (%s), not both", strings.Join(words, " "))
	case given > 1:
		return avid.Control{}, "", c.Usagef("give one control: a << block or control=FILE")
	case len(c.Args) == 1:
		ctl, err := avid.ParseControl("the control", c.Arg(0))
		return ctl, "control", blockError(c, err)
	case c.Has("control"):
		text, err := readMappingFile(c.Path(c.Opt("control")))
		if err != nil {
			return avid.Control{}, "", fmt.Errorf("control=%s: %w", c.Opt("control"), err)
		}
		ctl, err := avid.ParseControl(c.Opt("control"), text)
		return ctl, "control", err
	case len(words) == 0:
		return avid.Control{}, "", c.Usagef("give a sampling (c1=N, c2=N or c3=D, and m1=N, m2=D or m3=N|D) or a control (a << block or control=FILE)")
	}
	s, err := avid.ParseSampling(words)
	if err != nil {
		return avid.Control{}, "", c.Usagef("%v", err)
	}
	return avid.Whole(s), strings.ReplaceAll(strings.Join(words, "-"), "=", "-"), nil
}

// samplingWords returns the sampling options given, as ParseSampling reads
// them: durations with their unit.
func samplingWords(c *kernel.Call) ([]string, error) {
	var words []string
	for _, k := range []string{"c1", "c2", "c3", "m1", "m2", "m3"} {
		if !c.Has(k) {
			continue
		}
		v := c.Opt(k)
		if k == "c3" || k == "m2" {
			d, err := c.Duration(k)
			if err != nil {
				return nil, err
			}
			v = time.Duration(d).String()
		}
		words = append(words, k+"="+v)
	}
	return words, nil
}

// blockError names the line of the cell of a control's error.
func blockError(c *kernel.Call, err error) error {
	var se *analysis.SyntaxError
	if errors.As(err, &se) && se.Line > 0 { // the block starts on the line after the command
		return fmt.Errorf("sample: line %d of the control (line %d of the cell): %s", se.Line, c.Line+se.Line, se.Msg)
	}
	return err
}
