package kernel

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"

	"github.com/proflens/proflens/kernel/jupyter"
)

// LiveDisplay is an output that a command shows and then replaces in place
// as its work goes on: a status line, a picture that grows, the progress of
// a long load. Where the output is a jupyter.Updater (a notebook's cell),
// the first Show is display_data under the display's id and every later one
// update_display_data, so the notebook keeps the last state; elsewhere
// (proflens run) each Show is a display of its own, as a terminal keeps them.
type LiveDisplay struct {
	out   jupyter.Output
	id    string
	shown bool
}

// displayPrefix makes display ids unique to this process: a front end keeps
// the ids of outputs shown before a kernel restart, and an update reaches
// every output of its id.
var (
	displayPrefix = newDisplayPrefix()
	displays      atomic.Int64
)

func newDisplayPrefix() string {
	var b [6]byte
	rand.Read(b[:])
	return "proflens-" + hex.EncodeToString(b[:]) + "-"
}

// LiveDisplay returns a new display of the call, with an id no other
// display of the process has.
func (c *Call) LiveDisplay() *LiveDisplay {
	return &LiveDisplay{out: c.Out, id: displayPrefix + strconv.FormatInt(displays.Add(1), 10)}
}

// Show shows b, replacing what the display showed before.
func (d *LiveDisplay) Show(b jupyter.Bundle) {
	u, ok := d.out.(jupyter.Updater)
	switch {
	case !ok:
		d.out.Display(b, nil)
	case d.shown:
		u.Update(d.id, b, nil)
	default:
		u.DisplayID(d.id, b, nil)
	}
	d.shown = true
}
