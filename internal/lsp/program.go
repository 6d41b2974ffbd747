package lsp

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossslot/crossslot/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"
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

// firstChecks runs check on every node, dependencies first (waiting counts
// each one's imports among them), as many at a time as workers, in load
// order, and no more source at once than checkBudget beyond the first.
func firstChecks(nodes []*node, waiting map[*node]int, workers int, check func(*node)) {
	done := make(chan *node)
	running, inFlight := 0, int64(0)
	ready := slices.Clone(nodes)
	for len(ready) > 0 || running > 0 {
		for i := 0; i < len(ready) && running < workers; {
			n := ready[i]
			if waiting[n] > 0 || !withinBudget(running, inFlight, n) {
				i++
				continue
			}
			ready = slices.Delete(ready, i, i+1)
			running++
			inFlight += n.weight
			go func() {
				check(n)
				done <- n
			}()
		}
		n := <-done
		running--
		inFlight -= n.weight
		for _, imp := range n.importers {
			waiting[imp]--
		}
	}
}

// withinBudget reports whether n may be checked beside the running checks,
// which hold inFlight bytes of source: alone, or within checkBudget.
func withinBudget(running int, inFlight int64, n *node) bool {
	return running == 0 || inFlight+n.weight <= checkBudget
}

// parse parses one file of a package, from its unsaved buffer if it has one.
// The comments are kept for the analyzer (its directives, its ignore
// comments); a package the analyzer reads only the types of goes without.
func (p *program) parse(name string, overlay map[string][]byte, comments bool) (*ast.File, error) {
	var src any
	if text, ok := overlay[name]; ok {
		src = text
	}
	mode := parser.SkipObjectResolution
	if comments {
		mode |= parser.ParseComments
	}
	return parser.ParseFile(p.fset, name, src, mode)
}

// newInfo is the type information the analyzer reads.
func newInfo() *types.Info {
	return &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{}, Scopes: map[ast.Node]*types.Scope{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, FileVersions: map[*ast.File]string{},
	}
}

// typesConfig type-checks a package against the program's packages as they
// are now, at its module's Go version, reporting each error to onError.
func typesConfig(n *node, onError func(error)) types.Config {
	pkg := n.pkg
	conf := types.Config{
		Importer: importer(pkg.Imports),
		Sizes:    pkg.TypesSizes,
		Error:    onError,
		// The standard library and the clients' code are read for their
		// types only: their function bodies, and the scopes of every local
		// of them that go/types would keep, are left out.
		IgnoreFuncBodies: n.typesOnly,
	}
	if pkg.Module != nil && pkg.Module.GoVersion != "" {
		conf.GoVersion = "go" + pkg.Module.GoVersion
	}
	return conf
}

