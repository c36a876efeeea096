package plotting

import (
	"math"
	"math/rand"
	"testing"
)

const eps = 1e-6

// checkPic checks the invariants of a selection: within budget, weights
// conserved (each item's total is its self plus its children's totals, fold
// marks included), whole paths from the top, and heaviest first: no folded
// node outweighs a drawn one.
func checkPic(t *testing.T, p *Pic, max int) {
	t.Helper()
	if len(p.Items) > max {
		t.Errorf("drawn %d items, budget %d", len(p.Items), max)
	}
	var top int64
	for _, id := range p.Top {
		top += p.Items[id].Total
	}
	if top != p.Scale {
		t.Errorf("top totals sum to %d, Scale %d", top, p.Scale)
	}
	minShown, maxFolded := int64(math.MaxInt64), int64(0)
	for i := range p.Items {
		it := &p.Items[i]
		var kids int64
		for _, k := range it.Kids {
			kids += p.Items[k].Total
			if p.Items[k].Parent != int32(i) || p.Items[k].Depth != it.Depth+1 {
				t.Fatalf("item %d: kid %d has parent %d depth %d", i, k, p.Items[k].Parent, p.Items[k].Depth)
			}
		}
		if kids+it.Self != it.Total { // a fold mark's weight is its own
			t.Errorf("item %d %s: self %d + kids %d != total %d", i, it.Name, it.Self, kids, it.Total)
		}
		if it.Fold > 0 {
			if !p.Bottom {
				maxFolded = max64(maxFolded, it.Total/int64(it.Fold)) // at least one folded node is this heavy
			}
		} else if it.Total < minShown {
			minShown = it.Total
		}
	}
	if maxFolded > minShown {
		t.Errorf("a folded node weighs at least %d, more than the lightest drawn node %d", maxFolded, minShown)
	}
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

func TestSelectRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		v := randomView(r, 10+r.Intn(400))
		for _, max := range []int{2, 5, 40, 2000} {
			for _, inv := range []bool{false, true} {
				o := Options{Layout: LayoutFlame, Inverted: inv}
				if err := o.check(v); err != nil {
					t.Fatal(err)
				}
				p := o.pic(v, max)
				checkPic(t, p, max)
				if t.Failed() {
					t.Fatalf("view %d, max %d, inverted %v", i, max, inv)
				}
			}
		}
	}
}

func TestFlameRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		v := randomView(r, 10+r.Intn(300))
		o := Options{Layout: LayoutFlame, Order: []string{OrderName, OrderWeight}[i%2]}
		o.check(v)
		p := o.pic(v, 50+r.Intn(300))
		rects := Flame(p, 1000, 10)
		for id, rc := range rects {
			it := &p.Items[id]
			if want := 1000 * float64(it.Total) / float64(p.Scale); math.Abs(rc.W-want) > eps {
				t.Fatalf("Flame: item %d width %.4f, want %.4f", id, rc.W, want)
			}
			if rc.Y != float64(it.Depth)*10 {
				t.Fatalf("Flame: item %d y %.2f at depth %d", id, rc.Y, it.Depth)
			}
			x := rc.X // children tile the parent from its left edge, without overlap
			for _, k := range it.Kids {
				if math.Abs(rects[k].X-x) > eps {
					t.Fatalf("Flame: kid %d of %d starts at %.4f, want %.4f", k, id, rects[k].X, x)
				}
				x += rects[k].W
			}
			if x > rc.X+rc.W+eps {
				t.Fatalf("Flame: kids of %d end at %.4f, beyond %.4f", id, x, rc.X+rc.W)
			}
		}
	}
}

func TestRadialRandom(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 200; i++ {
		v := randomView(r, 10+r.Intn(300))
		o := Options{}
		o.check(v)
		p := o.pic(v, 50+r.Intn(300))
		secs := Radial(p, 400)
		unit := math.Pi * 400 * 400 / (2 * float64(p.Depth+1)) / float64(p.Scale) // area per unit of weight
		for id, s := range secs {
			it := &p.Items[id]
			area := (s.A0 - s.A1) / 2 * (s.R1*s.R1 - s.R0*s.R0)
			if want := unit * float64(it.Total); math.Abs(area-want) > 1e-6*want+eps {
				t.Fatalf("Radial: item %d area %.4f, want %.4f", id, area, want)
			}
			if s.A1 < -eps || s.A0 > math.Pi+eps || s.R1 > 400+eps {
				t.Fatalf("Radial: item %d outside the fan: %+v", id, s)
			}
			a := s.A0 // children share the parent's sector, in order, without overlap
			for _, k := range it.Kids {
				if math.Abs(secs[k].A0-a) > eps || math.Abs(secs[k].R0-s.R1) > eps {
					t.Fatalf("Radial: kid %d of %d at %+v, want A0 %.4f R0 %.4f", k, id, secs[k], a, s.R1)
				}
				a = secs[k].A1
			}
			if a < s.A1-eps {
				t.Fatalf("Radial: kids of %d end at %.4f, beyond %.4f", id, a, s.A1)
			}
		}
	}
}

func TestTidyRandom(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 200; i++ {
		v := randomView(r, 10+r.Intn(300))
		o := Options{Layout: LayoutTree}
		o.check(v)
		p := o.pic(v, 50+r.Intn(300))
		pl := Tidy(p, 100, 60, 40)
		last := map[int32]float64{} // depth → x of the previous node at that depth, in pre-order
		for id, q := range pl {
			it := &p.Items[id]
			if x, ok := last[it.Depth]; ok && q.X-x < 100-eps {
				t.Fatalf("Tidy: item %d at x %.2f, only %.2f right of its neighbour", id, q.X, q.X-x)
			}
			last[it.Depth] = q.X
			if len(it.Kids) > 0 {
				lo, hi := pl[it.Kids[0]].X, pl[it.Kids[len(it.Kids)-1]].X
				if math.Abs(q.X-(lo+hi)/2) > eps {
					t.Fatalf("Tidy: item %d at %.2f, not centred over %.2f..%.2f", id, q.X, lo, hi)
				}
			}
			if want := 40 * math.Sqrt(float64(it.Total)/float64(p.Scale)); math.Abs(q.R-want) > eps {
				t.Fatalf("Tidy: item %d radius %.4f, want %.4f", id, q.R, want)
			}
		}
	}
}
