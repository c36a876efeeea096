package testprof

import (
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
)

// Dump writes a profile as text for golden files: its facts, its frames'
// files and lines, its threads,
// its calls, its samples (stack, values, time, thread), its notes and its
// warnings. Samples are written at most maxSamples (all when 0); the rest
// are summed up in one line.
func Dump(p *analysis.Profile, maxSamples int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", Facts(p))
	for _, f := range p.Frames {
		if f.File != "" || f.Line != 0 {
			fmt.Fprintf(&b, "frame %q file=%q line=%d\n", f.Name, f.File, f.Line)
		}
	}
	for _, t := range p.Threads() {
		fmt.Fprintf(&b, "thread %q id=%q process=%q pid=%q\n", t.Name, t.ID, t.Process, t.PID)
	}
	for i := range p.Calls {
		c := &p.Calls[i]
		fmt.Fprintf(&b, "call %s [%d,%d] depth %d parent %d thread %q\n", stackOf(p, c.Stack), c.Enter, c.Exit, c.Depth, c.Parent, p.ThreadName(p.CallThread(c)))
	}
	for i := range p.Samples {
		if maxSamples > 0 && i == maxSamples {
			fmt.Fprintf(&b, "… %d more samples\n", len(p.Samples)-i)
			break
		}
		s := &p.Samples[i]
		fmt.Fprintf(&b, "sample %s %v @%d %q\n", StackNames(p, s), p.Values(s), s.Time, p.Thread(s))
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

// Facts is one line of a profile's facts beyond its stacks: format, value
// types and totals, period, start, duration, time order, and the number of
// samples, threads and processes.
func Facts(p *analysis.Profile) string {
	var types []string
	for v, vt := range p.ValueTypes {
		d := ""
		if v == p.DefaultValue {
			d = "*"
		}
		types = append(types, fmt.Sprintf("%s/%s%s=%d", vt.Type, vt.Unit, d, p.Total(v)))
	}
	start := "-"
	if !p.Start.IsZero() {
		start = p.Start.UTC().Format("2006-01-02T15:04:05.000000000Z")
	}
	procs := map[string]bool{}
	for _, t := range p.Threads() {
		if t.PID != "" || t.Process != "" {
			procs[t.PID+"/"+t.Process] = true
		}
	}
	return fmt.Sprintf("format=%s types=%s period=%d %s/%s start=%s duration=%s timed=%v samples=%d threads=%d processes=%d",
		p.Format, strings.Join(types, ","), p.Period, p.PeriodType.Type, p.PeriodType.Unit, start, p.Duration, p.Timed,
		len(p.Samples), len(p.Threads()), len(procs))
}

func stackOf(p *analysis.Profile, stack int32) string {
	return StackNames(p, &analysis.Sample{Stack: stack})
}
