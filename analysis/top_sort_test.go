package analysis

import (
	"strings"
	"testing"
)

func TestTopSortTies(t *testing.T) {
	rows := []TopRow{{Name: "b", Flat: 1, Cum: 3}, {Name: "a", Flat: 1, Cum: 2}, {Name: "c", Flat: -4, Cum: 4}, {Name: "d", Flat: 1, Cum: 9}}
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
