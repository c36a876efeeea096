package avid_test

import (
	"math"
	"testing"

	"github.com/proflens/proflens/analysis/formats"
	"github.com/proflens/proflens/avid"
)

// A snapshot stands for its sampling period: the time the stack snapshots
// of demo:eclipse add up to stays within 3% of the recording's own total
// (44.30 ms of calls on two threads, with idle gaps between the worker's
// jobs and the user's actions), where charging each snapshot with the gap
// to the next one made 59.40 ms of C-2 every 20 events.
func TestThinTotals(t *testing.T) {
	p, err := formats.Demo("eclipse")
	if err != nil {
		t.Fatal(err)
	}
	want := p.Total(p.DefaultValue)
	for _, s := range []avid.Sampling{{Kind: "C-2", Every: 20}, {Kind: "C-2", Every: 5}, {Kind: "C-3", Every: 1e6}, {Kind: "C-3", Every: 270e3}} {
		th, err := avid.Thin(p, avid.Whole(s))
		if err != nil {
			t.Fatal(err)
		}
		got := th.Profile.Total(th.Profile.DefaultValue)
		if math.Abs(float64(got-want)) > 0.03*float64(want) {
			t.Errorf("%v: total %d ns, want within 3%% of the recording's %d ns", s, got, want)
		}
	}
}
