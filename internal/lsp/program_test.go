package lsp

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/crossslot/crossslot/analyzer"
)

// TestGateChangesNothing: the program loaded with the gate (the standard
// library, the clients' code and the dependency modules that reach neither
// type-checked without function bodies) has every diagnostic and every fact
// of the program loaded with every body, on the example and its
// dependencies (go-redis, xxhash, atomic, x/sys, the standard library).
func TestGateChangesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example twice")
	}
	dir, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	load := func(gate *analyzer.Gate) (diags, facts []string, bodiless int) {
		cfg := &analyzer.Config{}
		p, err := loadProgram(dir, []string{"./..."}, nil, analyzer.New(cfg), gate)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range p.nodes {
			if n.typesOnly {
				bodiless++
			}
			for _, d := range n.diags {
				diags = append(diags, fmt.Sprintf("%s %s %s", p.fset.Position(d.Pos), d.Category, d.Message))
			}
		}
		for k, f := range p.objects {
			facts = append(facts, fmt.Sprintf("%s.%s %s %v", k.obj.Pkg().Path(), k.obj.Name(), reflect.TypeOf(f), f))
		}
		for k, f := range p.pkgFacts {
			facts = append(facts, fmt.Sprintf("%s %s %v", k.pkg.Path(), reflect.TypeOf(f), f))
		}
		slices.Sort(diags)
		slices.Sort(facts)
		return diags, slices.Compact(facts), bodiless
	}
	diags, facts, _ := load(nil)
	gatedDiags, gatedFacts, bodiless := load(analyzer.NewGate(&analyzer.Config{}))
	if len(diags) < 10 || len(facts) == 0 {
		t.Fatalf("the example's program: %d diagnostics, %d facts", len(diags), len(facts))
	}
	if bodiless < 100 {
		t.Errorf("%d packages without bodies; want the standard library's and the dependencies'", bodiless)
	}
	if !slices.Equal(diags, gatedDiags) {
		t.Errorf("diagnostics differ with the gate:\n%v\nwithout:\n%v", gatedDiags, diags)
	}
	if !slices.Equal(facts, gatedFacts) {
		t.Errorf("facts differ with the gate:\n%v\nwithout:\n%v", gatedFacts, facts)
	}
	t.Logf("%d packages type-checked without bodies; %d diagnostics and %d facts, the same", bodiless, len(diags), len(facts))
}