// first parses, type-checks and analyzes a package for the first time, then
// drops its syntax and type information. A package that does not load,
// parse or type-check cleanly, or imports one that does not, keeps what
// types it has, for its importers, and is not analyzed (as go vet does).
func (p *program) first(n *node, overlay map[string][]byte, a *analysis.Analyzer) {
	pkg := n.pkg
	defer func() { pkg.Syntax, pkg.TypesInfo = nil, nil }()
	pkg.IllTyped = len(pkg.Errors) > 0
	for _, imp := range pkg.Imports {
		pkg.IllTyped = pkg.IllTyped || imp.IllTyped || imp.Types == nil
	}
	var files []*ast.File
	for _, name := range pkg.CompiledGoFiles {
		f, err := p.parse(name, overlay, !n.typesOnly)
		if err != nil {
			pkg.IllTyped = true
		}
		if f != nil {
			files = append(files, f)
		}
	}
	conf := typesConfig(n, func(error) { pkg.IllTyped = true })
	if pkg.PkgPath == "unsafe" {
		pkg.Types = types.Unsafe
		return
	}
	if n.typesOnly {
		// The analyzer returns at once on it (analyzer.Gate): its types are
		// all there is to keep, and go/types records nothing of its code.
		pkg.Types, _ = conf.Check(pkg.PkgPath, p.fset, files, nil)
		if !pkg.IllTyped {
			p.compact(n, files)
		}
		return
	}
	info := newInfo()
	pkg.Types, _ = conf.Check(pkg.PkgPath, p.fset, files, info)
	if pkg.IllTyped {
		return
	}
	pkg.Syntax, pkg.TypesInfo = files, info
	diags, err := p.analyze(n, a)
	if err != nil {
		logf("analyzing %s: %v", pkg.PkgPath, err)
		return
	}
	n.diags = diags
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

func fileStamps(files []string) map[string]time.Time {
	stamps := map[string]time.Time{}
	for _, f := range files {
		stamps[f] = stampOf(f)
	}
	return stamps
}

// stampOf is a file's modification time, zero when it does not exist.
func stampOf(file string) time.Time {
	if fi, err := os.Stat(file); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
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

// A change is what happened to the program's files since it was last
// checked: the packages whose files changed, or a reason to load it again.
type change struct {
	changed []*node
	reload  string // why the program must be loaded again; "" if not
}

// changesOnDisk compares the files' modification times with those seen:
// files changed, come or gone, go.mod or go.sum changed.
func (p *program) changesOnDisk() change {
	for f, t := range p.modStamps {
		if !stampOf(f).Equal(t) {
			return change{reload: filepath.Base(f) + " changed"}
		}
	}
	var c change
	dirs := map[string]int{} // Go files per directory, as loaded
	for _, n := range p.nodes {
		if !n.workspace || len(n.pkg.GoFiles) == 0 {
			continue
		}
		dir := filepath.Dir(n.pkg.GoFiles[0])
		if _, ok := dirs[dir]; !ok {
			dirs[dir] = 0
		}
		for f, t := range n.stamps {
			now := stampOf(f)
			if now.IsZero() {
				return change{reload: filepath.Base(f) + " is gone"}
			}
			if !now.Equal(t) {
				c.changed = append(c.changed, n)
				break
			}
		}
	}
	for dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return change{reload: err.Error()}
		}
		for _, e := range entries {
			if f := filepath.Join(dir, e.Name()); strings.HasSuffix(f, ".go") && !e.IsDir() && !p.known[f] {
				return change{reload: "new file " + e.Name()}
			}
		}
	}
	return c
}

// affected are the changed packages and every package that imports them,
// in an order they can be checked again in: each after what it imports, and
// the packages of first's directories as early as that allows, so that
// what was edited is published before its importers are checked.
func (p *program) affected(changed []*node, first []string) []*node {
	marked := map[*node]bool{}
	var mark func(n *node)
	mark = func(n *node) {
		if marked[n] || strings.HasSuffix(n.pkg.ID, ".test") {
			return // a test main, generated: no key in it
		}
		marked[n] = true
		for _, imp := range n.importers {
			mark(imp)
		}
	}
	for _, n := range changed {
		mark(n)
	}
	waiting := p.importsAmong(marked)
	var order []*node
	placed := map[*node]bool{}
	for len(order) < len(marked) {
		var next *node
		for n := range marked {
			if waiting[n] != 0 || placed[n] {
				continue
			}
			if next == nil || before(n, next, first) {
				next = n
			}
		}
		if next == nil {
			break // a cycle: cannot be
		}
		order, placed[next] = append(order, next), true
		for _, imp := range next.importers {
			if marked[imp] {
				waiting[imp]--
			}
		}
	}
	return order
}

// importsAmong counts, for each package of the set, its imports in the set.
func (p *program) importsAmong(set map[*node]bool) map[*node]int {
	counts := map[*node]int{}
	for n := range set {
		for _, imp := range n.pkg.Imports {
			if set[p.byPkg[imp]] {
				counts[n]++
			}
		}
	}
	return counts
}

