package commands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
	"github.com/proflens/proflens/kernel"
)

var sampleCommand = &kernel.Command{
	Name:    "sample",
	Summary: "Thin an evented recording as the AVID paper's sampling C-1, C-2 or C-3, into a new profile.",
	Doc: "`c1=N` keeps every Nth entry or exit event (the thinned recording replays the kept events, so a call " +
		"keeps whatever caller they leave on the stack); `c2=N` takes a snapshot of the call stack of the " +
		"thread of every Nth event, entries then recovered by diffing snapshots; `c3=D` takes a snapshot of " +
		"every thread's stack every D from the first event. The result is loaded as a new profile (`as NEW`, " +
		"else NAME-c1-N and so on) for every other command; its size is counted in records of one frame or " +
		"one time (an event: 2; a snapshot: its depth + 1) and given as a share of the recording's. The " +
		"recording is thinned as loaded: a standing filter does not apply.",
	Options: []kernel.Option{
		{Name: "c1", Doc: "C-1: keep every Nth event", Kind: kernel.KindNumber},
		{Name: "c2", Doc: "C-2: snapshot the stack every N events", Kind: kernel.KindNumber},
		{Name: "c3", Doc: "C-3: snapshot the stacks every D of time", Kind: kernel.KindDuration},
	},
	Examples: []string{"load demo:eclipse as eclipse", "sample c2=50 as thin", "sample eclipse c1=10", "sample eclipse c3=2ms"},
	Profiles: 1,
	AllowAs:  true,
	Run:      runSample,
}

func runSample(c *kernel.Call) error {
	s, err := readSampling(c)
	if err != nil {
		return err
	}
	l := c.Profile()
	p := l.Profile
	q, err := avid.Thin(p, s)
	if err != nil {
		return fmt.Errorf("sample %s: %w", c.Subject(), err)
	}
	t, err := analysis.NewTreeContext(c.Ctx, q)
	if err != nil {
		return err
	}
	name := c.As
	if name == "" {
		key := strings.ToLower(strings.ReplaceAll(s.Kind, "-", "")) // c1, c2, c3
		name = freeName(c.Session, l.Name+"-"+key+"-"+c.Opt(key))
	}
	nl := kernel.NewLoaded(name, q, t)
	c.Session.Add(nl)
	full, thin := avid.RecordSize(p), avid.RecordSize(q)
	showInfo(c, nl, fmt.Sprintf("%s: %s sampled by %s; %d records of %d (%s)", name, l.Name, s, thin, full, analysis.Percent(thin, full)))
	return nil
}

// readSampling reads the one of c1=, c2= and c3= given.
func readSampling(c *kernel.Call) (avid.Sampling, error) {
	var given []avid.Sampling
	for _, k := range []string{"c1", "c2"} {
		if c.Has(k) {
			n, err := strconv.ParseInt(c.Opt(k), 10, 64)
			if err != nil || n < 1 {
				return avid.Sampling{}, c.Usagef("%s=%s: write a whole number of events, 1 or more", k, c.Opt(k))
			}
			given = append(given, avid.Sampling{Kind: "C-" + k[1:], Every: n})
		}
	}
	if c.Has("c3") {
		d, err := c.Duration("c3")
		if err != nil {
			return avid.Sampling{}, err
		}
		given = append(given, avid.Sampling{Kind: "C-3", Every: int64(d)})
	}
	if len(given) != 1 {
		return avid.Sampling{}, c.Usagef("give one of c1=N, c2=N or c3=D (%d given)", len(given))
	}
	return given[0], nil
}
