package commands

import (
	"time"

	"github.com/proflens/proflens/kernel"
)

var sleepCommand = &kernel.Command{
	Name:     "sleep",
	Summary:  "Wait for a while (for trying interrupts).",
	Doc:      "Waits for DURATION (`2s`, `150ms`; a bare number is seconds). Interrupting the kernel ends the wait.",
	Args:     []kernel.Arg{{Name: "DURATION", Doc: "how long to wait", Kind: kernel.KindDuration}},
	Examples: []string{"sleep 10ms"},
	Run: func(c *kernel.Call) error {
		d, err := kernel.ParseDuration(c.Args[0])
		if err != nil || d < 0 {
			return c.Usagef("%q is not a duration: write e.g. 2s or 150ms", c.Args[0])
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return nil
		case <-c.Ctx.Done():
			return c.Ctx.Err()
		}
	},
}