// before orders the packages ready to be checked: those of the edited
// directories first, then as loaded.
func before(a, b *node, first []string) bool {
	ina, inb := slices.Contains(first, a.dir()), slices.Contains(first, b.dir())
	if ina != inb {
		return ina
	}
	return a.index < b.index
}

// dir is the package's directory, "" when it has no Go file.
func (n *node) dir() string {
	if len(n.pkg.GoFiles) == 0 {
		return ""
	}
	return filepath.Dir(n.pkg.GoFiles[0])
}

// What becomes of a package checked again.
type check int

const (
	checkedOK check = iota
	// broken: it does not parse or type-check (a buffer being typed); the
	// program keeps it as it was, and its importers are left alone
	broken
	// reload: it cannot be checked in place (a new import, cgo, a package
	// that did not load cleanly): the program must be loaded again
	reload
)

// recheck checks the changed packages and their importers again, in the
// order affected gives, as many at a time as there are CPUs within
// checkBudget (withinBudget), each once what it imports is done, calling
// checked after each (on the caller's goroutine). An importer whose files did not change and none of whose dependencies
// changed API or facts (an edit of a comment, of a function body that
// builds no key) is only type-checked again: its facts are carried over to
// its new objects and its diagnostics kept.
func (p *program) recheck(order, changed []*node, overlay map[string][]byte, a *analysis.Analyzer, checked func(*node)) check {
	edited := map[*node]bool{}
	for _, n := range changed {
		edited[n] = true
	}
	inOrder := map[*node]bool{}
	for _, n := range order {
		inOrder[n] = true
	}
	waiting := p.importsAmong(inOrder) // imports not checked yet
	type outcome struct {
		n            *node
		res          check
		factsChanged bool
	}
	outcomes := make(chan outcome)
	newFacts := map[*types.Package]bool{} // packages whose API or facts changed, by their new types
	started := map[*node]bool{}
	status, running, inFlight := checkedOK, 0, int64(0)
	for {
		for _, n := range order {
			if running >= runtime.GOMAXPROCS(0) || status != checkedOK {
				break
			}
			if started[n] || waiting[n] > 0 || !withinBudget(running, inFlight, n) {
				continue
			}
			started[n], running, inFlight = true, running+1, inFlight+n.weight
			n.deps = nil // its dependencies' types are new
			reuse := !edited[n]
			for dep := range p.depsOf(n) {
				reuse = reuse && !newFacts[dep]
			}
			go func() {
				res, factsChanged := p.check(n, overlay, a, reuse)
				outcomes <- outcome{n, res, factsChanged}
			}()
		}
		if running == 0 {
			return status
		}
		o := <-outcomes
		running, inFlight = running-1, inFlight-o.n.weight
		switch {
		case o.res == reload || status == reload:
			status = reload
		case o.res == broken:
			status = broken
		case status == checkedOK:
			if o.factsChanged {
				newFacts[o.n.pkg.Types] = true
			}
			for _, imp := range o.n.importers {
				waiting[imp]--
			}
			checked(o.n)
		}
	}
}

