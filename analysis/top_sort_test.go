package analysis

import (
	"strings"
	"testing"
)

func TestTopSortTies(t *testing.T) {
	rows := []TopRow{{"b", 1, 3}, {"a", 1, 2}, {"c", -4, 4}, {"d", 1, 9}}
	sortTop(rows, false)
	if got, want := rowNames(rows), "c a b d"; got != want {
		t.Errorf("sortTop(flat) = %v, want %v", got, want)
	}
	sortTop(rows, true)
	if got, want := rowNames(rows), "d c b a"; got != want {
		t.Errorf("sortTop(cum) = %v, want %v", got, want)
	}
}

func rowNames(rows []TopRow) string {
	var s []string
	for _, r := range rows {
		s = append(s, r.Name)
	}
	return strings.Join(s, " ")
}
