package compaction

import (
	"regexp"
	"testing"
)

// TestStateSharesNames: the states SetLevel derives from a state share the
// names its first compaction interned, rather than interning them again;
// a state carried to another tree interns that tree's own.
func TestStateSharesNames(t *testing.T) {
	tr, other := toy(t), toy(t)
	s := NewState(tr, 1)
	Compact(tr, s, 0)
	for _, re := range []*regexp.Regexp{nil, regexp.MustCompile(`^lib2\.`)} {
		d, _, err := s.SetLevel(tr, 2, re)
		if err != nil {
			t.Fatal(err)
		}
		if d.ix == nil || d.ix != s.ix {
			t.Errorf("SetLevel(2, %v): interned names not shared", re)
		}
		if o, _, _ := s.SetLevel(other, 2, re); o.ix != nil {
			t.Errorf("SetLevel(2, %v) for another tree: shares the first tree's names", re)
		}
	}
}
