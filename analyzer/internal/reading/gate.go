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
	if clients.IsClientCode(pass.Pkg.Path()) || inGoroot(pass) {
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

func inGoroot(pass *analysis.Pass) bool {
	if goroot == "" || len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	rel, err := filepath.Rel(filepath.Join(goroot, "src"), name)
	return err == nil && !strings.HasPrefix(rel, "..")
}

// reachesClient reports whether the package imports a client or a package
// that exported key facts (builders or wrappers it may call).
func reachesClient(pass *analysis.Pass) bool {
	withFacts := map[*types.Package]bool{}
	for _, f := range pass.AllObjectFacts() {
		withFacts[f.Object.Pkg()] = true
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
			if writesText(pass.TypesInfo, fd.Body) {
				return true
			}
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
