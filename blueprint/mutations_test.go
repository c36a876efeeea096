package blueprint

import (
	"fmt"
	"testing"

	"github.com/proflens/proflens/analysis"
	"github.com/proflens/proflens/avid"
)

func TestMutations(t *testing.T) {
	b := analysis.NewBuilder("test", analysis.ValueType{Type: "samples", Unit: "count"})
	var st []int32
	for _, name := range []string{"ROElement.addAll", "ROElement.add", "ROElement.bounds", "Other.run"} {
		st = append(st, b.Frame(analysis.Frame{Name: name}))
	}
	b.Add(b.Stack(st), []int64{1}, 0, false, "", nil)
	tree := analysis.NewTree(b.Finish())
	m, err := avid.ParseMapping("mut.txt", "# receivers\nmutates class ROElement.add*\npure function ROElement.bounds\n")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Mutations(m, tree)
	if want := []Mutation{Mutates, Mutates, Pure, MutationUnknown}; err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Mutations = %v, %v; want %v", got, err, want)
	}
	bad, _ := avid.ParseMapping("bad.txt", "JDK class java.*\n")
	if _, err := Mutations(bad, tree); err == nil || err.Error() != `bad.txt: entity "JDK": a mutation file has the entities mutates and pure only` {
		t.Errorf("Mutations of a mapping with entity JDK: %v", err)
	}
	for _, c := range []struct {
		in   []Mutation
		want Mutation
	}{{nil, MutationUnknown}, {[]Mutation{Pure, Pure}, Pure}, {[]Mutation{Pure, MutationUnknown}, MutationUnknown}, {[]Mutation{Pure, Mutates}, Mutates}} {
		if got := Combine(c.in...); got != c.want {
			t.Errorf("Combine(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
