package commands

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/kernel/jupyter"
)

const shopCell = `load demo:shop as shop
mapping shop <<
# demo:shop's entities
UI   class ui.*
Core class core.*
DB   class db.*
JDK  class java.*
end
`

// avidRun runs code in a fresh session and returns its bundles.
func avidRun(t *testing.T, code string) []jupyter.Bundle {
	t.Helper()
	rec, err := RunForTest(t, nil, code)
	if err != nil {
		t.Fatalf("%q: %v", code, err)
	}
	return rec.Bundles()
}

// jsonOf returns a bundle's application/json as generic JSON values.
func jsonOf(t *testing.T, b jupyter.Bundle) map[string]any {
	t.Helper()
	data, err := json.Marshal(b["application/json"])
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func indented(t *testing.T, v any) []byte {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

// demo:shop's calls between entities, counted by hand from its trace
// (analysis/formats/avid_demo_test.go): render adds to the cart twice
// (UI→Core 2), the cart reads the store twice (Core→DB 2), the store uses a
// HashMap once (DB→JDK 1), pricing uses one once (Core→JDK 1), and run
// calls a helper of no entity (UI→(other) 1); Cart.add calling Price.total
// stays inside Core. Self and total: one µs per interval between events.
func TestEntitiesShop(t *testing.T) {
	bs := avidRun(t, shopCell+"entities mapping=shop")
	pic, b, arcs := bs[1], bs[2], bs[3] // the picture, the entities' table and JSON, the arcs' table
	want := map[string]any{
		"source": "events", "unit": "nanoseconds",
		"entities": []any{
			map[string]any{"name": "UI", "self": 6000.0, "total": 19000.0, "calls_in": 0.0},
			map[string]any{"name": "Core", "self": 7000.0, "total": 12000.0, "calls_in": 2.0},
			map[string]any{"name": "DB", "self": 3000.0, "total": 4000.0, "calls_in": 2.0},
			map[string]any{"name": "JDK", "self": 2000.0, "total": 2000.0, "calls_in": 2.0},
			map[string]any{"name": "(other)", "self": 1000.0, "total": 1000.0, "calls_in": 1.0},
		},
		"arcs": []any{
			map[string]any{"from": "Core", "to": "DB", "calls": 2.0},
			map[string]any{"from": "UI", "to": "Core", "calls": 2.0},
			map[string]any{"from": "Core", "to": "JDK", "calls": 1.0},
			map[string]any{"from": "DB", "to": "JDK", "calls": 1.0},
			map[string]any{"from": "UI", "to": "(other)", "calls": 1.0},
		},
	}
	if got := jsonOf(t, b); !reflect.DeepEqual(got, want) {
		t.Errorf("entities JSON:\n%s\nwant\n%s", indented(t, got), indented(t, want))
	}
	golden.Check(t, filepath.Join("testdata", "avid", "shop-entities.txt"), []byte(b["text/plain"].(string)+arcs["text/plain"].(string)))
	if !strings.Contains(pic["text/html"].(string), `<img class="proflens-picture" src="data:image/svg+xml;base64,`) {
		t.Errorf("entities' picture is not sent as a picture: %.200s", pic["text/html"])
	}
}

// Cels of two entries, worked out by hand from the same trace.
func TestCelsShop(t *testing.T) {
	b := avidRun(t, shopCell+"cels mapping=shop step=2")[1]
	got := jsonOf(t, b)
	var lines []string
	for _, c := range got["cels"].([]any) {
		cel := c.(map[string]any)
		var arcs []string
		for _, a := range cel["arcs"].([]any) {
			a := a.(map[string]any)
			arcs = append(arcs, a["from"].(string)+"→"+a["to"].(string)+" "+num(a["step"])+"/"+num(a["total"]))
		}
		var stack []string
		for _, e := range cel["stack"].([]any) {
			stack = append(stack, e.(string))
		}
		lines = append(lines, num(cel["start"])+"-"+num(cel["end"])+" ["+strings.Join(stack, " ")+"] "+strings.Join(arcs, ", "))
	}
	want := []string{
		"0-1000 [UI] ",
		"2000-3000 [UI Core DB] Core→DB 1/1, UI→Core 1/1",
		"4000-7000 [UI Core] Core→DB 0/1, UI→Core 0/1, DB→JDK 1/1",
		"8000-12000 [UI Core] Core→DB 0/1, UI→Core 1/2, Core→JDK 1/1, DB→JDK 0/1",
		"13000-19000 [] Core→DB 1/2, UI→Core 0/2, Core→JDK 0/1, DB→JDK 0/1, UI→(other) 1/1",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") || got["source"] != "events" {
		t.Errorf("cels (%v):\n%s\nwant\n%s", got["source"], strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	golden.Check(t, filepath.Join("..", "..", "plotting", "testdata", "shop-cels.txt"), []byte(b["text/plain"].(string)))
	if html := b["text/html"].(string); strings.Count(html, `<div class="pl-cel"><img class="proflens-picture"`) != 5 || !strings.Contains(html, "<script>") {
		t.Errorf("cels text/html is not a player of 5 cels, each a picture")
	}
}

func num(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