// check parses, type-checks and analyzes one package again; with reuse, it
// carries its facts and diagnostics over instead of analyzing it, where it
// can. factsChanged says its facts are not those it had.
func (p *program) check(n *node, overlay map[string][]byte, a *analysis.Analyzer, reuse bool) (res check, factsChanged bool) {
	pkg := n.pkg
	if len(pkg.CompiledGoFiles) != len(pkg.GoFiles) || len(pkg.Errors) > 0 {
		return reload, true
	}
	var files []*ast.File
	for _, name := range pkg.CompiledGoFiles {
		f, err := p.parse(name, overlay, true)
		if err != nil {
			return broken, false
		}
		for _, spec := range f.Imports {
			if path, err := strconv.Unquote(spec.Path.Value); err == nil && path != "unsafe" && path != "C" && pkg.Imports[path] == nil {
				return reload, true // a new import
			}
		}
		files = append(files, f)
	}
	info := newInfo()
	var typeErr error
	conf := typesConfig(n, func(err error) { typeErr = err })
	types_, _ := conf.Check(pkg.PkgPath, p.fset, files, info)
	if typeErr != nil {
		return broken, false
	}
	sameAPI := apiOf(pkg.Types) == apiOf(types_)
	old := p.dropFacts(n)
	pkg.Syntax, pkg.Types, pkg.TypesInfo = files, types_, info
	defer func() { pkg.Syntax, pkg.TypesInfo = nil, nil }() // parsed again when it changes
	n.deps = nil
	if n.workspace {
		n.stamps = fileStamps(append(slices.Clone(pkg.CompiledGoFiles), pkg.OtherFiles...))
	}
	if reuse && p.carryOver(n, old) {
		return checkedOK, !sameAPI
	}
	diags, err := p.analyze(n, a)
	if err != nil {
		return reload, true
	}
	n.diags = diags
	return checkedOK, !sameAPI || !sameFacts(old, p.factsOf(n))
}

