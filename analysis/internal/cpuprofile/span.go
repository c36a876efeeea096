package cpuprofile

// The time a profile covers. V8 writes startTime and endTime (µs on its
// clock), and the samples' times are startTime plus the running sum of
// timeDeltas; writers that cut profiles into chunks or convert them leave
// one or the other out.

// base is the time the deltas count from: startTime, else 0 (the first
// delta is then the first sample's time on the clock).
func (p *Profile) base() float64 {
	if p.StartTime != nil {
		return *p.StartTime
	}
	return 0
}

// Span returns the start and the end of the profile, in µs on its clock:
// startTime, else the first sample's time; endTime, else (or when it comes
// before the last sample) the last sample's time. note says what was
// recovered, "" when the file gives both.
func (p *Profile) Span() (start, end float64, note string) {
	first, last := p.base(), p.base()
	if len(p.Samples) > 0 && len(p.Samples) == len(p.TimeDeltas) {
		t := (&conv{p: p}).times()
		first, last = first+t[0], last+t[len(t)-1]
	}
	start, end = first, last
	switch {
	case p.StartTime != nil && p.EndTime != nil:
		start, end = *p.StartTime, max(*p.EndTime, last)
	case p.StartTime != nil:
		start, note = *p.StartTime, "the file gives no endTime: the duration ends at the last sample"
	case p.EndTime != nil:
		end, note = max(*p.EndTime, last), "the file gives no startTime: the duration starts at the first sample"
	case p.coarse:
		note = "the file gives its startTime and endTime in whole seconds: the duration runs from the first sample to the last"
	default:
		note = "the file gives no startTime and no endTime: the duration runs from the first sample to the last"
	}
	return start, end, note
}
