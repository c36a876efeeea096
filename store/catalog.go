package store

import (
	"context"
	"slices"
	"strings"
	"time"
)

// Catalog is what a store holds over a range: its profile types and its
// label names with their values, each sorted.
type Catalog struct {
	Types  []string
	Labels []Label
	// More is how many label names were left without their values, past
	// MaxLabels.
	More int
}

// Label is a label name and its values.
type Label struct {
	Name   string
	Values []string
}

// MaxLabels bounds the label names whose values Discover asks for (one
// request each).
const MaxLabels = 64

// Discover lists what s holds in [from, to). Internal labels (__name__ and
// the like, which the profile type already says) are left out.
func Discover(ctx context.Context, s Store, from, to time.Time) (*Catalog, error) {
	types, err := s.Types(ctx, from, to)
	if err != nil {
		return nil, err
	}
	names, err := s.Labels(ctx, from, to)
	if err != nil {
		return nil, err
	}
	c := &Catalog{Types: sorted(types)}
	for _, name := range sorted(names) {
		if strings.HasPrefix(name, "__") {
			continue
		}
		if len(c.Labels) == MaxLabels {
			c.More++
			continue
		}
		values, err := s.Values(ctx, name, from, to)
		if err != nil {
			return nil, err
		}
		c.Labels = append(c.Labels, Label{Name: name, Values: sorted(values)})
	}
	return c, nil
}

// sorted returns the distinct strings of s in order.
func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// Values returns the values of the label name, or nil.
func (c *Catalog) Values(name string) []string {
	for _, l := range c.Labels {
		if l.Name == name {
			return l.Values
		}
	}
	return nil
}
