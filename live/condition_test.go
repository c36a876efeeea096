package live

import (
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/analysis"
)

func TestParseCondition(t *testing.T) {
	for _, tc := range []struct {
		in, str string
		needs   Kind
	}{
		{"goroutines>0", "goroutines>0", Goroutine},
		{"goroutines>250", "goroutines>250", Goroutine},
		{"heap+64MB", "heap+67108864B", Heap},
		{"heap+1.5GB", "heap+1610612736B", Heap},
		{"heap+512KB", "heap+524288B", Heap},
		{"heap+100B", "heap+100B", Heap},
		{"heap+100", "heap+100B", Heap},
		{"cpu:sha256>20%", "cpu:sha256>20%", CPU},
		{"cpu:a>b>0.25", "cpu:a>b>25%", CPU}, // the last '>' ends the expression
		{"cpu:x>0", "cpu:x>0%", CPU},
	} {
		c, err := ParseCondition(tc.in)
		if err != nil || c.String() != tc.str || c.Needs() != tc.needs {
			t.Errorf("ParseCondition(%q) = %v (needs %v), %v; want %s needing %v", tc.in, c, c.Needs(), err, tc.str, tc.needs)
		}
	}
	for _, in := range []string{
		"goroutines>-1", "goroutines>", "goroutines>1.5", "heap+0", "heap+-5MB", "heap+5XB", "heap+", "heap+8000000000GB",
		"cpu:x", "cpu:(>20%", "cpu:x>100%", "cpu:x>1", "cpu:x>-1%", "cpu:x>NaN", "phase", "goroutines<3", "",
	} {
		if c, err := ParseCondition(in); err == nil || !strings.Contains(err.Error(), "when="+in) {
			t.Errorf("ParseCondition(%q) = %v, %v; want an error naming when=%s", in, c, err, in)
		}
	}
}

// window makes a window whose profile has one sample of value x of type
// typ per stack (frames separated by ';').
func window(typ string, stacks map[string]int64) *Window {
	b := analysis.NewBuilder("live", analysis.ValueType{Type: typ, Unit: "count"})
	for st, x := range stacks {
		var ids []int32
		for _, f := range strings.Split(st, ";") {
			ids = append(ids, b.Frame(analysis.Frame{Name: f}))
		}
		b.Add(b.Stack(ids), []int64{x}, 0, false, "", nil)
	}
	return &Window{Profile: b.Finish()}
}

// TestConditionsHold: each condition holds exactly when its statement
// does: more than N goroutines; the heap in use grown by at least SIZE
// since it was armed or last held; the matching functions on more than
// SHARE of the CPU time.
func TestConditionsHold(t *testing.T) {
	g, _ := ParseCondition("goroutines>5")
	for n, want := range map[int64]bool{4: false, 5: false, 6: true} {
		if _, ok := g.Check(window("goroutine", map[string]int64{"main": n - 1, "worker": 1})); ok != want {
			t.Errorf("goroutines>5 on %d goroutines: %v, want %v", n, ok, want)
		}
	}
	h, _ := ParseCondition("heap+64MB")
	var got []bool
	for _, mb := range []int64{30, 30, 10, 63, 1, -20, 30} {
		_, ok := h.Check(window("inuse_space", map[string]int64{"alloc": mb << 20}))
		got = append(got, ok)
	}
	if want := []bool{false, false, true, false, true, false, false}; !slices.Equal(got, want) {
		t.Errorf("heap+64MB over deltas of 30, 30, 10, 63, 1, -20, 30 MB: %v, want %v", got, want)
	}
	for over, want := range map[string]bool{"20%": true, "30%": false, "0.29": true} {
		c, _ := ParseCondition("cpu:^crypto/>" + over)
		w := window("cpu", map[string]int64{"main;crypto/sha256.block": 20, "main;crypto/aes.enc;crypto/aes.x": 10, "main;io.Copy": 70})
		if _, ok := c.Check(w); ok != want {
			t.Errorf("cpu:^crypto/>%s on 30%% of the CPU time: %v, want %v", over, ok, want)
		}
	}
	c, _ := ParseCondition("cpu:x>0")
	if _, ok := c.Check(window("samples", map[string]int64{"x": 5})); ok {
		t.Error("cpu:x>0 held on a window without cpu values")
	}
}
