package phase

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// Params are JIVE's three parameters (seed 003 §6).
type Params struct {
	Window int     // ω: intervals summed into W_i
	Eps    float64 // ε: P_s·W_i above it keeps the current phase s
	Delta  float64 // δ: the best earlier phase t with P_t·W_i above it is resumed
	// Strict applies the paper's rule alone. Otherwise a new phase is
	// provisional for its first ω intervals (until the window lies inside
	// it): in each, the best other phase t with P_t·W_i > δ is resumed
	// before the ε test. Sampled profiles need this: a mixed or noisy
	// window at a switch matches nothing and starts a phase seeded with
	// one interval; under the paper's rule that phase, being current, is
	// checked first and, fitted to the very intervals in the window, keeps
	// matching, so a returning phase gets a new id for good. Also, a
	// phase left after fewer than ω intervals is a transition phase: it
	// keeps its intervals but is not resumed later (nor searched, which
	// keeps the search short when switches leave thousands of them).
	Strict bool
	// MaxCells bounds the phase vectors: phases × names (0 for
	// DefaultMaxCells). A run that would start a phase beyond it stops
	// with a *LimitError.
	MaxCells int
	// Spread, when above 1, is D, the effective number of names of the
	// recording's samples (see Spread): ε and δ are then compared with
	// the cosine the window and the phase would have without sampling
	// noise, the measured one divided by c(m) for the window's samples
	// and for the phase's (see noise.go). 0 compares the measured cosine,
	// as the paper does with exact counts.
	Spread float64
}

// DefaultParams returns the paper's settings: ω = 3, ε = δ = 0.9.
func DefaultParams() Params { return Params{Window: 3, Eps: 0.9, Delta: 0.9} }

// Check reports parameters the detector cannot use: a window below 1, a
// threshold that is not a number from 0 to 1 (NaN and infinities
// included), a negative cell limit.
func (p Params) Check() error {
	if p.Window < 1 {
		return fmt.Errorf("window=%d: want at least 1 interval", p.Window)
	}
	if err := checkThreshold("eps", p.Eps); err != nil {
		return err
	}
	if err := checkThreshold("delta", p.Delta); err != nil {
		return err
	}
	if p.MaxCells < 0 {
		return fmt.Errorf("max cells %d: want a positive number (0 for the default)", p.MaxCells)
	}
	if !(p.Spread >= 0) || math.IsInf(p.Spread, 1) {
		return fmt.Errorf("spread %g: want a number of names, 0 for none", p.Spread)
	}
	return nil
}

// checkThreshold reports a threshold outside [0, 1]; the test is written so
// that NaN fails it.
func checkThreshold(name string, x float64) error {
	if !(x >= 0 && x <= 1) {
		return fmt.Errorf("%s=%g: want a number between 0 and 1", name, x)
	}
	return nil
}

// Empty is the id of the empty phase: windows with no samples at all.
const Empty = 0

// Phase is one detected (or reused) phase.
type Phase struct {
	ID        int
	Label     string
	Color     string    // "#rrggbb": Color(Hue(ID)), EmptyColor, or the saved set's colour
	Sum       []float64 // interval vectors of this run's intervals in the phase, summed
	Intervals int       // this run's intervals in the phase
	Saved     bool      // the phase came from a saved set (using=)

	ref     []float64 // vector matched against: Sum, or a saved phase's fixed vector
	refSq   float64   // ref·ref, kept while detecting
	samples float64   // samples counted in ref: +Inf for a saved phase
}

// Vector returns the phase vector: Sum normalized to length 1 (a zero
// vector stays zero). For a saved phase it is the saved vector.
func (ph *Phase) Vector() []float64 {
	if ph.Saved {
		return normalized(ph.ref)
	}
	return normalized(ph.Sum)
}

// Result is the outcome of Detect.
type Result struct {
	Params Params
	Names  []string
	Of     []int32  // per interval: phase id
	Phases []*Phase // by ascending id; the empty phase (id 0) only when it occurs
	// Settled is the number of intervals that the windows' votes gave a
	// phase the settling took them out of (see Detect).
	Settled int
}

// Phase returns the phase with the given id, or nil.
func (r *Result) Phase(id int) *Phase {
	for _, ph := range r.Phases {
		if ph.ID == id {
			return ph
		}
	}
	return nil
}

