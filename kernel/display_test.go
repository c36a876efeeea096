package kernel_test

import (
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// TestLiveDisplay: each display has an id of its own; on a notebook's
// output its first Show is a display under the id and later ones update
// it in place; elsewhere every Show is a display of its own.
func TestLiveDisplay(t *testing.T) {
	rec := &kernel.Recorder{}
	c := &kernel.Call{Out: rec}
	a, b := c.LiveDisplay(), c.LiveDisplay()
	if kernel.DisplayID(a) == kernel.DisplayID(b) || !strings.HasPrefix(kernel.DisplayID(a), "proflens-") {
		t.Fatalf("display ids %q and %q: want distinct ids starting proflens-", kernel.DisplayID(a), kernel.DisplayID(b))
	}
	a.Show(jupyter.Bundle{"text/plain": "1 window"})
	b.Show(jupyter.Bundle{"text/plain": "timeline"})
	a.Show(jupyter.Bundle{"text/plain": "2 windows"})
	var kinds []string
	for _, e := range rec.Events {
		kinds = append(kinds, e.Kind+" "+e.ID[len(kernel.DisplayPrefix):])
	}
	if got, want := strings.Join(kinds, ", "), "display "+kernel.DisplayID(a)[len(kernel.DisplayPrefix):]+", display "+kernel.DisplayID(b)[len(kernel.DisplayPrefix):]+", update "+kernel.DisplayID(a)[len(kernel.DisplayPrefix):]; got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if got := rec.Text(); got != "2 windows\ntimeline\n" {
		t.Errorf("Text() = %q, want the displays in their last state", got)
	}
	plain := &kernel.Recorder{}
	d := (&kernel.Call{Out: kerneltest.Plain{R: plain}}).LiveDisplay()
	d.Show(jupyter.Bundle{"text/plain": "1"})
	d.Show(jupyter.Bundle{"text/plain": "2"})
	if got := plain.Text(); got != "1\n2\n" {
		t.Errorf("on an output without updates, Text() = %q, want every state", got)
	}
}
