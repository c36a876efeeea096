package compaction

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Sharing a step's regrouping between two goroutines.
//
// The groups of a regrouping are independent below their seeds: a group's
// members and child groups depend only on its name, its seeds and the
// levels under them. So two workers, each a grouping with its own groups,
// seeds, members and scratch space, can each take groups from their own
// stack, depth first. When one runs dry, the other hands it the group on
// its stack with the most call-tree nodes below its seeds (an old node
// reused whole has none) as a new top group of the receiver, and marks its
// own copy delegated. When both are dry, the work is done. The dry one
// spins meanwhile: handoffs come every few tens of microseconds, and a
// parked goroutine takes about as long to wake.
//
// The groups stay where they were made (see workers). A delegated group
// stands for the one it was handed on as, so the tree of groups, and the
// ids that splice numbers its new nodes with, walking it depth first, do
// not depend on how the work happened to be shared.

// shareMin is the least number of call-tree nodes below a step's top
// seeds for which the regrouping is shared (tests lower it). It is not
// shared when the process has one processor (unless tests insist).
var shareMin int32 = 8192

// shared reports whether a regrouping of size call-tree nodes is shared.
func shared(size int32) bool {
	return size >= shareMin && (runtime.GOMAXPROCS(0) > 1 || shareEager)
}

// delegated marks, in the reuse field, a group that its worker handed on
// to the other one.
const delegated = -2

// handoff is a group handed from one worker to the other: the group
// itself (its seeds copied) and where it was.
type handoff struct {
	gr    group
	seeds []int32
	from  int   // the worker that gave it
	gi    int32 // its group there
}

// delegation records that group gi of worker from was done as group root
// of the worker that holds the record.
type delegation struct {
	from     int
	gi, root int32
}

// sharing is what the two workers of a shared regrouping have in common.
type sharing struct {
	mu sync.Mutex // held to change hungry
	// Per worker, on a cache line of its own: a worker reads the other's
	// hungry at every group, and a hungry worker spins on its in.
	w [2]struct {
		_      [64]byte
		hungry atomic.Bool // waits for a handoff
		in     atomic.Pointer[handoff]
	}
	_    [64]byte
	done atomic.Bool
}

// Test hooks: shareFault is called as the helper starts; with shareEager,
// the caller's worker waits for the helper to be ready before it starts,
// so that even small regroupings are shared; shareSeen is told how many
// groups were handed on in each shared regrouping.
var (
	shareFault func()
	shareEager bool
	shareSeen  func(handoffs int)
)

// runShared is run on two goroutines (see above), g being the caller's
// worker, and returns the groups of both. A panic on the helper's goroutine
// is raised again on the caller's. The caller releases the helper, ws[1],
// once it is done with the groups.
func (g *grouping) runShared(on *helper) workers {
	h := stepGrouping(g.t, g.ix, g.level, g.total)
	h.old, h.target = g.old, g.target
	g.got, h.got = g.got[:0], h.got[:0]
	s := new(sharing)
	var failed any
	exited := make(chan struct{})
	on.run(func() {
		defer close(exited)
		defer func() {
			if failed = recover(); failed != nil {
				s.finish()
			}
		}()
		if shareFault != nil {
			shareFault()
		}
		s.work(1, h, nil)
	})
	func() {
		defer func() { s.finish(); <-exited }() // even when this side panics
		top := make([]int32, 0, g.gr[0].kidHi-g.gr[0].kidLo)
		for gi := g.gr[0].kidHi - 1; gi >= g.gr[0].kidLo; gi-- {
			top = append(top, gi)
		}
		for shareEager && !s.w[1].hungry.Load() {
			select {
			case <-exited:
				return
			default:
				runtime.Gosched()
			}
		}
		s.work(0, g, top)
	}()
	if failed != nil {
		panic(failed)
	}
	if shareSeen != nil {
		shareSeen(len(g.got) + len(h.got))
	}
	k := workers{ws: [2]*grouping{g, h}}
	for _, x := range k.ws {
		for _, d := range x.got {
			if k.body[d.from] == nil {
				k.body[d.from] = make(map[int32]int32)
			}
			k.body[d.from][d.gi] = d.root
		}
	}
	return k
}

// finish tells both workers that the work is over.
func (s *sharing) finish() { s.done.Store(true) }

// work is worker w's loop, g its grouping, starting with the groups in
// stack (the last first).
func (s *sharing) work(w int, g *grouping, stack []int32) {
	o := 1 - w
	head := 0 // stack[head:] is left to do; below head, handed on
	for {
		if head == len(stack) {
			stack, head = stack[:0], 0
			t, ok := s.wait(w)
			if !ok {
				return
			}
			stack = append(stack, g.receive(t))
			continue
		}
		gi := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if head < len(stack) && s.w[o].hungry.Load() && (g.largestFirst(stack[head:]) || shareEager) && s.give(o, g, stack[head]) {
			head++
		}
		if g.visit(gi) {
			for k := g.gr[gi].kidHi - 1; k >= g.gr[gi].kidLo; k-- {
				stack = append(stack, k)
			}
		}
	}
}

