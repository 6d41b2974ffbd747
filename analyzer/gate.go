package analyzer

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Because crossslot has facts, every driver runs it on every package below
// the ones checked, the standard library included. Most of them cannot hold a
// key, so needOf decides from the import list, the module and the
// declarations, before any SSA is built, what a package needs.
type need int

const (
	nothing           need = iota // no SSA, no facts
	summariesOnly                 // may build keys for others: summarize, export facts
	callsAndSummaries             // may call a client or a wrapper: check calls too
)

func needOf(pass *analysis.Pass) need {
	if isClientCode(pass.Pkg.Path()) || inGoroot(pass) {
		return nothing
	}
	if reachesClient(pass) {
		return callsAndSummaries
	}
	if pass.Module != nil && pass.Module.Version != "" {
		// A dependency module's package that reaches no client and no
		// package with key facts: a library of its own, not a key builder.
		return nothing
	}
	if declaresStringFuncs(pass) {
		return summariesOnly
	}
	return nothing
}

// clientModules are the path prefixes of the clients' own code, which is
// not checked.
var clientModules = []string{
	"github.com/redis/go-redis/v9",
	"github.com/go-redis/redis",
}

func isClientCode(path string) bool {
	for _, m := range clientModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
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
		if goRedisPackages[imp.Path()] || withFacts[imp] {
			return true
		}
	}
	return false
}

// declaresStringFuncs reports whether some function returns one string: a
// possible key builder.
func declaresStringFuncs(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if res := fn.Signature().Results(); res.Len() == 1 && isString(res.At(0).Type()) {
				return true
			}
		}
	}
	return false
}

// buildSSA builds the package's SSA as buildssa does, without its ctrlflow
// facts, and lists its source functions and their literals in source order.
func buildSSA(pass *analysis.Pass) (*ssa.Package, []*ssa.Function) {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					if f := prog.FuncValue(fn); f != nil {
						add(f)
					}
				}
			}
		}
	}
	return pkg, funcs
}

// indexSource finds the syntax SSA points back to: call expressions by their
// '(' (for receivers and arguments as written) and string literals by their
// range (for fixes that rewrite a key).
func indexSource(pass *analysis.Pass) (map[token.Pos]*ast.CallExpr, map[positioned]*ast.BasicLit) {
	calls := map[token.Pos]*ast.CallExpr{}
	literals := map[positioned]*ast.BasicLit{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				calls[n.Lparen] = n
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					literals[rangeOf(n)] = n
				}
			}
			return true
		})
	}
	return calls, literals
}
