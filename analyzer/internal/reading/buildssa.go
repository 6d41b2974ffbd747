package reading

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// buildSSA builds the package's SSA as buildssa does, without its ctrlflow
// facts, and lists its source functions and their literals in source order.
// Bodies that cannot matter are left out (see bodiesToBuild): SSA treats such
// a function as external, as it does assembly.
//
// built is the package's syntax as SSA was built from it: the bodies left
// out are gone.
func buildSSA(pass *analysis.Pass, impls *implementations, includeTests bool) (pkg *ssa.Package, funcs []*ssa.Function, built []*ast.File) {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	built = withBodies(pass.Files, bodiesToBuild(pass, impls, includeTests))
	pkg = prog.CreatePackage(pass.Pkg, built, pass.TypesInfo, false)
	pkg.Build()
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
	return pkg, funcs, built
}

// withBodies copies the files, leaving out the bodies of functions not in
// keep. The pass's own syntax is shared with other analyzers: it is not
// changed.
func withBodies(files []*ast.File, keep map[*ast.FuncDecl]bool) []*ast.File {
	out := make([]*ast.File, len(files))
	for i, f := range files {
		copied := *f
		copied.Decls = make([]ast.Decl, len(f.Decls))
		for j, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !keep[fd] {
				bodiless := *fd
				bodiless.Body = nil
				d = &bodiless
			}
			copied.Decls[j] = d
		}
		out[i] = &copied
	}
	return out
}

// bodiesToBuild decides from syntax and types which function bodies can
// matter, so that SSA is built for them only. A body matters when it
//   - may build a key: the function returns a string or a []string;
//   - calls the client, a function with key facts, or a function of the
//     package whose body matters for that reason (a wrapper's wrapper);
//   - may write what package variables and fields are read from (see
//     stores): a string or struct through anything but a local variable, a
//     package variable, an address taken, a struct of the package made.
//
// Unless tests are included, a body in a _test.go file whose clients cannot
// be proved to be cluster clients (see testOffCluster and clusterMentions)
// does not matter: its calls are not checked, nothing outside the tests
// calls it, and what it writes (a test's options, its fixtures' fields) is
// not what the package's own code runs with.
func bodiesToBuild(pass *analysis.Pass, impls *implementations, includeTests bool) map[*ast.FuncDecl]bool {
	keep := map[*ast.FuncDecl]bool{}
	var clusters *clusterMentions // read for the first test body
	testOff := func(fd *ast.FuncDecl) bool {
		if includeTests || !strings.HasSuffix(pass.Fset.Position(fd.Pos()).Filename, "_test.go") {
			return false
		}
		if clusters == nil {
			clusters = newClusterMentions(pass)
		}
		return !clusters.in(fd.Body)
	}
	callers := map[*types.Func][]*ast.FuncDecl{} // the package's calls, callee to callers
	var wrappers []*types.Func
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if testOff(fd) {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			calls, local := scanBody(pass, impls, fd.Body)
			for _, callee := range local {
				callers[callee] = append(callers[callee], fd)
			}
			if calls&callsClient != 0 && fn != nil {
				wrappers = append(wrappers, fn)
			}
			keep[fd] = calls != 0 || (fn != nil && (returnsKeys(fn.Signature()) || mapsToKeys(fn.Signature()) || picksPipeline(fn.Signature())))
		}
	}
	// A call through an interface method with several implementations is
	// a call of each: an implementation that may be a wrapper makes the
	// method one (once per method, not per call).
	implements := map[*types.Func][]*types.Func{}
	for m := range callers {
		for _, impl := range impls.all(m) {
			if impl.Pkg() == pass.Pkg {
				implements[impl] = append(implements[impl], m)
			}
		}
	}
	// Whoever calls a function that may be a wrapper may be one too.
	seen := map[*types.Func]bool{}
	for len(wrappers) > 0 {
		fn := wrappers[len(wrappers)-1]
		wrappers = wrappers[:len(wrappers)-1]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		wrappers = append(wrappers, implements[fn]...)
		for _, caller := range callers[fn] {
			keep[caller] = true
			if c, ok := pass.TypesInfo.Defs[caller.Name].(*types.Func); ok {
				wrappers = append(wrappers, c)
			}
		}
	}
	return keep
}

// What scanBody finds in a body.
const (
	callsClient = 1 << iota // a client method, or a function with key facts
	writesState             // a store that stores may need to see
)