// largestFirst moves to the front of stack the group likely to hold the
// most work: the one with the most call-tree nodes below its seeds. It
// reports false when none has any work (all are old nodes reused whole).
func (g *grouping) largestFirst(stack []int32) bool {
	best, most := 0, int32(0)
	for k, gi := range stack {
		if n := g.gr[gi].size; n > most {
			best, most = k, n
		}
	}
	stack[0], stack[best] = stack[best], stack[0]
	return most > 0
}

// wait marks worker w hungry and waits for a handoff; it returns false
// when the other worker is hungry too, as then no work is left.
func (s *sharing) wait(w int) (handoff, bool) {
	s.mu.Lock()
	if s.w[1-w].hungry.Load() { // only w could feed it, and w is dry
		s.mu.Unlock()
		s.finish()
		return handoff{}, false
	}
	s.w[w].hungry.Store(true)
	s.mu.Unlock()
	// Spin rather than block: a blocked goroutine takes tens of
	// microseconds to wake, and handoffs come often. Spinning only reads,
	// so the other worker keeps its cache lines, and lets other goroutines
	// (the collector's) have the processor now and then.
	for spin := 1; ; spin++ {
		if s.w[w].in.Load() != nil {
			return *s.w[w].in.Swap(nil), true
		}
		if s.done.Load() {
			return handoff{}, false
		}
		if spin%64 == 0 {
			runtime.Gosched()
		}
	}
}

// give hands group gi of g to worker o, if o still waits for one.
func (s *sharing) give(o int, g *grouping, gi int32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.w[o].hungry.Load() {
		return false
	}
	s.w[o].hungry.Store(false)
	gr := &g.gr[gi]
	s.w[o].in.Store(&handoff{gr: *gr, seeds: slices.Clone(g.seeds[gr.seedLo:gr.seedHi]), from: 1 - o, gi: gi})
	gr.reuse = delegated
	return true
}

// receive makes a handed-on group a top group of g, and returns it.
func (g *grouping) receive(t handoff) int32 {
	r := int32(len(g.gr))
	t.gr.up, t.gr.seedLo = -1, int32(len(g.seeds))
	g.seeds = append(g.seeds, t.seeds...)
	t.gr.seedHi = int32(len(g.seeds))
	g.gr = append(g.gr, t.gr)
	g.got = append(g.got, delegation{from: t.from, gi: t.gi, root: r})
	return r
}

// workers is where the groups of a regrouping are: in one grouping, or in
// the two of a shared one, where a delegated group stands for the group of
// the other worker that did its work.
type workers struct {
	ws   [2]*grouping       // ws[1] is nil when the regrouping was not shared
	body [2]map[int32]int32 // per giving worker: its delegated group → the receiver's
}

// at returns where group gi of worker w was done: there, or where it was
// handed on to.
func (k *workers) at(w int, gi int32) (int, int32) {
	for k.ws[w].gr[gi].reuse == delegated {
		gi, w = k.body[w][gi], 1-w
	}
	return w, gi
}

// helper is a step's second goroutine. It is started as the step starts
// and stays awake, spinning, until the step stops it, so that it is running
// when the step has work for it: the shared regrouping, then the hash side
// of the splice. On the 2-processor machine where it was measured, a
// goroutine started in the middle of a step took a median of 0.14 ms to
// begin (an idle processor has to be woken), and the helper takes 2 µs to
// pick up a job.
type helper struct {
	job      atomic.Pointer[func()]
	quit     atomic.Bool
	exited   chan struct{}
	stopOnce func()
}

// startHelper starts a helper.
func startHelper() *helper {
	h := &helper{exited: make(chan struct{})}
	h.stopOnce = sync.OnceFunc(func() {
		h.quit.Store(true)
		<-h.exited
	})
	go h.loop()
	return h
}

func (h *helper) loop() {
	defer close(h.exited)
	for spin := 1; ; spin++ {
		if f := h.job.Swap(nil); f != nil {
			(*f)()
			continue
		}
		if h.quit.Load() {
			return
		}
		if spin%64 == 0 {
			runtime.Gosched()
		}
	}
}

// run runs f on the helper, or on a new goroutine when h is nil. The
// helper runs one job at a time: f must not be given while an earlier job
// may still run, and must not panic (jobs recover and report their panics
// themselves).
func (h *helper) run(f func()) {
	if h == nil {
		go f()
		return
	}
	h.job.Store(&f)
}

// stop stops the helper, once its job is done, and waits for it to end;
// a nil helper or a second stop does nothing.
func (h *helper) stop() {
	if h != nil {
		h.stopOnce()
	}
}
