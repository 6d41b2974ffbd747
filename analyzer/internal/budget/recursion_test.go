package budget_test

import (
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const module = "github.com/crossslot/crossslot/"

// structural lists the analyzer's recursions that do not enter the
// package's Work, each with what bounds it. Every other cycle of calls
// must pass through a function that enters the Work.
var structural = map[string]string{
	"internal/luascript.walk":                                         "a Lua script's syntax tree: finite, and each call a child of the last",
	"keymodel.relateSplit":                                            "a key's parts: each call on a shorter suffix",
	"(*keymodel.Difference).relateOneLeading":                         "a key's parts: each call on a shorter suffix",
	"(*github.com/crossslot/crossslot/analyzer.deferral).install$1":   "a report handed on once to the report it wraps",
	"analyzer.quietWhenExhausted$1":                                   "a report handed on once to the report it wraps",
	"(*github.com/crossslot/crossslot/analyzer.bugMerger).install$1":  "a report held, or handed on once to the report it wraps",
	"analyzer.honourIgnores$1":                                        "a report handed on once to the report it wraps",
	"(*github.com/crossslot/crossslot/internal/luascript.reader).key": "a Lua expression's syntax tree, cut at a depth",
	"clients.holdsClusterType":                                        "a type's fields and elements, cut at a depth (recursive types)",
	"clients.storesInto":                                              "SSA referrers, cut at a depth",
	"clients.collectedReplies$1":                                      "SSA values, each visited once",
	"eval.emptinessTest":                                              "a chain of ! on a condition: SSA operands without φ, acyclic",
	"eval.onlyLoaded":                                                 "closures capturing a cell, cut at a depth",
	"eval.operandsOf":                                                 "SSA operands, cut at a depth and each visited once",
	"eval.privateField":                                               "copies of struct variables into one another, cut at a depth",
	"eval.readOnly":                                                   "addresses of fields of a field: each a field of the last, acyclic",
	"eval.variant":                                                    "SSA operands, cut at a depth",
	"(*eval.Evaluator).fieldDefault":                                  "option values, cut at a depth by optionDefault",
	"(*eval.Evaluator).optionDefault":                                 "option values, cut at a depth",
	"reading.anonFuncs":                                               "function literals nested in one another: a tree",
	"reading.buildSSA$1":                                              "functions, each visited once",
	"reading.calleeOf":                                                "a call's syntax: parentheses and instantiations",
	"(*reading.Package).lookupMethod$1":                               "the import graph, each package visited once",
	"(*reading.implementations).index$1":                              "the import graph, each package visited once",
	"(*topology.Reader).AllOrigins$1":                                 "a loop's φs, each visited once",
	"(*topology.Reader).reachesRedigoCluster$1":                       "the import graph, each package visited once",
	"(*topology.Reader).splitClient":                                  "a client's origins, cut at a depth of 2",
	"topology.literalCalls$1":                                         "loads of one variable through the literals that capture it: a tree",
}

// TestEveryRecursionIsBounded builds the call graph of the analyzer and
// of every package of this module it runs (VTA over CHA, so calls through
// interfaces and function values count), and fails for a cycle of calls
// that neither passes through a function entering the package's Work nor
// is listed in structural: such a cycle could recurse without bound on
// code nobody here wrote, and overflow the stack, which no recover catches.
func TestEveryRecursionIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and builds the analyzer's SSA")
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: false}
	pkgs, err := packages.Load(cfg, module+"analyzer/...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the analyzer's packages did not load")
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	cg := vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	cg.DeleteSyntheticNodes()

	name := func(f *ssa.Function) string {
		return strings.TrimPrefix(strings.ReplaceAll(f.String(), module+"analyzer/internal/", ""), module)
	}
	own := func(f *ssa.Function) bool {
		return f != nil && f.Pkg != nil && strings.HasPrefix(f.Pkg.Pkg.Path(), module)
	}
	entersWork := func(f *ssa.Function) bool {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if callee := call.Common().StaticCallee(); callee != nil && callee.Name() == "Enter" &&
						callee.Pkg != nil && callee.Pkg.Pkg.Path() == module+"analyzer/internal/budget" {
						return true
					}
				}
			}
		}
		return false
	}
	bounded := map[*callgraph.Node]string{}
	listedSeen := map[string]bool{}
	entering := 0
	for f, n := range cg.Nodes {
		if !own(f) {
			continue
		}
		if entersWork(f) {
			bounded[n] = "enters the Work"
			entering++
		} else if why, ok := structural[name(f)]; ok {
			bounded[n] = why
			listedSeen[name(f)] = true
		}
	}
	for fn := range structural {
		if !listedSeen[fn] {
			t.Errorf("structural lists %s, which the call graph does not have: take it out", fn)
		}
	}
	if entering < 5 {
		t.Fatalf("only %d functions enter the Work", entering)
	}

	// Tarjan's strongly connected components of the graph less the
	// bounded functions: each left with a cycle is unbounded.
	index, low := map[*callgraph.Node]int{}, map[*callgraph.Node]int{}
	onStack := map[*callgraph.Node]bool{}
	var stack []*callgraph.Node
	var cycles [][]string
	var strong func(v *callgraph.Node)
	strong = func(v *callgraph.Node) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		self := false
		for _, e := range v.Out {
			w := e.Callee
			if !own(w.Func) || bounded[w] != "" {
				continue
			}
			if w == v {
				self = true
			}
			if _, seen := index[w]; !seen {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var scc []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			scc = append(scc, name(w.Func))
			if w == v {
				break
			}
		}
		if len(scc) > 1 || self {
			sort.Strings(scc)
			cycles = append(cycles, scc)
		}
	}
	for f, n := range cg.Nodes {
		if _, seen := index[n]; !seen && own(f) && bounded[n] == "" {
			strong(n)
		}
	}
	sort.Slice(cycles, func(i, j int) bool { return cycles[i][0] < cycles[j][0] })
	for _, c := range cycles {
		t.Errorf("a recursion bounded by nothing: %s", strings.Join(c, " -> "))
	}
	t.Logf("%d functions enter the Work; %d recursions are structural", entering, len(structural))
}
