package phase

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
)

// The defaults of the limits that bound a run's memory: Build, Detect,
// Saved.Seed and NewSimilarity check every allocation that grows with an
// option (the interval length, the parameters, the names of the view)
// against them before making it.
const (
	// DefaultMaxIntervals is the most intervals Build cuts a profile into
	// when Options.MaxIntervals is 0. An interval costs about 40 bytes of
	// vectors and results, so the default bounds them to about 40 MB.
	DefaultMaxIntervals = 1_000_000
	// DefaultMaxCells is the most dense cells (phases × names in Detect
	// and Saved.Seed, bins × names and bins² in NewSimilarity) when
	// Params.MaxCells is 0. A cell costs 8 to 16 bytes, so the default
	// bounds them to about 300–500 MB.
	DefaultMaxCells = 1 << 25
)

// LimitError says a run would need more than one of its limits allows;
// the message says how much and what would fit.
type LimitError struct {
	Limit string // "intervals" (Options.MaxIntervals), "cells" (Params.MaxCells) or "bytes" (ReadSaved)
	Need  int64  // what the run would take
	Max   int64  // the limit
	Msg   string
	// Memory says the limit is what half of the machine's memory holds
	// (raising the option further changes nothing).
	Memory bool
}

func (e *LimitError) Error() string { return e.Msg }

// Bytes per unit of the limits, for bound: an interval's vectors and
// results, and a dense cell.
const (
	intervalBytes = 40
	cellBytes     = 16
)

// bound returns limit, or def when limit is 0, lowered to the number of
// units of size bytes that half of the machine's memory holds: an option
// may raise a limit, never past an allocation the machine cannot make.
func bound(limit, def int, size int64) int {
	if limit == 0 {
		limit = def
	}
	return int(min(int64(limit), memory()/2/size))
}

// atMemory says whether limit is the one bound lowered to the memory.
func atMemory(limit int64, size int64) bool { return limit == memory()/2/size }

// memory is the machine's physical memory (MemTotal in /proc/meminfo), or
// 8 GiB where that cannot be read.
var memory = sync.OnceValue(func() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				var kb int64
				if _, err := fmt.Sscanf(rest, "%d kB", &kb); err == nil && kb > 0 {
					return kb << 10
				}
			}
		}
	}
	return 8 << 30
})

// cellsNeeded returns a × b, saturating instead of overflowing.
func cellsNeeded(a, b int) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return int64(a) * int64(b)
}

// checkEvery is how many units of work (vector entries or cells touched)
// pass between two looks at the context: about a millisecond.
const checkEvery = 1 << 20

// pacer looks at a context once every checkEvery units of work, so long
// loops end soon after an interrupt at no measurable cost.
type pacer struct {
	ctx  context.Context
	work int
}

// step counts units of work and returns the context's error when it is
// time to look.
func (p *pacer) step(units int) error {
	p.work += units
	if p.work < checkEvery {
		return nil
	}
	p.work = 0
	if err := p.ctx.Err(); err != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	return nil
}