// Detect runs JIVE's detector (seed 003 §4) over v. W_i is the normalized
// sum of the last ω interval vectors, kept incrementally (one addition and
// one subtraction per stored entry). If P_s·W_i > ε for the current phase s,
// interval i stays in s; otherwise the phase t maximizing P_t·W_i is resumed
// when that exceeds δ; otherwise a new phase starts with the interval's
// vector. A window with no counts goes to the empty phase (id 0). P_s is the
// normalized sum of the vectors of the intervals assigned to s. With
// p.Spread, the cosines are corrected for sampling noise (see noise.go).
// Unless p.Strict, the result is then settled (see settle): blips and
// transitions join their neighbours, phases that match an earlier one
// above δ join it, and switches move to where the intervals' own counts
// put them. New phases are numbered in order of first appearance, after
// the ids of seed (the phases of a saved set, which keep their ids,
// labels and fixed vectors).
// Time is O(intervals × names) for the current phase's test; the search
// for the best phase at a change goes through an inverted index (name →
// phases using it), costing the phases' entries on the window's names.
// Memory is bounded by p.MaxCells (phases × names, seed included) and ctx
// is looked at as the work goes.
func Detect(ctx context.Context, v *Vectors, p Params, seed []*Phase) (*Result, error) {
	d, err := detect(ctx, v, p, seed)
	if err != nil {
		return nil, err
	}
	if err := settle(v, d.r, d.first, &d.pace); err != nil {
		return nil, err
	}
	return d.r, nil
}

// detect is Detect's windowed detector, without the settling.
func detect(ctx context.Context, v *Vectors, p Params, seed []*Phase) (*detector, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	p.MaxCells = bound(p.MaxCells, DefaultMaxCells, cellBytes)
	if err := checkCells(len(seed), len(v.Names), p.MaxCells); err != nil {
		return nil, err
	}
	if err := v.check(); err != nil {
		return nil, err
	}
	d := &detector{r: &Result{Params: p, Names: v.Names, Of: make([]int32, v.Len())}, cur: -1, young: -1,
		emptyK: -1, users: make([][]use, len(v.Names)), pace: pacer{ctx: ctx}}
	if err := d.seed(seed); err != nil {
		return nil, err
	}
	d.first = d.next
	win := newWindow(v, p.Window)
	for i := range d.r.Of {
		win.advance(i)
		id, err := d.assign(v, i, win)
		if err != nil {
			return nil, err
		}
		d.r.Of[i] = int32(id)
		if err := d.pace.step(1 + v.Off[i+1] - v.Off[i]); err != nil {
			return nil, err
		}
	}
	sortPhases(d.r.Phases)
	return d, nil
}

// seed makes the phases of a saved set the first phases, keeping their
// ids; new phases are numbered after them.
func (d *detector) seed(seed []*Phase) error {
	for k, s := range seed {
		if s == nil || len(s.ref) != len(d.users) || len(s.Sum) != len(d.users) {
			return fmt.Errorf("seed phase %d: want a phase from Saved.Seed over the vectors' %d names", k, len(d.users))
		}
		if s.ID == Empty {
			d.emptyK = k
		}
		d.r.Phases = append(d.r.Phases, s)
		d.pos = append(d.pos, nil)
		d.next = max(d.next, s.ID)
		for j, x := range s.ref {
			if x != 0 {
				d.users[j] = append(d.users[j], use{int32(k), x})
			}
		}
	}
	d.next++
	return nil
}

// checkCells reports when phases phase vectors over names names would
// take more than limit cells.
func checkCells(phases, names, limit int) error {
	if need := cellsNeeded(phases, names); need > int64(limit) {
		return &LimitError{Limit: "cells", Need: need, Max: int64(limit), Memory: atMemory(int64(limit), cellBytes),
			Msg: fmt.Sprintf("%d phases over %d names are %d cells, more than the limit of %d: fewer names (a coarser level), "+
				"fewer intervals or lower eps and delta give fewer cells", phases, names, need, limit)}
	}
	return nil
}

type detector struct {
	r     *Result
	cur   int // index into r.Phases of the current phase, -1 before the first
	young int // index into r.Phases of the newest phase
	born  int // interval that started it

	users   [][]use   // per name: the phases whose vector uses it, with their weights
	pos     [][]int32 // per phase, per name: index into users[name], -1 when unused
	acc     []float64 // per phase: P·W being summed by bestPhase
	touched []int32   // phases with a nonzero acc
	next    int       // id of the next new phase
	first   int       // id of the first phase this run made
	emptyK  int       // index into r.Phases of the empty phase, -1 until it occurs
	pace    pacer
}

