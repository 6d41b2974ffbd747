package lsp

import (
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crossslot/crossslot/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// The language server keeps one loaded program for the workspace, shared by
// every package opened: the packages loaded from source with their
// dependencies, each package's diagnostics, and the facts every package
// exported. A change to a package of the workspace (a save, an unsaved
// buffer, an edit on disk) re-parses and re-type-checks that package, then
// each package that imports it, in order, against the new types, and runs
// the analyzer on each again with the facts of the others as they are: no
// package is loaded again and no dependency analyzed again. The program is
// loaded again only when a package's files come or go, when its imports
// change (the type-check fails), or when go.mod or go.sum change.

// An program is the loaded program.
type program struct {
	fset     *token.FileSet
	patterns []string
	nodes    []*node // dependencies first
	byPkg    map[*packages.Package]*node
	// facts guards objects and pkgFacts: packages are checked in parallel.
	facts    sync.RWMutex
	objects  map[objectFactKey]analysis.Fact
	pkgFacts map[packageFactKey]analysis.Fact
	// known are the workspace packages' files, and those the build leaves
	// out (another platform's, a build tag's): another is a new file.
	known map[string]bool
	// modStamps are the modification times of go.mod and go.sum.
	modStamps map[string]time.Time
	// compacted are the packages whose types were read back from their
	// export data (compact), by path, with unsafe; compactMu guards it.
	compactMu sync.Mutex
	compacted map[string]*types.Package
}

// An node is one package of the program.
type node struct {
	pkg       *packages.Package
	index     int // in nodes
	importers []*node
	diags     []analysis.Diagnostic
	// exported are the facts the package exported, dropped when it is
	// checked again.
	exported    []objectFactKey
	exportedPkg []packageFactKey
	// workspace: a package of the workspace's modules, which can change;
	// stamps are its files' modification times.
	workspace bool
	// typesOnly: the analyzer reads only its types (analyzer.Gate), so it is
	// type-checked without function bodies.
	typesOnly bool
	// compact: its types, and those of every package it imports, are read
	// from export data.
	compact bool
	weight  int64 // what a check of it holds at once (sourceWeight)
	stamps  map[string]time.Time
	deps    map[*types.Package]bool // what it imports, transitively; nil until asked
}

type objectFactKey struct {
	obj types.Object
	t   reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	t   reflect.Type
}

// loadProgram loads the packages of the patterns in dir, with their test
// variants and every dependency, and analyzes the whole graph as go vet
// would: the go command lists the packages, then each is parsed (unsaved
// buffers overlaid), type-checked and analyzed from source, dependencies
// first, as many at a time as there are CPUs (firstChecks). A package's
// syntax and type information are dropped once it is analyzed: the program
// keeps its types and the facts it exported, which is what its importers
// read, and parses it again when it changes. Its memory is the types of the
// whole graph and the syntax of the few packages being checked, not the
// syntax of all.
//
// gate (analyzer.NewGate) names the packages the analyzer reads only the
// types of: they are type-checked without function bodies, and their types
// are read back from export data (compact); with no gate, every package is
// checked whole.
func loadProgram(dir string, patterns []string, overlay map[string][]byte, a *analysis.Analyzer, gate *analyzer.Gate) (*program, error) {
	fset := token.NewFileSet()
	const metadata = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
		packages.NeedDeps | packages.NeedModule | packages.NeedTypesSizes
	pkgs, err := packages.Load(&packages.Config{Mode: metadata, Dir: dir, Tests: true, Fset: fset, Overlay: overlay}, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no package in %s", strings.Join(patterns, " "))
	}
	p := &program{fset: fset, patterns: patterns, byPkg: map[*packages.Package]*node{},
		objects: map[objectFactKey]analysis.Fact{}, pkgFacts: map[packageFactKey]analysis.Fact{}, modStamps: map[string]time.Time{},
		known: map[string]bool{}, compacted: map[string]*types.Package{"unsafe": types.Unsafe}}
	packages.Visit(pkgs, nil, func(pkg *packages.Package) { // dependencies first
		n := &node{pkg: pkg, index: len(p.nodes)}
		p.nodes = append(p.nodes, n)
		p.byPkg[pkg] = n
		if isWorkspace(pkg) {
			n.workspace = true
			for _, f := range append(slices.Clone(pkg.GoFiles), pkg.IgnoredFiles...) {
				p.known[f] = true
			}
			n.stamps = fileStamps(append(slices.Clone(pkg.CompiledGoFiles), pkg.OtherFiles...))
			if m := pkg.Module; m != nil && m.GoMod != "" {
				p.modStamps[m.GoMod] = stampOf(m.GoMod)
				sum := filepath.Join(filepath.Dir(m.GoMod), "go.sum")
				p.modStamps[sum] = stampOf(sum)
			}
		}
	})
	for _, n := range p.nodes {
		for _, imp := range n.pkg.Imports {
			if d := p.byPkg[imp]; d != nil {
				d.importers = append(d.importers, n)
			}
		}
	}
	all := map[*node]bool{}
	for _, n := range p.nodes { // dependencies first, as the gate wants them
		all[n] = true
		pkg := n.pkg
		first, version := "", ""
		if len(pkg.CompiledGoFiles) > 0 {
			first = pkg.CompiledGoFiles[0]
		}
		if pkg.Module != nil && !pkg.Module.Main && pkg.Module.Replace == nil {
			version = pkg.Module.Version
		}
		n.typesOnly = gate != nil && gate.TypesOnly(pkg.PkgPath, first, version, slices.Collect(maps.Keys(pkg.Imports)))
		n.weight = n.sourceWeight(overlay)
	}
	firstChecks(p.nodes, p.importsAmong(all), runtime.GOMAXPROCS(0), func(n *node) {
		p.first(n, overlay, a)
		limitMemory()
	})
	unlimitMemory()
	return p, nil
}

// isWorkspace reports a package of the workspace: of the main module (or
// modules), or of no module outside GOROOT. Its files may change; a test
// main, generated, does not.
func isWorkspace(p *packages.Package) bool {
	if strings.HasSuffix(p.ID, ".test") || len(p.GoFiles) == 0 {
		return false
	}
	if p.Module != nil {
		return p.Module.Main
	}
	goroot := build.Default.GOROOT
	return goroot == "" || !strings.HasPrefix(p.GoFiles[0], filepath.Join(goroot, "src")+string(filepath.Separator))
}

// inDir are the packages whose files are in dir: a package, its test
// variant and its external tests (not the generated test main).
func (p *program) inDir(dir string) []*node {
	var out []*node
	for _, n := range p.nodes {
		if n.workspace && len(n.pkg.GoFiles) > 0 && filepath.Dir(n.pkg.GoFiles[0]) == dir {
			out = append(out, n)
		}
	}
	return out
}

// holding are the packages one of whose files is file.
func (p *program) holding(file string) []*node {
	var out []*node
	for _, n := range p.nodes {
		if n.workspace && slices.Contains(n.pkg.CompiledGoFiles, file) {
			out = append(out, n)
		}
	}
	return out
}

// dir is the package's directory, "" when it has no Go file.
func (n *node) dir() string {
	if len(n.pkg.GoFiles) == 0 {
		return ""
	}
	return filepath.Dir(n.pkg.GoFiles[0])
}