// apiOf is what a package declares at package level as its importers see
// it: each object with its type, a constant's value (a key's text may be
// one), a type's underlying type and methods. An importer whose imports
// keep their API and facts analyzes as it did.
func apiOf(pkg *types.Package) string {
	var b strings.Builder
	qualifier := func(p *types.Package) string { return p.Path() }
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		b.WriteString(types.ObjectString(obj, qualifier))
		switch obj := obj.(type) {
		case *types.Const:
			b.WriteString(" = " + obj.Val().ExactString())
		case *types.TypeName:
			b.WriteString(" " + types.TypeString(obj.Type().Underlying(), qualifier))
			if named, ok := obj.Type().(*types.Named); ok {
				for i := range named.NumMethods() {
					b.WriteString("; " + types.ObjectString(named.Method(i), qualifier))
				}
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// A heldFact is one fact a package exported, by the object's path within
// its package ("" for a package fact), for carrying over to the package's
// next types.
type heldFact struct {
	path objectpath.Path
	pkg  bool
	fact analysis.Fact
}

// dropFacts removes the package's facts from the program and returns them.
func (p *program) dropFacts(n *node) []heldFact {
	p.facts.Lock()
	defer p.facts.Unlock()
	var out []heldFact
	for _, k := range n.exported {
		path, err := objectpath.For(k.obj)
		if err != nil {
			path = "" // not carried over: the package is analyzed again
		}
		out = append(out, heldFact{path: path, fact: p.objects[k]})
		delete(p.objects, k)
	}
	for _, k := range n.exportedPkg {
		out = append(out, heldFact{pkg: true, fact: p.pkgFacts[k]})
		delete(p.pkgFacts, k)
	}
	n.exported, n.exportedPkg = nil, nil
	return out
}

// factsOf are the package's facts as dropFacts would return them.
func (p *program) factsOf(n *node) []heldFact {
	p.facts.RLock()
	defer p.facts.RUnlock()
	var out []heldFact
	for _, k := range n.exported {
		path, _ := objectpath.For(k.obj)
		out = append(out, heldFact{path: path, fact: p.objects[k]})
	}
	for _, k := range n.exportedPkg {
		out = append(out, heldFact{pkg: true, fact: p.pkgFacts[k]})
	}
	return out
}

// carryOver puts the package's former facts on its new objects; false when
// one has no path or no object of that path now (nothing is carried then).
func (p *program) carryOver(n *node, old []heldFact) bool {
	var objs []types.Object
	for _, h := range old {
		if h.pkg {
			objs = append(objs, nil)
			continue
		}
		obj, err := objectpath.Object(n.pkg.Types, h.path)
		if h.path == "" || err != nil {
			return false
		}
		objs = append(objs, obj)
	}
	p.facts.Lock()
	defer p.facts.Unlock()
	for i, h := range old {
		if h.pkg {
			k := packageFactKey{n.pkg.Types, reflect.TypeOf(h.fact)}
			p.pkgFacts[k] = h.fact
			n.exportedPkg = append(n.exportedPkg, k)
			continue
		}
		k := objectFactKey{objs[i], reflect.TypeOf(h.fact)}
		p.objects[k] = h.fact
		n.exported = append(n.exported, k)
	}
	return true
}

// sameFacts compares two packages' facts by their objects' paths and
// encodings (gob's, which facts must support).
func sameFacts(a, b []heldFact) bool {
	key := func(hs []heldFact) []string {
		var out []string
		for _, h := range hs {
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(h.fact); err != nil {
				return nil
			}
			out = append(out, fmt.Sprintf("%v %s %T %x", h.pkg, h.path, h.fact, buf.Bytes()))
		}
		slices.Sort(out)
		return out
	}
	ka, kb := key(a), key(b)
	return ka != nil && kb != nil && slices.Equal(ka, kb)
}

// analyze runs the analyzer on one package, with the facts of the packages
// it imports.
func (p *program) analyze(n *node, a *analysis.Analyzer) ([]analysis.Diagnostic, error) {
	pkg := n.pkg
	var diags []analysis.Diagnostic
	deps := p.depsOf(n)
	pass := &analysis.Pass{
		Analyzer: a, Fset: p.fset, Files: pkg.Syntax, OtherFiles: pkg.OtherFiles, IgnoredFiles: pkg.IgnoredFiles,
		Pkg: pkg.Types, TypesInfo: pkg.TypesInfo, TypesSizes: pkg.TypesSizes, ResultOf: map[*analysis.Analyzer]any{},
		Report:   func(d analysis.Diagnostic) { diags = append(diags, d) },
		ReadFile: os.ReadFile,
		ImportObjectFact: func(obj types.Object, ptr analysis.Fact) bool {
			p.facts.RLock()
			f, ok := p.objects[objectFactKey{obj, reflect.TypeOf(ptr)}]
			p.facts.RUnlock()
			if ok {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			}
			return ok
		},
		ExportObjectFact: func(obj types.Object, f analysis.Fact) {
			k := objectFactKey{obj, reflect.TypeOf(f)}
			p.facts.Lock()
			p.objects[k] = f
			p.facts.Unlock()
			n.exported = append(n.exported, k)
		},
		ImportPackageFact: func(pk *types.Package, ptr analysis.Fact) bool {
			p.facts.RLock()
			f, ok := p.pkgFacts[packageFactKey{pk, reflect.TypeOf(ptr)}]
			p.facts.RUnlock()
			if ok {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			}
			return ok
		},
		ExportPackageFact: func(f analysis.Fact) {
			k := packageFactKey{pkg.Types, reflect.TypeOf(f)}
			p.facts.Lock()
			p.pkgFacts[k] = f
			p.facts.Unlock()
			n.exportedPkg = append(n.exportedPkg, k)
		},
		AllObjectFacts: func() []analysis.ObjectFact {
			p.facts.RLock()
			defer p.facts.RUnlock()
			var out []analysis.ObjectFact
			for k, f := range p.objects {
				if deps[k.obj.Pkg()] {
					out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
				}
			}
			return out
		},
		AllPackageFacts: func() []analysis.PackageFact {
			p.facts.RLock()
			defer p.facts.RUnlock()
			var out []analysis.PackageFact
			for k, f := range p.pkgFacts {
				if deps[k.pkg] {
					out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
				}
			}
			return out
		},
	}
	if pkg.Module != nil {
		pass.Module = &analysis.Module{Path: pkg.Module.Path, Version: pkg.Module.Version, GoVersion: pkg.Module.GoVersion}
	}
	if _, err := a.Run(pass); err != nil {
		return nil, err
	}
	return diags, nil
}

// depsOf is the package and what it imports, transitively.
func (p *program) depsOf(n *node) map[*types.Package]bool {
	if n.deps != nil {
		return n.deps
	}
	deps := map[*types.Package]bool{}
	packages.Visit([]*packages.Package{n.pkg}, func(q *packages.Package) bool {
		if q.Types == nil || deps[q.Types] {
			return false
		}
		deps[q.Types] = true
		return true
	}, nil)
	n.deps = deps
	return deps
}

// importer imports the program's packages, as they are now.
type importer map[string]*packages.Package

func (imp importer) Import(path string) (*types.Package, error) {
	if p, ok := imp[path]; ok && p.Types != nil {
		return p.Types, nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	return nil, fmt.Errorf("%s is not among the loaded imports", path)
}

// checkBudget bounds the source of the packages checked at once, when the
// program is loaded and when it is checked again, beyond the first: a
// package's syntax, type information and the analyzer's reading of it are
// live until it is analyzed, and a large package's are tens of MiB
// (asynq's with its tests: 400 KB of source, 30 MiB). Small packages are
// still checked as many at a time as there are CPUs; two large ones are
// not. On 2 cores that costs no time: the collector's work shrinks as much.
const checkBudget = 512 << 10

// sourceWeight is what a package's check holds at once, in bytes of
// source: its files' size, a quarter of it for a package checked for its
// types only (no type information recorded, no comments, nothing analyzed).
func (n *node) sourceWeight(overlay map[string][]byte) int64 {
	var size int64
	for _, f := range n.pkg.CompiledGoFiles {
		if text, ok := overlay[f]; ok {
			size += int64(len(text))
		} else if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	if n.typesOnly {
		return size / 4
	}
	return size
}

// compact replaces the types of a package the analyzer reads only the types
// of, checked from source, by the same types read back from their export
// data, once the packages it imports are compact too: go/types keeps, for
// a package checked from source, a scope for every function's parameters
// and every file, which its importers never read, and the line tables of
// its files; the types read from export data hold its declarations only.
// Its importers are checked against those. A package of the workspace,
// which can change, or a test variant (whose path is another's) is not
// compacted, nor anything that imports it.
func (p *program) compact(n *node, files []*ast.File) {
	pkg := n.pkg
	if n.workspace || pkg.ID != pkg.PkgPath {
		return
	}
	for _, imp := range pkg.Imports {
		if d := p.byPkg[imp]; imp.PkgPath != "unsafe" && (d == nil || !d.compact) {
			return
		}
	}
	var data bytes.Buffer
	if err := gcexportdata.Write(&data, p.fset, pkg.Types); err != nil {
		logf("compacting %s: %v", pkg.PkgPath, err)
		return
	}
	p.compactMu.Lock()
	defer p.compactMu.Unlock()
	read, err := gcexportdata.Read(&data, p.fset, p.compacted, pkg.PkgPath)
	if err != nil {
		delete(p.compacted, pkg.PkgPath)
		logf("compacting %s: %v", pkg.PkgPath, err)
		return
	}
	pkg.Types, n.compact = read, true
	for _, f := range files {
		p.fset.RemoveFile(p.fset.File(f.Pos()))
	}
}

// memoryFloor is the soft memory limit the server keeps while what it holds
// is small: below it, the garbage collector lets the heap grow to twice what
// is live (GOGC=100), and checking one large package is tens of MiB live for
// a moment, so a program that keeps 17 MiB (asynq's) would peak at 100 MiB.
const memoryFloor = 64 << 20

// limitMemory sets the runtime's soft memory limit to twice the heap live
// at the last collection, memoryFloor at least, while a program loads: a
// program that holds much is paced as by default, one that holds little
// stays under the floor. A GOMEMLIMIT set by the user is left as it is.
// Once loaded, the limit is lifted (unlimitMemory): the collections it
// brings cost a check of several large packages twice its time, and
// rechecks are what a user waits for.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	debug.SetMemoryLimit(max(memoryFloor, 2*int64(s[0].Value.Uint64())))
}

// unlimitMemory lifts the limit limitMemory set.
func unlimitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(math.MaxInt64)
	}
}
