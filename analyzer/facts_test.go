package analyzer_test

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/crossslot/crossslot/analyzer"
)

// factBudget is the most a package's facts may take, gob-encoded: facts ride
// along with every package below the ones checked, so they must stay small.
const factBudget = 4 << 10

// encodedFacts runs the analyzer on the travel packages and gob-encodes each
// package's facts, objects in name order, as the drivers ship them.
func encodedFacts(t *testing.T) map[string][]byte {
	t.Helper()
	return encodedFactsOf(t, analysistest.Run(t, testdata(t), analyzer.Analyzer, "travel/keys", "travel/store", "travel"))
}

func encodedFactsOf(t *testing.T, results []*analysistest.Result) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, r := range results {
		type named struct {
			name string
			fact analysis.Fact
		}
		var facts []named
		for obj, fs := range r.Facts {
			for _, f := range fs {
				name := "package"
				if obj != nil {
					name = obj.String()
				}
				facts = append(facts, named{name, f})
			}
		}
		sort.Slice(facts, func(i, j int) bool { return facts[i].name < facts[j].name })
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf)
		for _, f := range facts {
			if err := enc.Encode(f.name); err != nil {
				t.Fatal(err)
			}
			if err := enc.Encode(f.fact); err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			roundTrip(t, f.name, f.fact)
		}
		out[r.Pass.Pkg.Path()] = buf.Bytes()
	}
	return out
}

// roundTrip decodes an encoded fact and requires the same fact back.
func roundTrip(t *testing.T, name string, fact analysis.Fact) {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(fact); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	back := reflect.New(reflect.TypeOf(fact).Elem()).Interface()
	if err := gob.NewDecoder(&buf).Decode(back); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !reflect.DeepEqual(back, fact) || fmt.Sprint(back) != fmt.Sprint(fact) {
		t.Errorf("%s: fact %v came back from gob as %v", name, fact, back)
	}
}

func TestFactsRoundTripDeterministicAndSmall(t *testing.T) {
	first := encodedFacts(t)
	second := encodedFacts(t)
	if len(first) == 0 {
		t.Fatal("no packages analyzed")
	}
	withFacts := 0
	for pkg, b := range first {
		if !bytes.Equal(b, second[pkg]) {
			t.Errorf("%s: facts encode differently across runs", pkg)
		}
		if len(b) > factBudget {
			t.Errorf("%s: facts take %d bytes, over the %d-byte budget", pkg, len(b), factBudget)
		}
		if len(b) > 0 {
			withFacts++
		}
		t.Logf("%s: %d bytes of facts", pkg, len(b))
	}
	if withFacts < 2 {
		t.Errorf("%d packages have facts, want the builder and the wrapper packages", withFacts)
	}
}

// TestFactsOnly: run for its facts alone (go vet's dependencies), the
// analyzer exports the facts of a whole run, on packages whose facts carry
// keys, wrappers, forwards, adapters and pickers.
func TestFactsOnly(t *testing.T) {
	pkgs := []string{"travel/keys", "travel/store", "travel", "summaries/...", "forwards/...", "adapters/...", "tx/...", "params/..."}
	whole := encodedFactsOf(t, analysistest.Run(ignoreExpectations{}, testdata(t), analyzer.New(&analyzer.Config{}), pkgs...))
	alone := encodedFactsOf(t, analysistest.Run(ignoreExpectations{}, testdata(t), analyzer.New(&analyzer.Config{FactsOnly: true}), pkgs...))
	withFacts := 0
	for pkg, b := range whole {
		if !bytes.Equal(b, alone[pkg]) {
			t.Errorf("%s: facts alone differ from the whole run's (%d bytes, want %d)", pkg, len(alone[pkg]), len(b))
		}
		if len(b) > 0 {
			withFacts++
		}
	}
	if withFacts < 5 {
		t.Errorf("%d packages have facts, want the fixtures' builders and wrappers", withFacts)
	}
}

// ignoreExpectations runs the analyzer without checking its diagnostics
// against the fixtures' want comments: a facts-only run reports none.
type ignoreExpectations struct{}

func (ignoreExpectations) Errorf(string, ...any) {}
