package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/proflens/proflens/kernel"
)

// TestWithinAndRepeat: a command of two profiles with a Within option
// reads one profile as BASE and NEW when the option is given (the named or
// the current one), and a Repeat option keeps every value, each checked.
func TestWithinAndRepeat(t *testing.T) {
	var got kernel.Call
	withCommand(t, &kernel.Command{Name: "zcmp", Summary: "compares", Profiles: 2, Within: "part",
		Options: []kernel.Option{{Name: "part", Kind: kernel.KindNumber, Repeat: true}, {Name: "n", Default: "1"}},
		Run:     func(c *kernel.Call) error { got = *c; return nil }})
	s := kernel.New(t.TempDir(), testTable()).Session()
	for _, n := range []string{"old", "new", "cur"} {
		s.Add(&kernel.Loaded{Name: n})
	}
	for _, tc := range []struct{ code, base, new, parts string }{
		{"zcmp old new", "old", "new", ""},
		{"zcmp old part=2 part=5", "old", "old", "2 5"},
		{"zcmp part=1 part=3 part=4", "cur", "cur", "1 3 4"},
	} {
		got = kernel.Call{}
		if _, err := kernel.RunCell(context.Background(), s, tc.code); err != nil {
			t.Fatalf("%s: %v", tc.code, err)
		}
		if got.Profiles[0].Name != tc.base || got.Profiles[1].Name != tc.new || strings.Join(got.All("part"), " ") != tc.parts {
			t.Errorf("%s: BASE %s, NEW %s, parts %q; want %s, %s, %q", tc.code, got.Profiles[0].Name, got.Profiles[1].Name,
				got.All("part"), tc.base, tc.new, tc.parts)
		}
	}
	for _, tc := range []struct{ code, want string }{
		{"zcmp old", "missing NEW"},
		{"zcmp part=1 part=x", "part=x is not a number"},
		{"zcmp old part=1 n=1 n=2", "n= is given twice"},
		{"zcmp nosuch part=1", "no profile is named nosuch"},
	} {
		if _, err := kernel.RunCell(context.Background(), s, tc.code); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.code, err, tc.want)
		}
	}
}
