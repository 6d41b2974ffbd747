package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The language server keeps what it loaded. The first analysis of a
// directory loads its package (and test variants) with every dependency
// from source and runs the analyzer over the whole graph, as go vet would;
// it keeps the graph and, for each of the directory's packages, the facts
// its dependencies exported. A save then re-parses and re-type-checks only
// that package, against the dependencies' types already loaded, and runs
// the analyzer on it alone with the facts kept: tens of milliseconds where a
// load takes seconds. The graph is loaded again when the package's files
// come or go, when its imports change (the type-check fails), or when
// go.mod or go.sum change.

// An lspSession is one directory's loaded packages.
type lspSession struct {
	dir   string
	fset  *token.FileSet
	roots []*lspRoot
	// stamps are the modification times that make the session stale: the
	// directory's Go files, go.mod, go.sum.
	stamps map[string]time.Time
}

// An lspRoot is one package of the directory (the package, its test
// variant, the external test package) with its dependencies' facts.
type lspRoot struct {
	pkg     *packages.Package
	objects map[lspObjectFactKey]analysis.Fact
	pkgs    map[lspPackageFactKey]analysis.Fact
}

type lspObjectFactKey struct {
	obj types.Object
	t   reflect.Type
}

type lspPackageFactKey struct {
	pkg *types.Package
	t   reflect.Type
}

// loadSession loads dir's packages and analyzes the graph; it returns the
// session and the roots' diagnostics.
func loadSession(dir string, a *analysis.Analyzer) (*lspSession, map[*packages.Package][]analysis.Diagnostic, error) {
	fset := token.NewFileSet()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: true, Fset: fset}, ".")
	if err != nil {
		return nil, nil, err
	}
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("no package in %s", dir)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		return nil, nil, err
	}
	s := &lspSession{dir: dir, fset: fset, stamps: sessionStamps(dir, pkgs)}
	diags := map[*packages.Package][]analysis.Diagnostic{}
	for _, act := range graph.Roots {
		r := &lspRoot{pkg: act.Package, objects: map[lspObjectFactKey]analysis.Fact{}, pkgs: map[lspPackageFactKey]analysis.Fact{}}
		for _, dep := range act.Deps {
			for _, f := range dep.AllObjectFacts() {
				r.objects[lspObjectFactKey{f.Object, reflect.TypeOf(f.Fact)}] = f.Fact
			}
			for _, f := range dep.AllPackageFacts() {
				r.pkgs[lspPackageFactKey{f.Package, reflect.TypeOf(f.Fact)}] = f.Fact
			}
		}
		s.roots = append(s.roots, r)
		diags[act.Package] = act.Diagnostics
	}
	return s, diags, nil
}

// sessionStamps records what makes a session stale.
func sessionStamps(dir string, pkgs []*packages.Package) map[string]time.Time {
	stamps := map[string]time.Time{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, p := range pkgs {
		if p.Module != nil && p.Module.GoMod != "" {
			files = append(files, p.Module.GoMod, filepath.Join(filepath.Dir(p.Module.GoMod), "go.sum"))
		}
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			stamps[f] = fi.ModTime()
		} else {
			stamps[f] = time.Time{}
		}
	}
	return stamps
}

// stale reports whether the session must be loaded again: a Go file of the
// directory came or went, or go.mod or go.sum changed. (A changed file of
// the package is what a save re-reads; a changed dependency is not seen
// until one of these changes or the server restarts.)
func (s *lspSession) stale() bool {
	files, _ := filepath.Glob(filepath.Join(s.dir, "*.go"))
	known := 0
	for f, t := range s.stamps {
		if filepath.Ext(f) == ".go" {
			known++
			if !slices.Contains(files, f) {
				return true
			}
			continue
		}
		fi, err := os.Stat(f)
		if err != nil && !t.IsZero() || err == nil && !fi.ModTime().Equal(t) {
			return true
		}
	}
	return known != len(files)
}

