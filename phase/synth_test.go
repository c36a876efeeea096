package phase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/analysis"
)

// recording describes a generated sampled recording with known phases: a
// profiler sampling one program at rate samples a second (with jitter and
// missed samples) while the program goes through phases, segments of
// segLen samples each (from minLen to maxLen), each phase drawing its leaf
// functions from a distribution of its own, and a shared library part.
type recording struct {
	rate           float64 // samples a second
	phases         int     // true phases, 2 and more
	segments       int     // segments, at least phases; neighbours differ
	minLen, maxLen int     // segment length in samples
	noise          int     // 0: sampling noise only; 1: drift and bursts; 2: more of both
}

func (s recording) String() string {
	return fmt.Sprintf("%gHz %d phases/%d segments of %d-%d samples noise=%d", s.rate, s.phases, s.segments, s.minLen, s.maxLen, s.noise)
}

// names of the generated functions.
const (
	synthLibNames   = 12 // shared library functions, every phase calls them
	synthPhaseNames = 8  // functions of each phase
	synthGCNames    = 3  // a collector's functions, in bursts
)

// generate returns the recording's call tree, every sample labelled
// phase=P with its true phase (bursts too: they are noise inside it).
func (s recording) generate(r *rand.Rand) *analysis.Tree {
	b := analysis.NewBuilder("synthetic", analysis.ValueType{Type: "samples", Unit: "count"})
	main := b.Frame(analysis.Frame{Name: "main.run"})
	frame := func(name string) int32 { return b.Frame(analysis.Frame{Name: name}) }
	lib := make([]int32, synthLibNames)
	for i := range lib {
		lib[i] = frame(fmt.Sprintf("lib.F%d", i))
	}
	gc := make([]int32, synthGCNames)
	for i := range gc {
		gc[i] = frame(fmt.Sprintf("runtime.gc%d", i))
	}
	type phaseMix struct {
		loop  int32
		own   []int32
		w     []float64 // own functions' weights (Zipf-like)
		share float64   // of samples in own functions, the rest in lib
	}
	mixes := make([]phaseMix, s.phases)
	for k := range mixes {
		m := phaseMix{loop: frame(fmt.Sprintf("p%d.loop", k)), share: 0.5 + 0.3*r.Float64()}
		for j := range synthPhaseNames {
			m.own = append(m.own, frame(fmt.Sprintf("p%d.f%d", k, j)))
			m.w = append(m.w, 1/float64(j+1))
		}
		r.Shuffle(len(m.w), func(i, j int) { m.w[i], m.w[j] = m.w[j], m.w[i] })
		mixes[k] = m
	}
	libW := make([]float64, synthLibNames)
	for j := range libW {
		libW[j] = 1 / float64(j+1)
	}
	seq := s.sequence(r)
	period := 1e9 / s.rate
	t := 0.0
	burst := 0
	for _, k := range seq {
		m := mixes[k]
		n := s.minLen + r.IntN(s.maxLen-s.minLen+1)
		share := m.share
		for i := range n {
			if i%50 == 0 && s.noise > 0 { // the mix drifts
				share = clamp(m.share+0.05*float64(s.noise)*(r.Float64()*2-1), 0.2, 0.95)
			}
			t += period * (0.8 + 0.4*r.Float64())
			if s.noise > 0 && r.Float64() < 0.05*float64(s.noise) {
				t += period * float64(1+r.IntN(3)) // descheduled: samples missed
			}
			if burst == 0 && s.noise > 0 && r.Float64() < 0.002*float64(s.noise) {
				burst = 2 + r.IntN(4*s.noise) // a collection or a page fault: a few samples
			}
			var stack []int32
			switch {
			case burst > 0:
				burst--
				stack = []int32{main, gc[r.IntN(len(gc))]}
			case r.Float64() < share:
				stack = []int32{main, m.loop, m.own[pick(r, m.w)]}
			default:
				stack = []int32{main, m.loop, lib[pick(r, libW)]}
			}
			b.Add(b.Stack(stack), []int64{1}, int64(t), true, "main", map[string][]string{"phase": {fmt.Sprint(k + 1)}})
		}
	}
	return analysis.NewTree(b.Finish())
}

// sequence returns the segments' phases: every phase at least once, no
// phase twice in a row.
func (s recording) sequence(r *rand.Rand) []int {
	seq := r.Perm(s.phases)
	for len(seq) < s.segments {
		k := r.IntN(s.phases)
		if k != seq[len(seq)-1] {
			seq = append(seq, k)
		}
	}
	return seq
}

