package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/proflens/proflens/internal/golden"
	"github.com/proflens/proflens/kernel"
)

// TestAVIDNotebookTables runs notebooks/avid.ipynb's cells up to its Go
// section, in one session at the notebook's folder, as Jupyter would, and
// checks the tables of compare-sampling (the paper's Tables 1 and 2, with
// each feature's verdict) against golden files: the notebook's outputs
// are part of what the tests hold fixed.
func TestAVIDNotebookTables(t *testing.T) {
	data, err := os.ReadFile("../../notebooks/avid.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type     string          `json:"cell_type"`
			ID       string          `json:"id"`
			Source   []string        `json:"source"`
			Metadata json.RawMessage `json:"metadata"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs("../../notebooks")
	if err != nil {
		t.Fatal(err)
	}
	s := kernel.NewSession(dir, testTable())
	var tables []string
	for _, c := range nb.Cells {
		if c.ID == "avid-16" { // the Go program, read from notebooks/data
			break
		}
		if c.Type != "code" {
			continue
		}
		code := strings.Join(c.Source, "")
		rec, err := RunForTest(t, s, code)
		if raises := strings.Contains(string(c.Metadata), "raises-exception"); (err != nil) != raises {
			t.Fatalf("cell %s %q: error %v, tagged raises-exception %v", c.ID, code, err, raises)
		}
		if strings.HasPrefix(code, "compare-sampling") {
			tables = append(tables, rec.Text())
		}
	}
	if len(tables) != 3 {
		t.Fatalf("%d compare-sampling tables, want Table 1 of demo:eclipse, and Tables 2 and 1 of demo:import", len(tables))
	}
	for i, name := range []string{"avid-table1-eclipse.txt", "avid-table2-import.txt", "avid-table1-import.txt"} {
		golden.Check(t, "testdata/"+name, []byte(tables[i]))
	}
	if !slices.ContainsFunc(tables, func(s string) bool { return strings.Contains(s, "partial:") }) {
		t.Errorf("no sampling shows a feature partly")
	}
}
