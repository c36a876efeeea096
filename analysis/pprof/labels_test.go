package pprof

import (
	"bytes"
	"compress/gzip"
	"context"
	"maps"
	"math"
	"math/rand"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/proflens/proflens/analysis"
)

// labelStrings is the string table of labelProfile: keys pprof treats
// alike and apart (bytes, request and alignment get a default unit), values
// (one that reads like a number with a unit), units (one with a space).
var labelStrings = []string{"", "cpu", "nanoseconds", "main", "k", "bytes", "request", "alignment", "thread_id",
	"v", "w", "5 bytes", "ms", "milli seconds"}

// labelWire is one label as written: indices into labelStrings, a number,
// and whether zero fields are written out rather than left out.
type labelWire struct {
	key, str, unit uint64
	num            int64
	zeros          bool
}

// labelProfile writes an uncompressed profile of one function whose samples
// carry the given labels.
func labelProfile(samples [][]labelWire) []byte {
	return message(func(p wire) {
		p.bytes(1, message(func(p wire) { p.varint(1, 1); p.varint(2, 2) }))
		for _, s := range labelStrings {
			p.bytes(6, []byte(s))
		}
		p.bytes(5, message(func(p wire) { p.varint(1, 1); p.varint(2, 3) }))
		p.bytes(4, message(func(p wire) { p.varint(1, 1); p.bytes(4, message(func(p wire) { p.varint(1, 1) })) }))
		for i, labels := range samples {
			p.bytes(2, message(func(p wire) {
				p.varint(1, 1)
				p.varint(2, uint64(i+1))
				for _, l := range labels {
					p.bytes(3, message(func(p wire) {
						for f, v := range []uint64{l.key, l.str, uint64(l.num), l.unit} {
							if v != 0 || l.zeros {
								p.varint(f+1, v)
							}
						}
					}))
				}
			}))
		}
	})
}

// labelForms are the label forms by name, each its own sample: string,
// numeric, numeric with a unit, a unit without a number, zero values that
// pprof drops, empty keys and values, a string and a number in one label
// (the string wins), extreme numbers, several values of one key mixing
// strings and numbers with changing units, and a sample without labels.
var labelForms = map[string][]labelWire{
	"string":               {{key: 4, str: 9}},
	"numeric":              {{key: 4, num: 42}},
	"numeric with unit":    {{key: 5, num: 4096, unit: 5}},
	"unit without number":  {{key: 4, unit: 12}},
	"zero number":          {{key: 4}, {key: 4, zeros: true}},
	"empty value":          {{key: 4, str: 0, zeros: true}},
	"empty key":            {{key: 0, str: 9}, {key: 0, num: 7}},
	"string and number":    {{key: 4, str: 10, num: 3, unit: 12}},
	"numeric-looking text": {{key: 4, str: 11}},
	"extremes":             {{key: 4, num: math.MinInt64}, {key: 4, num: math.MaxInt64}, {key: 4, num: -1, unit: 13}},
	"default units":        {{key: 6, num: 64}, {key: 7, num: 8}, {key: 8, num: 1234}},
	"mixed":                {{key: 4, str: 9}, {key: 4, num: 1, unit: 12}, {key: 4, str: 10}, {key: 4, num: 2, unit: 13}, {key: 4, num: 3}},
	"none":                 nil,
}

// randomLabels draws up to four labels of any form.
func randomLabels(r *rand.Rand) []labelWire {
	out := make([]labelWire, r.Intn(5))
	nums := []int64{0, 0, 1, -1, 42, math.MaxInt64, math.MinInt64}
	for i := range out {
		out[i] = labelWire{key: []uint64{0, 4, 5, 6, 7, 8}[r.Intn(6)], str: []uint64{0, 0, 0, 9, 10, 11}[r.Intn(6)],
			unit: []uint64{0, 0, 5, 12, 13}[r.Intn(5)], num: nums[r.Intn(len(nums))], zeros: r.Intn(2) == 0}
	}
	return out
}

// TestLabelForms decodes profiles carrying every label form, on the fast
// path, the gzip stream and through profile.ParseData, and checks each
// sample's labels field by field against what profile.ParseData reads:
// string values, numbers and units, and the profile's units per key
// against pprof's NumLabelUnits.
func TestLabelForms(t *testing.T) {
	var all [][]labelWire
	for _, name := range slices.Sorted(maps.Keys(labelForms)) {
		t.Run(name, func(t *testing.T) { checkLabelForms(t, [][]labelWire{labelForms[name]}) })
		all = append(all, labelForms[name])
	}
	checkLabelForms(t, all)
	r := rand.New(rand.NewSource(33))
	for range 200 {
		samples := make([][]labelWire, 1+r.Intn(6))
		for i := range samples {
			samples[i] = randomLabels(r)
		}
		checkLabelForms(t, samples)
	}
}

