package commands

import (
	"fmt"
	"slices"
	"strings"

	"github.com/proflens/proflens/kernel"
	"github.com/proflens/proflens/store"
)

// listStore shows what a store holds (its profile types, its label names
// and their values), over from= and to= when given, else what the store
// holds now, and keeps it in the session for completion (completeStore).
func listStore(c *kernel.Call, src store.Source, st store.Store) error {
	r, err := storeRange(c, false)
	if err != nil {
		return err
	}
	cat, err := store.Discover(c.Ctx, st, r.From, r.To)
	if err != nil {
		return err
	}
	catalogs(c.Session)[src.Store()] = cat
	types := &kernel.Table{Title: src.Store() + ": profile types", Columns: []string{"type"}}
	for _, t := range cat.Types {
		types.Rows = append(types.Rows, []any{t})
	}
	c.Table(types)
	labels := &kernel.Table{Title: src.Store() + ": labels", Columns: []string{"label", "values", "count"}}
	for _, l := range cat.Labels {
		labels.Rows = append(labels.Rows, []any{l.Name, shortList(l.Values, 8), len(l.Values)})
	}
	labels.Note = fmt.Sprintf("load %s/TYPE{label=\"value\"} from=… to=… reads profiles; Tab completes the types and label names.", src.Store())
	if cat.More > 0 {
		labels.Note = fmt.Sprintf("%d more label names not shown. ", cat.More) + labels.Note
	}
	c.Table(labels)
	return nil
}

// shortList joins the first n values, and says how many more there are.
func shortList(vs []string, n int) string {
	if len(vs) <= n {
		return strings.Join(vs, ", ")
	}
	return strings.Join(vs[:n], ", ") + fmt.Sprintf(", … (%d more)", len(vs)-n)
}

// completeStore completes a store URL from the stores listed in the
// session: the schemes, a listed store, its profile types, and inside the
// braces its label names and their values.
func completeStore(c *kernel.Call, prefix string) []string {
	var out []string
	for _, scheme := range []string{store.Pyroscope + "://", store.Parca + "://"} {
		if strings.HasPrefix(scheme, prefix) && prefix != "" {
			out = append(out, scheme)
		}
	}
	for url, cat := range catalogs(c.Session) {
		switch head := url + "/"; {
		case strings.HasPrefix(head, prefix):
			out = append(out, head)
		case strings.HasPrefix(prefix, head):
			out = append(out, completeQuery(cat, head, prefix[len(head):])...)
		}
	}
	slices.Sort(out)
	return out
}

// completeQuery completes the query q after head: a profile type, then a
// label name or a label's value in the matcher being written.
func completeQuery(cat *store.Catalog, head, q string) []string {
	var out []string
	typ, sel, braces := strings.Cut(q, "{")
	if !braces {
		for _, t := range cat.Types {
			if strings.HasPrefix(t, typ) {
				out = append(out, head+t, head+t+"{")
			}
		}
		return out
	}
	done := head + typ + "{" + sel[:strings.LastIndex(sel, ",")+1]
	matcher := sel[len(done)-len(head)-len(typ)-1:]
	if i := strings.IndexAny(matcher, "=!"); i >= 0 {
		name, value := matcher[:i], strings.TrimLeft(matcher[i:], "=!~")
		op := matcher[i : len(matcher)-len(value)]
		for _, v := range cat.Values(strings.TrimSpace(name)) {
			if strings.HasPrefix(v, value) {
				out = append(out, done+name+op+v)
			}
		}
		return out
	}
	for _, l := range cat.Labels {
		if strings.HasPrefix(l.Name, matcher) {
			out = append(out, done+l.Name+"=")
		}
	}
	return out
}

// storesKey keeps what each store listed held, for completion.
var storesKey = kernel.NewKey[map[string]*store.Catalog]("stores")

// catalogs returns the session's store catalogs by store.
func catalogs(s *kernel.Session) map[string]*store.Catalog {
	m := storesKey.Get(s)
	if m == nil {
		m = map[string]*store.Catalog{}
		storesKey.Set(s, m)
	}
	return m
}
