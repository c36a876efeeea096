package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/store"
)

// storeOptions are the options of load that only a store URL takes.
var storeOptions = []string{"from", "to", "step", "timeout", "max-steps"}

// loadStore answers `load pyroscope://…` and `load parca://…`: with a query,
// the profile of the range (a series with step=), added to the session;
// without one, a listing of what the store holds, kept for completion.
func loadStore(c *kernel.Call, url string, opts analysis.LoadOptions) error {
	src, err := store.ParseURL(url)
	if err != nil {
		return c.Usagef("%v", err)
	}
	timeout, err := c.Duration("timeout")
	if err != nil {
		return err
	}
	st := store.Open(src, timeout)
	if src.Query.IsZero() {
		return listStore(c, src, st)
	}
	r, err := storeRange(c, true)
	if err != nil {
		return err
	}
	if c.Has("step") {
		if r.Step, err = c.Duration("step"); err != nil {
			return err
		}
	}
	maxSteps, err := c.PositiveInt("max-steps")
	if err != nil {
		return err
	}
	return fetchStore(c, src, st, r, store.Options{Limit: opts.Limit, MaxSteps: maxSteps, Load: opts})
}

// storeRange reads from= and to=; without them, the zero range when
// optional, else a usage error.
func storeRange(c *kernel.Call, required bool) (store.Range, error) {
	var r store.Range
	if !c.Has("from") && !c.Has("to") && !required {
		return r, nil
	}
	if !c.Has("from") || !c.Has("to") {
		return r, c.Usagef("a store query needs from= and to= (RFC 3339, Unix seconds, or now-1h)")
	}
	now := time.Now()
	var err error
	for _, t := range []struct {
		opt string
		dst *time.Time
	}{{"from", &r.From}, {"to", &r.To}} {
		if *t.dst, err = store.ParseTime(c.Opt(t.opt), now); err != nil {
			return r, c.Usagef("%s=: %v", t.opt, err)
		}
	}
	return r, nil
}

// fetchStore loads src's query over r as one profile, showing a progress
// line while the steps of a series come in. A series that stops part way
// keeps the steps fetched, loaded, and the error says so.
func fetchStore(c *kernel.Call, src store.Source, st store.Store, r store.Range, o store.Options) error {
	prog := kernel.QuietProgress(c)
	if r.Step > 0 {
		prog = kernel.StartProgress(c, fmt.Sprintf("loading %s: fetching the steps of %s…", src, r.Step))
		o.Progress = func(done, steps int, bytes int64) {
			prog.Step(fmt.Sprintf("loading %s: %d of %d steps of %s, %s…", src, done, steps, r.Step, analysis.FormatValue(bytes, "bytes")))
		}
	}
	p, err := store.Fetch(c.Ctx, st, src, r, o)
	if p == nil {
		prog.Done("loading "+src.String(), err)
		return err
	}
	ctx := c.Ctx
	if err != nil {
		ctx = context.WithoutCancel(ctx) // keep what was fetched, interrupted or not
	}
	tree, terr := analysis.NewTreeContext(ctx, p)
	if terr != nil {
		prog.Done("loading "+src.String(), terr)
		return errors.Join(err, terr)
	}
	name := c.As
	if name == "" {
		name = c.Session.UniqueName(storeName(src))
	}
	l := kernel.NewLoaded(name, p, tree)
	c.Session.Add(l)
	prog.Done(fmt.Sprintf("loaded %s from %s: %s, %d samples", name, src, storeShape(p, r), len(p.Samples)), err)
	showInfo(c, l, "loaded "+name)
	if err != nil {
		var partial *store.PartialError
		if !errors.As(err, &partial) {
			return err
		}
		return fmt.Errorf("load %s: %w; the %d steps before it are loaded as %s", src, err, partial.Kept, name)
	}
	return nil
}

// storeShape says what a store load read: the range, and for a series
// its steps and how many were empty.
func storeShape(p *analysis.Profile, r store.Range) string {
	span := r.From.UTC().Format(time.RFC3339) + " to " + r.To.UTC().Format(time.RFC3339)
	if r.Step == 0 {
		return span
	}
	empty := 0
	for i := 0; i+1 < len(p.Intervals); i++ {
		if p.Intervals[i] == p.Intervals[i+1] {
			empty++
		}
	}
	return fmt.Sprintf("%d steps of %s from %s, %d empty", len(p.Intervals)-1, r.Step, span, empty)
}

// storeName is the default name of a store load: the value of the query's
// first = matcher when it makes a name (service_name="checkout" gives
// checkout), else the profile type's first element (process_cpu).
func storeName(src store.Source) string {
	for _, m := range src.Query.Matchers {
		if m.Op == "=" && isName(m.Value) {
			return m.Value
		}
	}
	name, _, _ := strings.Cut(src.Query.Type, ":")
	if !isName(name) {
		return src.Kind
	}
	return name
}

// isName reports whether s can name a profile as it is: a letter, then
// letters, digits, - and _.
func isName(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '-' || r == '_')) {
			return false
		}
	}
	return s != ""
}