// pick draws an index with probability proportional to w.
func pick(r *rand.Rand, w []float64) int {
	var sum float64
	for _, x := range w {
		sum += x
	}
	u := r.Float64() * sum
	for i, x := range w {
		if u -= x; u < 0 {
			return i
		}
	}
	return len(w) - 1
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// TestDetectSampledRecordings: on generated sampled recordings with known
// phases (rates from 97 Hz to 10 kHz, 2 to 5 phases in 2 to 15 segments of
// 600 to 3,600 samples, sampling noise alone or with the mix drifting,
// samples missed and short bursts of a collector), phases at the default
// interval and parameters, with the recording's spread, finds as many
// phases as there are and agrees with the truth (adjusted Rand index at
// least 0.9), at packages (level 1) and at full names.
func TestDetectSampledRecordings(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	rates := []float64{97, 250, 1000, 4000, 10000}
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 7))
		s := recording{rate: rates[r.IntN(len(rates))], phases: 2 + r.IntN(4), noise: r.IntN(3)}
		s.segments = s.phases + r.IntN(2*s.phases)
		s.minLen = 600 + r.IntN(600)
		s.maxLen = s.minLen * (1 + r.IntN(3))
		tr := s.generate(r)
		for _, level := range []int{1, 9} {
			dims := LevelDims(tr, level)
			p := DefaultParams()
			p.Spread = Spread(tr, dims)
			ns, _ := DefaultInterval(tr, dims, p)
			v, err := Build(t.Context(), tr, dims, Options{Interval: ns})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Detect(t.Context(), v, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			truth := IDs(Truth(tr.Profile, v, "phase"))
			found := 0
			for _, ph := range res.Phases {
				if ph.ID != Empty && ph.Intervals > 0 {
					found++
				}
			}
			if ari := ARI(truth, res.Of); ari < 0.9 || found != s.phases {
				t.Errorf("seed %d, %v, level %d: %d intervals of %v: %d phases, ARI %.3f; want %d phases, ARI ≥ 0.9\ntruth %s\nfound %s",
					seed, s, level, v.Len(), time.Duration(ns), found, ari, s.phases, digits(truth), digits(res.Of))
			}
		}
	}
}

// TestDefaultIntervalFromSpread: the default interval holds about as many
// samples as a window needs for the recording's spread (within the 1-2-5
// rounding, a factor of 1.6), at least MinSamples, and says why; a
// recording dense enough for DefaultIntervals intervals gets those.
func TestDefaultIntervalFromSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	tr := recording{rate: 1000, phases: 3, segments: 3, minLen: 600, maxLen: 700}.generate(r)
	long := recording{rate: 4000, phases: 3, segments: 60, minLen: 2000, maxLen: 4000}.generate(r)
	for _, tc := range []struct {
		name  string
		tree  *analysis.Tree
		level int
		why   string
	}{
		{"full names", tr, 9, "the samples spread over"},
		{"packages", tr, 1, "the fewest that make a vector"},
		{"a long recording", long, 9, "about 200 intervals over"},
	} {
		d, p := LevelDims(tc.tree, tc.level), DefaultParams()
		ns, why := DefaultInterval(tc.tree, d, p)
		samples := tc.tree.Profile.Samples
		span := samples[len(samples)-1].Time - samples[0].Time
		avg := float64(len(samples)) * float64(ns) / float64(span)
		need := math.Max(MinSamples, WindowSamples(Spread(tc.tree, d), p.Eps)/float64(p.Window))
		if !strings.Contains(why, tc.why) || avg < need/1.6 || tc.why != "about 200 intervals over" && avg > need*1.6 {
			t.Errorf("%s: %v, %.0f samples an interval, %q; want about %.0f samples, %q", tc.name, time.Duration(ns), avg, why, need, tc.why)
		}
		// The reason's figures hold: a window of w intervals of that many
		// samples reads a steady cosine of at least the one it names, which
		// one interval fewer would not.
		var perInterval, window, windowSamples float64
		var cosine string
		if at := strings.Index(why, "a window of "); at >= 0 {
			if _, err := fmt.Sscanf(why[at:], "a window of %g intervals needs %g for a steady phase to read a cosine of %s", &window, &windowSamples, &cosine); err != nil {
				t.Fatalf("%s: %q: %v", tc.name, why, err)
			}
			fmt.Sscanf(why, "about %g samples", &perInterval)
			c, _ := strconv.ParseFloat(cosine, 64)
			D := Spread(tc.tree, d)
			if window != float64(p.Window) || windowSamples != perInterval*window ||
				SteadyCosine(D, windowSamples) < c || SteadyCosine(D, windowSamples-window) >= c || c < p.Eps || c > 1 {
				t.Errorf("%s: %q: want a window's samples whose steady cosine (spread %.1f) reaches the one named, between ε and 1", tc.name, why, D)
			}
		} else if tc.why == "the samples spread over" {
			t.Errorf("%s: %q names no window's needs", tc.name, why)
		}
		// Where the recording starts does not matter (timestamps since
		// 1970 and since the program's start give the same length).
		shifted := *tc.tree.Profile
		shifted.Samples = slices.Clone(shifted.Samples)
		for i := range shifted.Samples {
			shifted.Samples[i].Time += 1_700_000_000_000_000_000
		}
		st := analysis.NewTree(&shifted)
		if ns2, why2 := DefaultInterval(st, LevelDims(st, tc.level), p); ns2 != ns || why2 != why {
			t.Errorf("%s: shifted by 1.7e18 ns: %v, %q; want %v, %q", tc.name, time.Duration(ns2), why2, time.Duration(ns), why)
		}
	}
}
