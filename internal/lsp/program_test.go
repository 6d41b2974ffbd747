package lsp

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crossslot/crossslot/analyzer"
)

// TestGateChangesNothing: the program loaded with the gate (the standard
// library, the clients' code and the dependency modules that reach neither
// type-checked without function bodies, their types read back from export
// data) has every diagnostic and every fact
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
		t.Helper()
		cfg := &analyzer.Config{}
		p, err := loadProgram(dir, []string{"./..."}, nil, analyzer.New(cfg), gate)
		if err != nil {
			t.Fatal(err)
		}
		compact := 0
		for _, n := range p.nodes {
			if n.typesOnly {
				bodiless++
			}
			if n.compact {
				compact++
				// Read from export data: no file or function scopes.
				if n.workspace || n.pkg.Types.Scope().NumChildren() != 0 {
					t.Errorf("%s is compact but has %d scopes below its package's (workspace: %v)", n.pkg.ID, n.pkg.Types.Scope().NumChildren(), n.workspace)
				}
			}
		}
		if gate != nil && compact < bodiless*9/10 {
			t.Errorf("%d of %d packages checked for their types only are compact; want nearly all", compact, bodiless)
		}
		for _, n := range p.nodes {
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

// TestFirstChecks: the first checks run each package after its imports,
// small packages side by side, and never two whose source together is over
// the budget.
func TestFirstChecks(t *testing.T) {
	const small, large = 10 << 10, checkBudget * 3 / 4
	base := &node{weight: small}
	a, b := &node{weight: small}, &node{weight: small}       // import base; each waits for the other to start
	big1, big2 := &node{weight: large}, &node{weight: large} // import a and b
	top := &node{weight: small}                              // imports everything
	base.importers = []*node{a, b, top}
	a.importers = []*node{big1, big2, top}
	b.importers = []*node{big1, big2, top}
	big1.importers, big2.importers = []*node{top}, []*node{top}
	nodes := []*node{base, a, b, big1, big2, top}
	imports := map[*node][]*node{}
	waiting := map[*node]int{}
	for _, n := range nodes {
		for _, imp := range n.importers {
			imports[imp] = append(imports[imp], n)
			waiting[imp]++
		}
	}
	var mu sync.Mutex
	done, running := map[*node]bool{}, map[*node]bool{}
	started := map[*node]chan struct{}{a: make(chan struct{}), b: make(chan struct{})}
	// Both large packages are ready together once a and b are done.
	firstChecks(nodes, waiting, 4, func(n *node) {
		mu.Lock()
		for _, imp := range imports[n] {
			if !done[imp] {
				t.Errorf("node of weight %d checked before one of its imports", n.weight)
			}
		}
		running[n] = true
		var inFlight int64
		for r := range running {
			inFlight += r.weight
		}
		if len(running) > 1 && inFlight > checkBudget {
			t.Errorf("%d packages checked at once, %d bytes of source; the budget is %d", len(running), inFlight, checkBudget)
		}
		mu.Unlock()
		if other := map[*node]*node{a: b, b: a}[n]; other != nil {
			close(started[n])
			select { // a generous bound: the other is started at once, or never
			case <-started[other]:
			case <-time.After(time.Minute):
				t.Errorf("two small packages ready at once were not checked side by side")
			}
		}
		if n.weight == large {
			// Long enough for the other to start, were it let: a slow
			// machine may miss the fault, never report one wrongly.
			time.Sleep(100 * time.Millisecond)
		}
		mu.Lock()
		delete(running, n)
		done[n] = true
		mu.Unlock()
	})
	if len(done) != len(nodes) {
		t.Errorf("%d of %d packages checked", len(done), len(nodes))
	}
}

// TestLimitMemory: while a program loads, the soft memory limit is twice
// the live heap, the floor at least; once loaded, there is none; a
// GOMEMLIMIT of the user's stays throughout.
func TestLimitMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	limitMemory()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if got, want := debug.SetMemoryLimit(-1), max(memoryFloor, 2*int64(live[0].Value.Uint64())); got != want {
		t.Errorf("memory limit %d; want %d", got, want)
	}
	unlimitMemory()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit once loaded %d; want none", got)
	}
	debug.SetMemoryLimit(1 << 40)
	t.Setenv("GOMEMLIMIT", "1TiB")
	limitMemory()
	unlimitMemory()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with GOMEMLIMIT set, the memory limit is %d; want the user's, %d", got, int64(1<<40))
	}
}
