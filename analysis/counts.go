package analysis

// CountSource says where the call counts of a profile come from. Sampled CPU
// profiles carry no call counts; the AVID views and the Profiling Blueprint
// need them, so every output that shows counts names the source it used.
type CountSource string

// The sources, from the most exact to the least.
const (
	// CountEvents: exact, from the entry events of an evented recording
	// (Chrome trace B/E/X events, speedscope evented profiles).
	CountEvents CountSource = "events"
	// CountCallgrind: exact, from callgrind's calls= lines.
	CountCallgrind CountSource = "callgrind"
	// CountObjects: a second value type that counts allocated objects
	// (heap profiles: space × objects).
	CountObjects CountSource = "objects"
	// CountContentions: a second value type that counts contentions
	// (mutex and block profiles: delay × contentions).
	CountContentions CountSource = "contentions"
	// CountStackDiffs: recovered from time-ordered stack samples by diffing
	// consecutive stacks of each thread; a frame that stays on the stack
	// across samples counts as one entry.
	CountStackDiffs CountSource = "stack-diffs"
)

// Counts are call counts per call-tree node: Calls[n] is how many times the
// call path of node n was entered, by Source. Calls is indexed by node id of
// the Tree the counts were made for.
type Counts struct {
	Source CountSource
	Calls  []int64
}

// Noun is what counts from source s count: "calls", or "objects" and
// "contentions" for the second value types, which count on call paths
// through a node rather than entries into it.
func Noun(s CountSource) string {
	switch s {
	case CountObjects:
		return "objects"
	case CountContentions:
		return "contentions"
	}
	return "calls"
}
