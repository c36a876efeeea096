package kernel

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel/jupyter"
)

// TestLiveDisplay: each display has an id of its own; every Show is an
// update under it, and the last one is what the display shows.
func TestLiveDisplay(t *testing.T) {
	rec := &Recorder{}
	c := &Call{Out: rec}
	a, b := c.LiveDisplay(), c.LiveDisplay()
	if a.id == b.id || !strings.HasPrefix(a.id, "proflens-") {
		t.Fatalf("display ids %q and %q: want distinct ids starting proflens-", a.id, b.id)
	}
	a.Show(jupyter.Bundle{"text/plain": "1 window"})
	b.Show(jupyter.Bundle{"text/plain": "timeline"})
	a.Show(jupyter.Bundle{"text/plain": "2 windows"})
	shown := rec.Shown()
	if len(rec.Events) != 3 || shown[a.id]["text/plain"] != "2 windows" || shown[b.id]["text/plain"] != "timeline" {
		t.Errorf("events %v, shown %v: want three updates, a showing 2 windows", rec.Events, shown)
	}
	if got := rec.Text(); got != "1 window\ntimeline\n2 windows\n" {
		t.Errorf("Text() = %q, want every state in order", got)
	}
}
