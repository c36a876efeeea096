package analysis_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/proflens/proflens/analysis"
	_ "github.com/proflens/proflens/analysis/folded"
)

func ExampleSplit() {
	for _, c := range []struct {
		name string
		lang analysis.Lang
	}{
		{"github.com/google/pprof/profile.(*Profile).Write", analysis.LangGo},
		{"org.apache.axis.utils.ClassUtils.forName", analysis.LangJVM},
		{"std::vector<std::pair<int, int>>::push_back(int const&)", analysis.LangCpp},
		{"decode (json/decoder.py:337)", analysis.LangPython},
		{"render https://cdn.example.com/js/app.js:3:9", analysis.LangJS},
		{"lib2.Muscle.contract", analysis.LangAuto},
	} {
		fmt.Println(strings.Join(analysis.Split(c.name, c.lang), " · "))
	}
	// Output:
	// github.com/google/pprof · /profile · .(*Profile) · .Write
	// org.apache.axis · .utils · .ClassUtils · .forName
	// std · ::vector<std::pair<int, int>> · ::push_back(int const&)
	// json · .decoder · .decode · :337
	// https://cdn.example.com · /js · /app.js ·  render · :3:9
	// lib2 · .Muscle · .contract
}

func ExampleDisplay() {
	fmt.Println(analysis.Display("decode (json/decoder.py:337)", analysis.LangPython))
	fmt.Println(analysis.Display("net/http.(*Server).Serve", analysis.LangGo))
	// Output:
	// json.decoder.decode:337
	// net/http.(*Server).Serve
}

func ExampleGuess() {
	for _, name := range []string{
		"net/http.(*Server).Serve",
		"com.google.common.collect.ImmutableList.of",
		"v8::internal::Heap::CollectGarbage",
		"main (script.py:3)",
		"f https://a.org/f.js:2:3",
		"lib2.Muscle.contract",
	} {
		fmt.Println(analysis.Guess(name))
	}
	// Output:
	// go
	// jvm
	// cpp
	// python
	// js
	// auto
}

func ExampleFrameTotals() {
	// a → b → a, weighing 5: the recursion counts once in a's total.
	p, err := analysis.Parse(context.Background(), "rec.folded", []byte("a;b;a 5\na 1\n"), analysis.LoadOptions{Format: "folded"})
	if err != nil {
		fmt.Println(err)
		return
	}
	self, total := analysis.FrameTotals(analysis.NewTree(p), 0)
	for f, fr := range p.Frames {
		fmt.Printf("%s self %d total %d\n", fr.Name, self[int32(f)], total[int32(f)])
	}
	// Output:
	// a self 6 total 6
	// b self 0 total 5
}
