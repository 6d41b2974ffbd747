package lsp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

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
