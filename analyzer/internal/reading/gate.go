package reading

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Because crossslot has facts, every driver runs it on every package below
// the ones checked, the standard library included. Most of them cannot hold a
// key, so NeedOf decides from the import list, the module and the
// declarations, before any SSA is built, what a package needs.
type Need int

const (
	Nothing           Need = iota // no SSA, no facts
	SummariesOnly                 // may build keys for others: summarize, export facts
	CallsAndSummaries             // may call a client or a wrapper: check calls too
)

func NeedOf(pass *analysis.Pass, opts Options) Need {
	first := ""
	if len(pass.Files) > 0 {
		first = pass.Fset.File(pass.Files[0].Pos()).Name()
	}
	if TypesOnly(pass.Pkg.Path(), first) {
		return Nothing
	}
	if reachesClient(pass) || opts.Pending && mayHavePending(pass) {
		return CallsAndSummaries
	}
	if pass.Module != nil && pass.Module.Version != "" {
		// A dependency module's package that reaches no client and no
		// package with key facts: a library of its own, not a key builder.
		return Nothing
	}
	if declaresBuilders(pass) {
		return SummariesOnly
	}
	return Nothing
}

// goroot is where the standard library's sources are; "" when unknown, and
// then the standard library is gated like any other code.
var goroot = build.Default.GOROOT

// TypesOnly reports whether the analyzer reads nothing of a package but its
// types, whatever its code says: the standard library (whose first compiled
// file, firstFile, is under GOROOT) and a client's own code. A driver that
// type-checks packages itself may leave out their function bodies.
func TypesOnly(pkgPath, firstFile string) bool {
	return clients.IsClientCode(pkgPath) || inGoroot(firstFile)
}

// A Gate tells a driver that type-checks packages itself, given them
// dependencies first, which it may type-check without function bodies:
// those TypesOnly names, and the packages of a versioned dependency module
// whose imports are each of the standard library or such a package. NeedOf
// gives those Nothing: they import no client, so they reach none, nor any
// package with key facts, and a dependency module's package that reaches
// neither is not read. Under Options.Pending a dependency's package may be
// read for its calls through interfaces: then only TypesOnly's packages are.
type Gate struct {
	Pending bool
	inert   map[string]bool
}

// TypesOnly reports whether the package at pkgPath needs only its types;
// moduleVersion is its module's version ("" for the main module, a
// replacement by a directory, or no module).
func (g *Gate) TypesOnly(pkgPath, firstFile, moduleVersion string, imports []string) bool {
	if g.inert == nil {
		g.inert = map[string]bool{"unsafe": true, "C": true}
	}
	switch {
	case clients.IsClientCode(pkgPath):
		return true
	case inGoroot(firstFile):
		g.inert[pkgPath] = true
		return true
	case moduleVersion == "" || g.Pending:
		return false
	}
	for _, imp := range imports {
		if !g.inert[imp] {
			return false
		}
	}
	g.inert[pkgPath] = true
	return true
}

func inGoroot(file string) bool {
	if goroot == "" || file == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Join(goroot, "src"), file)
	return err == nil && !strings.HasPrefix(rel, "..")
}

// reachesClient reports whether the package imports a client or a package
// that exported key facts (builders or wrappers it may call).
func reachesClient(pass *analysis.Pass) bool {
	withFacts := map[*types.Package]bool{}
	for _, f := range pass.AllObjectFacts() {
		withFacts[f.Object.Pkg()] = true
	}
	for _, f := range pass.AllPackageFacts() {
		withFacts[f.Package] = true
	}
	for _, imp := range pass.Pkg.Imports() {
		if clients.IsClientCode(imp.Path()) || withFacts[imp] {
			return true
		}
	}
	return false
}

// declaresBuilders reports whether an exported function may build keys for
// importers: it returns a string or a []string and its body writes text (a
// string literal, a concatenation, a call that formats), or it is a generic
// Map, which makes keys with the function its callers give it (see
// mapsToKeys). Generated code's String methods, which call into a runtime,
// are not builders.
func declaresBuilders(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if ok && mapsToKeys(fn.Signature()) {
				return true
			}
			if !ok || !returnsKeys(fn.Signature()) {
				continue
			}
			if writesText(pass.TypesInfo, fd.Body) || passesOn(pass.TypesInfo, fd) {
				return true
			}
		}
	}
	return false
}

// passesOn reports a function whose body is one return of its receiver or
// a parameter converted to string: an id type's String method, func (p
// PartyID) String() string { return string(p) }, which keeps its caller's
// value in the key it is written into.
func passesOn(info *types.Info, fd *ast.FuncDecl) bool {
	if len(fd.Body.List) != 1 {
		return false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	conv, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 {
		return false
	}
	if tv, ok := info.Types[conv.Fun]; !ok || !tv.IsType() {
		return false
	}
	id, ok := ast.Unparen(conv.Args[0]).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == v {
		return true
	}
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			return true
		}
	}
	return false
}

func returnsKeys(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	t := sig.Results().At(0).Type()
	if sl, ok := t.Underlying().(*types.Slice); ok {
		t = sl.Elem()
	}
	return ssaread.IsString(t)
}

// mapsToKeys: the function may map a slice to keys by a function it is
// given, a generic Map whose result is a slice of its function's result
// (see eval.ParamMap): func Map[T, U any](xs []T, f func(T) U) []U.
func mapsToKeys(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	sl, ok := sig.Results().At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return false
	}
	if _, generic := types.Unalias(sl.Elem()).(*types.TypeParam); !generic {
		return false
	}
	for i := range sig.Params().Len() {
		f, ok := sig.Params().At(i).Type().Underlying().(*types.Signature)
		if ok && f.Results().Len() == 1 && types.Identical(f.Results().At(0).Type(), sl.Elem()) {
			return true
		}
	}
	return false
}

func writesText(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			found = n.Kind == token.STRING && n.Value != `""` && n.Value != "``"
		case *ast.BinaryExpr:
			found = n.Op == token.ADD && ssaread.IsString(info.TypeOf(n))
		case *ast.AssignStmt:
			found = n.Tok == token.ADD_ASSIGN && ssaread.IsString(info.TypeOf(n.Lhs[0]))
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pkg, ok := info.Uses[id].(*types.PkgName); ok {
					switch pkg.Imported().Path() {
					case "fmt", "strings", "strconv":
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// mayHavePending reports, without SSA, a package that calls a method of
// one of the module's interfaces with a key parameter whose implementation
// it does not see (see program.go); or, in a main package, one that imports
// such calls.
func mayHavePending(pass *analysis.Pass) bool {
	if pass.Pkg.Name() == "main" {
		for _, pf := range pass.AllPackageFacts() {
			if _, ok := pf.Fact.(*pendingFacts); ok {
				return true
			}
		}
	}
	im := newImplementations(pass)
	im.outOfSight = true
	for _, sel := range pass.TypesInfo.Selections {
		m, ok := sel.Obj().(*types.Func)
		if sel.Kind() == types.MethodVal && ok && types.IsInterface(sel.Recv()) && im.outOfSightCall(m) {
			return true
		}
	}
	return false
}

func hasKeyParam(m *types.Func) bool {
	params := m.Signature().Params()
	for i := range params.Len() {
		if isKeyType(params.At(i).Type()) {
			return true
		}
	}
	return false
}
