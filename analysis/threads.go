package analysis

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Thread is a thread (or goroutine, or one recording of a file that holds
// several) that samples are attributed to. Loaders name it (the label
// samples carry, Profile.Thread) and, where the format says, give its id
// and its process (Builder.DescribeThread).
type Thread struct {
	Name    string // the label samples carry: "dd-?/29776", "CrRendererMain (pid 4, tid 9)"
	ID      string // the thread id ("29776"); "" when the format has none
	Process string // the process's name ("dd", "Renderer"); "" when unknown
	PID     string // the process id; "" when unknown
}

// Threads returns the profile's threads, in the order their first samples
// came. The slice is the profile's: do not modify it.
func (p *Profile) Threads() []Thread { return p.threads }

// ThreadOf returns the thread of sample s, nil when it has none.
func (p *Profile) ThreadOf(s *Sample) *Thread {
	if s.thread == 0 {
		return nil
	}
	return &p.threads[s.thread-1]
}

// DescribeThread gives the id and process of the thread named t.Name,
// which samples may then carry (Add).
func (b *Builder) DescribeThread(t Thread) {
	if b.busy() || t.Name == "" {
		return
	}
	b.p.threads[b.thread(t.Name)-1] = t
}

// ThreadShare is a thread's part of a profile: its samples and their sum of
// one value type.
type ThreadShare struct {
	Thread  Thread // the zero Thread for samples without one
	Samples int
	Value   int64
}

// ThreadShares returns the part of each thread of p in value type v,
// heaviest first (then by name); samples without a thread come last, as a
// zero Thread, when there are any.
func ThreadShares(p *Profile, v int) []ThreadShare {
	out := make([]ThreadShare, len(p.threads)+1)
	for i, t := range p.threads {
		out[i+1].Thread = t
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		out[s.thread].Samples++
		out[s.thread].Value += p.Value(s, v)
	}
	none := out[0]
	out = out[1:]
	slices.SortStableFunc(out, func(a, b ThreadShare) int {
		return cmp.Or(cmp.Compare(abs64(b.Value), abs64(a.Value)), cmp.Compare(a.Thread.Name, b.Thread.Name))
	})
	if none.Samples > 0 {
		out = append(out, none)
	}
	return out
}

// matchThreads reports, per thread id (index 0: no thread), whether the
// thread passes the thread and process filters: an integer is the thread's
// id (for process, the process's id), anything else a regular expression
// over its name (the process's name). Nil when neither filter is set.
func matchThreads(p *Profile, thread, process *regexp.Regexp) []bool {
	if thread == nil && process == nil {
		return nil
	}
	keep := make([]bool, len(p.threads)+1)
	for i, t := range p.threads {
		keep[i+1] = matchesID(thread, t.Name, t.ID) && matchesID(process, t.Process, t.PID)
	}
	keep[0] = thread == nil && process == nil
	return keep
}

// matchesID reports whether re (nil: anything) is id, when it is an
// integer, or else matches name.
func matchesID(re *regexp.Regexp, name, id string) bool {
	if re == nil {
		return true
	}
	if s := re.String(); isDigits(strings.TrimPrefix(s, "-")) {
		return s == id
	}
	return re.MatchString(name)
}
