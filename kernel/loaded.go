package kernel

import (
	"context"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/compaction"
)

// A Naming names the frames of a profile otherwise than by their own names,
// as a granularity: an AVID mapping names each by its entity (level
// using=), so that views, pictures and phase vectors are by entity.
type Naming interface {
	Names(p *analysis.Profile) *analysis.Names
}

// Loaded is a profile in the session, with everything the user has set on
// it. What commands read and change goes through its methods: the call
// tree under the standing filter, recursion and mapping, the granularity
// state, the cached compacted view and the last picture. When a command
// fails, the engine puts every profile it read back as it was (Interp.call),
// so a command's changes are all or nothing.
type Loaded struct {
	Name    string
	Profile *analysis.Profile // as loaded (a live profile grows: Regrow)
	Value   int               // value type index shown by default
	// DiffBase is, for a difference made by diff that go tool pprof
	// -diff_base=DiffBase Profile.Source makes the same, BASE's source; "".
	DiffBase string

	filter    analysis.Filter                        // the standing filter (the filter command); zero for none
	recursion analysis.Recursion                     // folded out of the tree (collapse-recursion); zero for none
	mapping   Naming                                 // what frames are named by (level using=), or nil
	tree      *analysis.Tree                         // Profile under filter and recursion, named by mapping
	grained   [analysis.Addresses + 1]*analysis.Tree // tree at the other granularities, by analysis.Granularity, when read (TreeAt)
	state     *compaction.State                      // granularity state the user set; nil until then
	view      *compaction.View                       // cached compacted tree of the state and Value (CompactedView)
	picture   []byte                                 // the last SVG drawn of this profile, for export
	drawn     *compaction.View                       // the view of the last picture, to outline what changed since
	initial   *compaction.State                      // the state read while state is nil: level 1 (Granularity)
	full      *compaction.View                       // the view at full names, for FullNames commands while state is nil
	kept      map[any]any                            // what commands keep on the profile (keep.go)
}

// NewLoaded returns the profile p named name, with its call tree t and no
// filter, and p's default value type.
func NewLoaded(name string, p *analysis.Profile, t *analysis.Tree) *Loaded {
	return &Loaded{Name: name, Profile: p, tree: t, Value: p.DefaultValue}
}

// Tree returns the call tree commands read: the profile under the standing
// filter and folded recursion, named by the mapping.
func (l *Loaded) Tree() *analysis.Tree { return l.tree }

// Filter returns the standing filter; zero for none.
func (l *Loaded) Filter() analysis.Filter { return l.filter }

// Recursion returns the recursion folded out of the tree; zero for none.
func (l *Loaded) Recursion() analysis.Recursion { return l.recursion }

// Mapping returns what the tree's frames are named by (level using=), or
// nil for their own names.
func (l *Loaded) Mapping() Naming { return l.mapping }

// State returns the granularity state the user set, nil until then.
func (l *Loaded) State() *compaction.State { return l.state }

// Granularity returns the granularity state commands read: the one the
// user set, else the initial one, level 1 everywhere, as ProfVis starts.
func (l *Loaded) Granularity() *compaction.State {
	if l.state != nil {
		return l.state
	}
	if l.initial == nil {
		l.initial = compaction.NewState(l.tree, 1)
	}
	return l.initial
}

// SetState makes s the granularity state; v, when not nil, is s compacted
// in the profile's value type, kept as the cached view.
func (l *Loaded) SetState(s *compaction.State, v *compaction.View) {
	l.state = s
	if v != nil {
		l.view = v
	}
}

// Picture returns the last SVG drawn of the profile, or nil.
func (l *Loaded) Picture() []byte { return l.picture }

// Drawn returns the view of the last picture, or nil when it drew no view.
func (l *Loaded) Drawn() *compaction.View { return l.drawn }

// SetPicture keeps svg as the profile's last picture (for export), and
// drawn as the view it drew (nil for a picture of something else).
func (l *Loaded) SetPicture(svg []byte, drawn *compaction.View) { l.picture, l.drawn = svg, drawn }

// CompactedView returns the compacted tree under the granularity state and
// value type, computing it only when the state or value changed since the
// last call. A profile nobody has set levels on starts fully compacted
// (level 1 everywhere), as ProfVis does. When ctx is done first, it
// returns ctx's error and l keeps the view it had.
func (l *Loaded) CompactedView(ctx context.Context) (*compaction.View, error) {
	s := l.Granularity()
	if v := l.view; v != nil && v.State() == s && v.Value == l.Value && v.Tree == l.tree {
		return v, nil
	}
	v, err := compaction.CompactContext(ctx, l.tree, s, l.Value)
	if err != nil {
		return nil, err
	}
	l.view = v
	return v, nil
}

// SetFilter makes f the standing filter: the tree is rebuilt, and the
// granularity state the user set carried over to the new tree.
func (l *Loaded) SetFilter(f analysis.Filter) { l.setTree(context.Background(), f, l.recursion) }

// SetRecursion folds r out of the tree (zero: none), carrying the
// granularity state over as SetFilter does. When ctx is done first, it
// returns ctx's error and l stays as it was.
func (l *Loaded) SetRecursion(ctx context.Context, r analysis.Recursion) error {
	return l.setTree(ctx, l.filter, r)
}

// setTree gives l the tree of its profile under the standing filter f with
// the recursion r folded out (named by its mapping, if any), carrying the
// granularity state the user set over to the new tree; it fails, leaving
// l as it was, when ctx is done first.
func (l *Loaded) setTree(ctx context.Context, f analysis.Filter, r analysis.Recursion) error {
	t, err := analysis.NewTreeContext(ctx, l.Profile.Filter(f).CollapseRecursion(r))
	if err != nil {
		return err
	}
	t = l.named(t)
	if l.state != nil {
		l.state = carryState(l.Profile, l.tree, l.state, t)
	}
	l.filter, l.recursion, l.tree, l.view, l.drawn, l.initial, l.full = f, r, t, nil, nil, nil, nil
	l.grained = [analysis.Addresses + 1]*analysis.Tree{}
	return nil
}

// UseMapping makes m the granularity (m nil: back to frame names), and
// starts the state afresh, every node at level 1.
func (l *Loaded) UseMapping(m Naming) {
	l.mapping = m
	l.tree = l.named(l.tree.WithNames(analysis.NewNames(l.tree.Profile)))
	l.state, l.view, l.drawn = compaction.NewState(l.tree, 1), nil, nil
	l.grained = [analysis.Addresses + 1]*analysis.Tree{}
}

// named returns a tree of l's profile named as l's granularity asks: by
// entity when level using= set a mapping, else by frame.
func (l *Loaded) named(t *analysis.Tree) *analysis.Tree {
	if l.mapping == nil {
		return t
	}
	return t.WithNames(l.mapping.Names(t.Profile))
}

// Regrow replaces the profile by p, the same series with more windows: its
// frames and stacks extend the old ones, id for id, so the granularity
// state carries over node for node (carryState), and the standing filter,
// folded recursion and mapping apply to the new profile.
func (l *Loaded) Regrow(p *analysis.Profile) {
	t := l.named(analysis.NewTree(p.Filter(l.filter).CollapseRecursion(l.recursion)))
	if l.state != nil {
		l.state = carryState(l.Profile, l.tree, l.state, t)
	}
	l.Profile, l.tree, l.view, l.drawn, l.initial, l.full = p, t, nil, nil, nil, nil
	l.grained = [analysis.Addresses + 1]*analysis.Tree{}
}
