package kernel

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel/jupyter"
)

// TestLiveDisplay: each display has an id of its own; on a notebook's
// output its first Show is a display under the id and later ones update
// it in place; elsewhere every Show is a display of its own.
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
	var kinds []string
	for _, e := range rec.Events {
		kinds = append(kinds, e.Kind+" "+e.ID[len(displayPrefix):])
	}
	if got, want := strings.Join(kinds, ", "), "display "+a.id[len(displayPrefix):]+", display "+b.id[len(displayPrefix):]+", update "+a.id[len(displayPrefix):]; got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if got := rec.Text(); got != "2 windows\ntimeline\n" {
		t.Errorf("Text() = %q, want the displays in their last state", got)
	}
	plain := &Recorder{}
	d := (&Call{Out: plainOutput{plain}}).LiveDisplay() // plainOutput: progress_test.go
	d.Show(jupyter.Bundle{"text/plain": "1"})
	d.Show(jupyter.Bundle{"text/plain": "2"})
	if got := plain.Text(); got != "1\n2\n" {
		t.Errorf("on an output without updates, Text() = %q, want every state", got)
	}
}
