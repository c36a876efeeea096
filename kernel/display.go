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
// a long load. Each Show is jupyter.Output.Update under the display's id
// (display_data with a display_id first, update_display_data after), so a
// notebook keeps only the last state and a terminal prints each.
type LiveDisplay struct {
	out jupyter.Output
	id  string
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
func (d *LiveDisplay) Show(b jupyter.Bundle) { d.out.Update(d.id, b, nil) }