// assign returns interval i's phase id, or a *LimitError when it would
// start a phase beyond Params.MaxCells.
func (d *detector) assign(v *Vectors, i int, win *window) (int, error) {
	w, best, stay := win.sum, d.cur, false
	if d.cur >= 0 && win.n > 0 {
		stay = cosine(d.r.Phases[d.cur], w)*d.lift(win.samples, d.r.Phases[d.cur]) > d.r.Params.Eps
		d.pace.work += len(w)
		if !d.r.Params.Strict && d.cur == d.young && i-d.born < d.r.Params.Window {
			if t, st := d.bestPhase(w, win.samples, d.cur); st > d.r.Params.Delta {
				best, stay = t, true // t is resumed before the ε test
			}
		}
	}
	switch {
	case win.n == 0:
		best = d.empty(len(w))
	case stay:
	default:
		var score float64
		best, score = d.bestPhase(w, win.samples, -1)
		if best < 0 || score <= d.r.Params.Delta {
			if err := checkCells(len(d.r.Phases)+1, len(w), d.r.Params.MaxCells); err != nil {
				return 0, err
			}
			best, d.born = d.newPhase(v, i, win), i
			d.young = best
		}
	}
	if d.cur >= 0 && best != d.cur && !d.r.Params.Strict {
		d.retireShort(d.cur)
	}
	d.cur = best
	ph := d.r.Phases[best]
	ph.Intervals++
	ph.samples += float64(v.Samples[i])
	for k := v.Off[i]; k < v.Off[i+1]; k++ {
		d.add(best, int(v.Idx[k]), v.Val[k])
	}
	return ph.ID, nil
}

// retireShort drops phase k from the index when it lasted fewer than ω
// intervals (a transition phase): it can no longer be resumed.
func (d *detector) retireShort(k int) {
	ph := d.r.Phases[k]
	if ph.Saved || ph.ID == Empty || ph.Intervals >= d.r.Params.Window || d.pos[k] == nil {
		return
	}
	for j, p := range d.pos[k] {
		if p < 0 {
			continue
		}
		list := d.users[j]
		last := list[len(list)-1]
		list[p] = last
		if d.pos[last.k] != nil { // saved phases' entries never move back
			d.pos[last.k][j] = p
		}
		d.users[j] = list[:len(list)-1]
	}
	d.pos[k] = nil
}

// use is one phase's weight on a name, in that name's index.
type use struct {
	k int32 // index into r.Phases
	w float64
}

// add adds x to dimension j of phase k and keeps the index current. A
// saved phase's vector is fixed, so its index entries never change.
func (d *detector) add(k, j int, x float64) {
	ph := d.r.Phases[k]
	ph.add(j, x)
	if ph.Saved || ph.ID == Empty || x == 0 || d.pos[k] == nil {
		return // fixed, not indexed, or retired
	}
	if p := d.pos[k][j]; p >= 0 {
		d.users[j][p].w = ph.Sum[j]
		return
	}
	d.pos[k][j] = int32(len(d.users[j]))
	d.users[j] = append(d.users[j], use{int32(k), ph.Sum[j]})
}

// add adds x to dimension j of the phase's sum, keeping ref·ref current.
func (ph *Phase) add(j int, x float64) {
	old := ph.Sum[j]
	ph.Sum[j] += x
	if !ph.Saved {
		ph.refSq += ph.Sum[j]*ph.Sum[j] - old*old
	}
}

// tieTolerance is how close two dot products count as a tie, which the
// phase created first wins: a saved phase read back, or a phase built
// from the same intervals in another order, differs in the last bits.
const tieTolerance = 1e-9

// bestPhase returns the phase (other than index skip) with the highest
// P·W (lifted for noise: see lift), the first created on a tie (within
// tieTolerance); (-1, -1) when no phase shares a name with W, a window of
// m samples. Only phases sharing a name with W are visited, through users.
func (d *detector) bestPhase(w []float64, m float64, skip int) (int, float64) {
	if len(d.acc) < len(d.r.Phases) {
		d.acc = append(d.acc, make([]float64, len(d.r.Phases)-len(d.acc))...)
	}
	var ww float64
	d.pace.work += len(w)
	for j, x := range w {
		if x == 0 {
			continue
		}
		ww += x * x
		d.pace.work += len(d.users[j])
		for _, u := range d.users[j] {
			if d.acc[u.k] == 0 {
				d.touched = append(d.touched, u.k)
			}
			d.acc[u.k] += u.w * x
		}
	}
	best, score := -1, -1.0
	for _, k := range d.touched {
		pw := d.acc[k]
		d.acc[k] = 0
		if int(k) == skip || pw == 0 {
			continue
		}
		s := pw / math.Sqrt(d.r.Phases[k].refSq*ww) * d.lift(m, d.r.Phases[k])
		if s > score+tieTolerance || (s > score-tieTolerance && int(k) < best) {
			best, score = int(k), s
		}
	}
	d.touched = d.touched[:0]
	return best, score
}