func checkLabelForms(t *testing.T, samples [][]labelWire) {
	t.Helper()
	data := labelProfile(samples)
	pp, err := profile.ParseData(data)
	if err != nil {
		t.Fatalf("profile.ParseData: %v", err)
	}
	fast, ok, err := decode(input("labels", data, 0))
	if !ok || err != nil {
		t.Fatalf("decode declined the profile (%v)", err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	stream, ok, err := gzipped(input("labels", gz.Bytes(), analysis.DefaultLimit))
	if !ok || err != nil {
		t.Fatalf("gzipped declined the profile (%v)", err)
	}
	for path, p := range map[string]*analysis.Profile{"decode": fast, "gzipped": stream, "fromProfile": fromProfile(input("labels", data, 0), pp)} {
		if err := sameLabels(p, pp); err != "" {
			t.Errorf("%s, labels %v: %s", path, samples, err)
		}
	}
}

// sameLabels compares p's labels with pp's, sample by sample and key by
// key: the string values first, in order, then each number in decimal
// with its unit after a space when it has one. It returns what differs.
func sameLabels(p *analysis.Profile, pp *profile.Profile) string {
	if len(p.Samples) != len(pp.Sample) {
		return "samples " + strconv.Itoa(len(p.Samples)) + ", want " + strconv.Itoa(len(pp.Sample))
	}
	for i := range p.Samples {
		got, s := p.Labels(&p.Samples[i]), pp.Sample[i]
		keys := slices.Concat(slices.Collect(maps.Keys(got)), slices.Collect(maps.Keys(s.Label)), slices.Collect(maps.Keys(s.NumLabel)))
		for _, k := range keys {
			vals, strs, nums := got[k], s.Label[k], s.NumLabel[k]
			if len(vals) != len(strs)+len(nums) {
				return "sample " + strconv.Itoa(i) + " key " + strconv.Quote(k) + ": values " + strings.Join(vals, "|") + ", want strings " +
					strings.Join(strs, "|") + " and numbers " + strconv.Itoa(len(nums))
			}
			if !slices.Equal(vals[:len(strs)], strs) {
				return "sample " + strconv.Itoa(i) + " key " + strconv.Quote(k) + ": strings " + strings.Join(vals[:len(strs)], "|") + ", want " + strings.Join(strs, "|")
			}
			for j, n := range nums {
				unit := ""
				if j < len(s.NumUnit[k]) {
					unit = s.NumUnit[k][j]
				}
				num, gotUnit, _ := strings.Cut(vals[len(strs)+j], " ")
				if num != strconv.FormatInt(n, 10) || gotUnit != unit {
					return "sample " + strconv.Itoa(i) + " key " + strconv.Quote(k) + ": number " + strconv.Quote(vals[len(strs)+j]) +
						", want " + strconv.FormatInt(n, 10) + " unit " + strconv.Quote(unit)
				}
			}
		}
	}
	if units, _ := pp.NumLabelUnits(); (len(units) > 0 || len(p.NumLabelUnits) > 0) && !maps.Equal(units, p.NumLabelUnits) {
		return "units per key " + strings.Join(slices.Sorted(maps.Values(p.NumLabelUnits)), "|") + ", want " + strings.Join(slices.Sorted(maps.Values(units)), "|")
	}
	return ""
}

// TestLabelIndexOutOfRange: a label whose key, string or unit is not an
// index into the string table (one past its end, or far past) is refused by
// profile.ParseData; the fast decoder declines it, so that the load reports
// pprof's error.
func TestLabelIndexOutOfRange(t *testing.T) {
	n := uint64(len(labelStrings))
	for _, l := range []labelWire{{key: n, str: 9}, {key: 4, str: n}, {key: 4, num: 1, unit: n}, {key: 4, str: 1 << 40}} {
		data := labelProfile([][]labelWire{{l}})
		if _, err := profile.ParseData(data); err == nil {
			t.Fatalf("label %+v: profile.ParseData accepts it", l)
		}
		if _, ok, err := decode(input("labels", data, 0)); ok || err != nil {
			t.Errorf("label %+v: decode ok %v, error %v; want it declined", l, ok, err)
		}
		if _, err := analysis.Parse(context.Background(), "labels.pb", data, analysis.LoadOptions{}); err == nil {
			t.Errorf("label %+v: Parse accepts it", l)
		}
	}
}
