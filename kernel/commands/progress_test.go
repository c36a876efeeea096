package commands

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/kernel/jupyter"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// bigFolded writes a folded-stacks file of at least progressSize bytes.
func bigFolded(t *testing.T, dir string) string {
	var b strings.Builder
	for i := 0; b.Len() < progressSize+1000; i++ {
		fmt.Fprintf(&b, "main;pkg%d.Outer%d;pkg%d.Inner%d %d\n", i%50, i%700, i%30, i, 1+i%7)
	}
	path := filepath.Join(dir, "big.folded")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoadProgress: a large load shows a progress line under a display id,
// updates it in place, and ends with a one-line summary; a small load shows
// no such line.
func TestLoadProgress(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	bigFolded(t, s.Dir)
	rec, err := RunForTest(t, s, "load big.folded as big\nload demo:profvis-toy")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range rec.Events {
		if e.ID != "" {
			kinds = append(kinds, e.Kind)
		}
	}
	if want := []string{"display", "update", "update"}; strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Errorf("events with a display id: %v, want %v", kinds, want)
	}
	b := rec.Bundles()
	if len(b) != 3 {
		t.Fatalf("%d bundles, want the progress line and two load summaries", len(b))
	}
	if got := b[0]["text/plain"].(string); !strings.HasPrefix(got, "loaded big from big.folded: 1MB, ") || !strings.Contains(got, " samples, ") {
		t.Errorf("the progress line ends as %q, want a summary of the load", got)
	}
}

// cancelling is an Output that interrupts the cell when a progress line
// starts, as a user's interrupt during a long load does.
type cancelling struct {
	*kernel.Recorder
	cancel context.CancelFunc
}

func (c cancelling) DisplayID(id string, data jupyter.Bundle, meta map[string]any) {
	c.Recorder.DisplayID(id, data, meta)
	c.cancel()
}

// TestLoadProgressInterrupted: an interrupted load says so on its progress
// line and leaves the session without the profile.
func TestLoadProgressInterrupted(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	bigFolded(t, s.Dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &kernel.Recorder{}
	_, jerr := kernel.NewInterp(s).Run(ctx, "load big.folded as big", cancelling{rec, cancel})
	if jerr == nil {
		t.Fatal("an interrupted load succeeded")
	}
	b := rec.Bundles()
	if len(b) != 1 || b[0]["text/plain"] != "loading big.folded: stopped, interrupted" {
		t.Errorf("bundles %v, want the progress line saying the load stopped", b)
	}
	if s.Get("big") != nil {
		t.Error("the interrupted load added its profile")
	}
}

// TestLoadProgressWithoutUpdates: where outputs cannot update, only the
// summary shows.
func TestLoadProgressWithoutUpdates(t *testing.T) {
	s := kernel.NewSession(t.TempDir(), testTable())
	bigFolded(t, s.Dir)
	rec := &kernel.Recorder{}
	if _, jerr := kernel.NewInterp(s).Run(context.Background(), "load big.folded as big", kerneltest.Plain{R: rec}); jerr != nil {
		t.Fatal(jerr)
	}
	if b := rec.Bundles(); len(b) != 2 || !strings.HasPrefix(b[0]["text/plain"].(string), "loaded big from big.folded: ") {
		t.Errorf("bundles %v, want the summary line and the load's table", b)
	}
}