// lift returns 1/(c(m)·c(m_P)): what sampling noise takes off the cosine
// of a window of m samples with phase ph, whose vector counts m_P (see
// noise.go); 1 without Params.Spread.
func (d *detector) lift(m float64, ph *Phase) float64 {
	return noiseLift(d.r.Params.Spread, m) * noiseLift(d.r.Params.Spread, ph.samples)
}

func (d *detector) empty(n int) int {
	if d.emptyK < 0 {
		ph := &Phase{ID: Empty, Color: EmptyColor, Sum: make([]float64, n)}
		ph.ref = ph.Sum
		d.r.Phases = append(d.r.Phases, ph)
		d.pos = append(d.pos, nil)
		d.emptyK = len(d.r.Phases) - 1
	}
	return d.emptyK
}

// newPhase starts a phase whose vector is the interval's own vector (the
// paper's "initial values"). When that is zero but the window is not (the
// first empty interval after activity that matches nothing), the window's
// counts seed it instead, so the new phase can be matched at all.
func (d *detector) newPhase(v *Vectors, i int, win *window) int {
	w := win.sum
	ph := &Phase{ID: d.next, Color: Color(Hue(d.next)), Sum: make([]float64, len(w))}
	ph.ref = ph.Sum
	d.next++
	d.r.Phases = append(d.r.Phases, ph)
	d.pos = append(d.pos, make([]int32, len(w)))
	k := len(d.r.Phases) - 1
	for j := range d.pos[k] {
		d.pos[k][j] = -1
	}
	if v.Off[i] == v.Off[i+1] {
		for j, x := range w {
			d.add(k, j, x)
		}
		ph.samples = win.samples
	}
	return k
}

// cosine returns P·W/(|P||W|), 0 when either is zero.
func cosine(ph *Phase, w []float64) float64 {
	if ph.refSq == 0 {
		return 0
	}
	ref := ph.ref[:len(w)]
	var pw, ww float64
	for j, x := range w { // one pass for both sums: see the package doc
		pw += ref[j] * x
		ww += x * x
	}
	if pw == 0 {
		return 0
	}
	return pw / math.Sqrt(ph.refSq*ww)
}

// normalized returns a scaled to length 1 (a zero vector stays zero). It
// divides by the norm rather than multiplying by its inverse, which would
// change the last bits of the weights a saved set prints.
func normalized(a []float64) []float64 {
	out := make([]float64, len(a))
	if n := math.Sqrt(floats.Dot(a, a)); n > 0 {
		for j, x := range a {
			out[j] = x / n
		}
	}
	return out
}

// window keeps the sum of the last ω interval vectors, and how many
// stored entries they have (zero means W_i is exactly zero, whatever
// rounding the subtractions leave in sum).
type window struct {
	v       *Vectors
	w       int
	n       int
	sum     []float64
	samples float64 // the samples of the last ω intervals
}

func newWindow(v *Vectors, w int) *window {
	return &window{v: v, w: w, sum: make([]float64, len(v.Names))}
}

// advance adds interval i and subtracts interval i-ω.
func (x *window) advance(i int) {
	v := x.v
	for k := v.Off[i]; k < v.Off[i+1]; k++ {
		x.sum[v.Idx[k]] += v.Val[k]
	}
	x.n += v.Off[i+1] - v.Off[i]
	x.samples += float64(v.Samples[i])
	if j := i - x.w; j >= 0 {
		x.samples -= float64(v.Samples[j])
		for k := v.Off[j]; k < v.Off[j+1]; k++ {
			x.sum[v.Idx[k]] -= v.Val[k]
		}
		x.n -= v.Off[j+1] - v.Off[j]
	}
}

func sortPhases(ps []*Phase) {
	slices.SortStableFunc(ps, func(a, b *Phase) int { return cmp.Compare(a.ID, b.ID) })
}