// reanalyze parses and type-checks the session's packages again from disk,
// against the dependencies loaded, and runs the analyzer on each; ok is
// false when that cannot be done (a file of another kind, a new import, a
// type error): the caller loads the session again.
func (s *lspSession) reanalyze(a *analysis.Analyzer) (diags map[*packages.Package][]analysis.Diagnostic, ok bool) {
	diags = map[*packages.Package][]analysis.Diagnostic{}
	for _, r := range s.roots {
		d, ok := r.reanalyze(s.fset, a)
		if !ok {
			return nil, false
		}
		diags[r.pkg] = d
	}
	return diags, true
}

func (r *lspRoot) reanalyze(fset *token.FileSet, a *analysis.Analyzer) ([]analysis.Diagnostic, bool) {
	p := r.pkg
	if len(p.CompiledGoFiles) != len(p.GoFiles) || len(p.Errors) > 0 {
		return nil, false // cgo, or a package that did not load cleanly
	}
	var files []*ast.File
	for _, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Instances: map[*ast.Ident]types.Instance{}, Scopes: map[ast.Node]*types.Scope{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, FileVersions: map[*ast.File]string{},
	}
	var typeErr error
	conf := types.Config{
		Importer: lspImporter(p.Imports),
		Sizes:    p.TypesSizes,
		Error:    func(err error) { typeErr = err },
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	pkg, _ := conf.Check(p.PkgPath, fset, files, info)
	if typeErr != nil {
		return nil, false
	}
	var diags []analysis.Diagnostic
	exportedObjects := map[lspObjectFactKey]analysis.Fact{}
	pass := &analysis.Pass{
		Analyzer: a, Fset: fset, Files: files, OtherFiles: p.OtherFiles, IgnoredFiles: p.IgnoredFiles,
		Pkg: pkg, TypesInfo: info, TypesSizes: p.TypesSizes, ResultOf: map[*analysis.Analyzer]any{},
		Report:   func(d analysis.Diagnostic) { diags = append(diags, d) },
		ReadFile: os.ReadFile,
		ImportObjectFact: func(obj types.Object, ptr analysis.Fact) bool {
			f, ok := r.objects[lspObjectFactKey{obj, reflect.TypeOf(ptr)}]
			if !ok {
				f, ok = exportedObjects[lspObjectFactKey{obj, reflect.TypeOf(ptr)}]
			}
			if ok {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			}
			return ok
		},
		ExportObjectFact: func(obj types.Object, f analysis.Fact) {
			exportedObjects[lspObjectFactKey{obj, reflect.TypeOf(f)}] = f
		},
		ImportPackageFact: func(pkg *types.Package, ptr analysis.Fact) bool {
			f, ok := r.pkgs[lspPackageFactKey{pkg, reflect.TypeOf(ptr)}]
			if ok {
				reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
			}
			return ok
		},
		ExportPackageFact: func(analysis.Fact) {},
		AllObjectFacts: func() []analysis.ObjectFact {
			var out []analysis.ObjectFact
			for k, f := range r.objects {
				out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
			}
			return out
		},
		AllPackageFacts: func() []analysis.PackageFact {
			var out []analysis.PackageFact
			for k, f := range r.pkgs {
				out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
			}
			return out
		},
	}
	if p.Module != nil {
		pass.Module = &analysis.Module{Path: p.Module.Path, Version: p.Module.Version, GoVersion: p.Module.GoVersion}
	}
	if _, err := a.Run(pass); err != nil {
		return nil, false
	}
	return diags, true
}

// lspImporter imports the dependencies loaded with the session.
type lspImporter map[string]*packages.Package

func (imp lspImporter) Import(path string) (*types.Package, error) {
	if p, ok := imp[path]; ok && p.Types != nil {
		return p.Types, nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	return nil, fmt.Errorf("%s is not among the loaded imports", path)
}
