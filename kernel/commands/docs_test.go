package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/proflens/proflens/kernel"
)

// TestExamples runs every command's examples, in name order, each
// command's in one fresh session, so that the documentation cannot rot.
func TestExamples(t *testing.T) {
	for _, c := range testTable().Commands() {
		t.Run(c.Name, func(t *testing.T) {
			if strings.TrimSpace(c.Summary) == "" || strings.Contains(c.Summary, "\n") {
				t.Errorf("command %s: Summary must be one non-empty line, got %q", c.Name, c.Summary)
			}
			if len(c.Examples) == 0 {
				t.Errorf("command %s has no Examples: add at least one runnable line", c.Name)
			}
			s := kernel.NewSession(t.TempDir(), testTable())
			calls := false
			for i, ex := range c.Examples {
				st, err := kernel.Parse(ex)
				calls = calls || err == nil && len(st) > 0 && testTable().Lookup(strings.Trim(st[0].Words[0].Text, "?")) == c
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				_, err = kernel.RunCell(ctx, s, ex)
				cancel()
				if err != nil {
					t.Errorf("command %s, example %d %q: %v", c.Name, i+1, ex, err)
				}
			}
			if len(c.Examples) > 0 && !calls {
				t.Errorf("command %s: no example calls %s", c.Name, c.Name)
			}
		})
	}
}