// scanBody reports what a body does and which functions of the package it
// calls.
func scanBody(pass *analysis.Pass, impls *implementations, body *ast.BlockStmt) (found int, local []*types.Func) {
	info := pass.TypesInfo
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := calleeOf(info, n.Fun)
			if impl := impls.of(fn); impl != nil {
				fn = impl // a call through a project interface with one implementation
			}
			if several := impls.all(fn); len(several) > 0 { // or with several, each of which may run
				if fn.Pkg() != pass.Pkg {
					local = append(local, fn) // its callers are each local implementation's (see bodiesToBuild)
				}
				if impls.factsElsewhere(fn) {
					found |= callsClient
				}
			}
			switch {
			case fn == nil:
				if b, ok := info.Uses[identOf(n.Fun)].(*types.Builtin); ok && b.Name() == "new" && len(n.Args) == 1 && isLocalStruct(pass, info.TypeOf(n.Args[0])) {
					found |= writesState
				}
			case clients.GoRedisShaped(fn): // a project interface of go-redis's methods
				found |= callsClient
			case clients.AdapterMethod(fn) != nil: // or of an adapter's
				found |= callsClient
			case fn.Signature().Recv() != nil && clients.GlideShaped(fn.Signature().Recv().Type(), fn): // or of GLIDE's
				found |= callsClient
			case impls.outOfSightCall(fn):
				found |= callsClient // a pending call (program.go)
			case fn.Pkg() == pass.Pkg:
				local = append(local, fn)
			case fn.Pkg() != nil && (clients.IsClientCode(fn.Pkg().Path()) || clients.IsAdapter(fn.Pkg().Path())):
				found |= callsClient // a client, or a go-redis-compatible adapter of one
			case pass.ImportObjectFact(fn.Origin(), new(keyFacts)):
				found |= callsClient
			}
		case *ast.SelectorExpr:
			// A method value of a client (unlink := rdb.Unlink), called later.
			if sel := info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal {
				if m, ok := sel.Obj().(*types.Func); ok && clients.IsClientMethod(m) {
					found |= callsClient
				}
			}
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if writesStore(pass, lhs) {
					found |= writesState
				}
			}
		case *ast.RangeStmt:
			if writesStore(pass, n.Key) || writesStore(pass, n.Value) {
				found |= writesState
			}
		case *ast.UnaryExpr:
			if t := info.TypeOf(n.X); n.Op == token.AND && (ssaread.IsString(t) || isLocalStruct(pass, t)) {
				found |= writesState
			}
		case *ast.CompositeLit:
			if isLocalStruct(pass, info.TypeOf(n)) {
				found |= writesState
			}
		case *ast.ValueSpec:
			if len(n.Values) == 0 && n.Type != nil && isLocalStruct(pass, info.TypeOf(n.Type)) {
				found |= writesState // a zero struct
			}
		}
		return true
	})
	return found, local
}

// writesStore: an assignment to e may write a string or a struct that is not
// a local variable of the function.
func writesStore(pass *analysis.Pass, e ast.Expr) bool {
	if e == nil {
		return false
	}
	t := pass.TypesInfo.TypeOf(e)
	if !ssaread.IsString(t) && !isLocalStruct(pass, t) && !mayHoldClient(t) {
		return false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
		return ok && v.Parent() == pass.Pkg.Scope() // a package variable
	}
	return true // a field, an element, a pointer's target
}

// mayHoldClient: a value of type t may be a client, whose every store the
// reading of topology needs (see allOrigins): a go-redis type, or an
// interface other than error.
func mayHoldClient(t types.Type) bool {
	if t == nil {
		return false
	}
	if types.IsInterface(t) {
		return !types.Identical(t, types.Universe.Lookup("error").Type())
	}
	return clients.IsGoRedisType(t)
}

// isLocalStruct: t is a struct type declared in the package.
func isLocalStruct(pass *analysis.Pass, t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != pass.Pkg {
		return false
	}
	_, ok = named.Underlying().(*types.Struct)
	return ok
}

// calleeOf is the function or method a call expression calls statically
// (or the interface method it calls), nil for builtins, conversions and
// calls of values.
func calleeOf(info *types.Info, fun ast.Expr) *types.Func {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr: // an instantiation: f[T](...)
		return calleeOf(info, f.X)
	case *ast.IndexListExpr:
		return calleeOf(info, f.X)
	}
	return nil
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// picksPipeline reports a signature that may pick a client or pipeline out
// of a slice of them it is given (see summary.picksFrom).
func picksPipeline(sig *types.Signature) bool {
	if sig.Results().Len() != 1 || !clients.PipelineType(sig.Results().At(0).Type()) {
		return false
	}
	for i := range sig.Params().Len() {
		if s, ok := sig.Params().At(i).Type().Underlying().(*types.Slice); ok && clients.PipelineType(s.Elem()) {
			return true
		}
	}
	return false
}
