package reading

import (
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
)

// Projects often put their Redis code behind an interface of their own
//
//	type Store interface{ Pair(ctx context.Context, a, b string) error }
//	type redisStore struct{ rdb redis.UniversalClient }
//	func (s *redisStore) Pair(ctx context.Context, a, b string) error { return s.rdb.MGet(ctx, a, b).Err() }
//
// and call it through a field of that type: s.store.Pair(ctx, k1, k2). When
// the interface has one implementation in the module, the call can only run
// that method, so it is followed like a static call of it. With two or
// more (a second backend, a mock beside it), which one runs is decided at
// run time: the call is judged with each that sends something (see
// implementationCalls), its multi-key commands, the commands it queues on
// the caller's transaction and the one-node commands it forwards, never
// one implementation's beside another's.
//
// The implementations are looked for among the named types of the module's
// packages the analysis sees (the package and what it imports) and of the
// client libraries (a project interface that go-redis's own types satisfy
// has many implementations). A package exports, as a fact on each of its
// interfaces' methods, the summary of the one implementation it sees, so a
// caller in another package follows the call even when the implementing
// type is unexported, provided no package the caller sees adds another.

// implementations finds the one implementation of a project interface's
// method among the types a package sees.
type implementations struct {
	pass   *analysis.Pass
	module string
	byName map[string][]*types.Named // candidate types by declared method
	sole   map[*types.Func]*types.Func
	// several: the implementations of methods with two or more (see all);
	// withFacts: whether one of them, of another package, has facts.
	several   map[*types.Func][]*types.Func
	withFacts map[*types.Func]bool
	// outOfSight: calls of methods implemented out of sight matter too
	// (see program.go).
	outOfSight bool
}

func newImplementations(pass *analysis.Pass) *implementations {
	return &implementations{pass: pass, module: moduleOf(pass), sole: map[*types.Func]*types.Func{}, several: map[*types.Func][]*types.Func{},
		withFacts: map[*types.Func]bool{}}
}

// moduleOf is the import path prefix of the package's module: the module's
// path where the driver says it, else the repository part of the package
// path (host/owner/name, or the first element of a path without a host).
func moduleOf(pass *analysis.Pass) string {
	if pass.Module != nil && pass.Module.Path != "" {
		return pass.Module.Path
	}
	if path := goModPath(pass); path != "" && (pass.Pkg.Path() == path || strings.HasPrefix(pass.Pkg.Path(), path+"/")) {
		return path // lintcmd says no module: its go.mod does
	}
	parts := strings.Split(pass.Pkg.Path(), "/")
	if !strings.Contains(parts[0], ".") || len(parts) < 3 {
		return parts[0]
	}
	return strings.Join(parts[:3], "/")
}

// goModPath is the module path of the go.mod above the package's files,
// "" when there is none.
func goModPath(pass *analysis.Pass) string {
	if len(pass.Files) == 0 {
		return ""
	}
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
	for range 64 {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			return modfile.ModulePath(b)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// inModule reports whether the package is one of the module's.
func (im *implementations) inModule(p *types.Package) bool {
	path := strings.TrimSuffix(p.Path(), "_test")
	return clients.InModule(path, im.module)
}

// projectMethod is the interface method an interface call calls when the
// interface is declared in the module; nil otherwise.
func (im *implementations) projectMethod(m *types.Func) (*types.Named, bool) {
	if m == nil || m.Pkg() == nil || !im.inModule(m.Pkg()) {
		return nil, false
	}
	recv := m.Signature().Recv()
	if recv == nil {
		return nil, false
	}
	named, ok := types.Unalias(recv.Type()).(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		return nil, false
	}
	_, isInterface := named.Underlying().(*types.Interface)
	return named, isInterface
}

// of is the method that implements the interface method m, when exactly one
// type the package sees implements m's interface; nil otherwise.
func (im *implementations) of(m *types.Func) *types.Func {
	if impl, ok := im.sole[m]; ok {
		return impl
	}
	var found *types.Func
	count := 0
	for _, recv := range im.implementing(m) {
		count++
		obj, _, _ := types.LookupFieldOrMethod(recv, true, m.Pkg(), m.Name())
		found, _ = obj.(*types.Func)
	}
	if count != 1 || found == nil || !im.inModule(found.Pkg()) {
		found = nil
	}
	im.sole[m] = found
	return found
}

// implementing lists the types, or pointers to them, that implement m's
// interface among those the package sees.
func (im *implementations) implementing(m *types.Func) []types.Type {
	iface, ok := im.projectMethod(m)
	if !ok {
		return nil
	}
	if im.byName == nil {
		im.index()
	}
	it := iface.Underlying().(*types.Interface)
	var out []types.Type
	seen := map[*types.Named]bool{}
	for _, t := range im.byName[m.Name()] {
		if seen[t] {
			continue
		}
		seen[t] = true
		switch {
		case types.Implements(t, it):
			out = append(out, t)
		case types.Implements(types.NewPointer(t), it):
			out = append(out, types.NewPointer(t))
		}
	}
	return out
}

// all are the methods that implement the interface method m when two or
// more types the package sees implement its interface, those of the
// module; nil otherwise (see of for one). Computed once per method: a call
// asks only which of them send something (see implementationCalls).
func (im *implementations) all(m *types.Func) []*types.Func {
	if impls, ok := im.several[m]; ok {
		return impls
	}
	var out []*types.Func
	if recvs := im.implementing(m); len(recvs) >= 2 {
		for _, recv := range recvs {
			obj, _, _ := types.LookupFieldOrMethod(recv, true, m.Pkg(), m.Name())
			if impl, ok := obj.(*types.Func); ok && im.inModule(impl.Pkg()) {
				out = append(out, impl)
			}
		}
	}
	im.several[m] = out
	return out
}

// factsElsewhere reports whether one of the several implementations of m
// (see all) is another package's with key facts: a call of m may be a
// wrapper's call.
func (im *implementations) factsElsewhere(m *types.Func) bool {
	if found, ok := im.withFacts[m]; ok {
		return found
	}
	found := false
	for _, impl := range im.all(m) {
		found = found || impl.Pkg() != im.pass.Pkg && im.pass.ImportObjectFact(impl.Origin(), new(keyFacts))
	}
	im.withFacts[m] = found
	return found
}

// outOfSightCall reports, when such calls matter, a method of one of the
// module's interfaces with a key parameter that no type the package sees
// implements (see program.go).
func (im *implementations) outOfSightCall(m *types.Func) bool {
	if !im.outOfSight || m == nil {
		return false
	}
	_, ok := im.projectMethod(m)
	return ok && hasKeyParam(m) && len(im.implementing(m)) == 0
}

// implementedElsewhere reports whether a type outside m's package that the
// package sees implements m's interface.
func (im *implementations) implementedElsewhere(m *types.Func) bool {
	for _, t := range im.implementing(m) {
		if named, ok := types.Unalias(typeOrElem(t)).(*types.Named); ok && named.Obj().Pkg() != m.Pkg() {
			return true
		}
	}
	return false
}

func typeOrElem(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// index lists the named types of the module's packages and of the client
// libraries the package sees, by the names of the methods they declare.
func (im *implementations) index() {
	im.byName = map[string][]*types.Named{}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		if im.inModule(p) || clients.IsClientCode(p.Path()) {
			im.indexTypes(p)
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	visit(im.pass.Pkg)
}

func (im *implementations) indexTypes(p *types.Package) {
	scope := p.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := named.Underlying().(*types.Interface); ok {
			continue
		}
		for i := range named.NumMethods() {
			im.byName[named.Method(i).Name()] = append(im.byName[named.Method(i).Name()], named)
		}
	}
}

// An interfaceCall is a call through a project interface seen as a static
// call of its one implementation: the receiver first among the arguments,
// as a method's summary numbers its parameters.
type interfaceCall struct {
	summary *summary
	common  *ssa.CallCommon
	sig     *types.Signature
	callee  *types.Func // the implementation, or the interface method when only its fact is seen
}

// interfaceCallOf follows an interface call to the summary of its one
// implementation; nil when the call is not through a project interface or
// the implementation is not known to be alone or says nothing.
func (r *Package) interfaceCallOf(common *ssa.CallCommon) *interfaceCall {
	if !common.IsInvoke() {
		return nil
	}
	if c, ok := r.interfaces.calls[common]; ok {
		return c
	}
	c := r.followInterface(common)
	r.interfaces.calls[common] = c
	return c
}

func (r *Package) followInterface(common *ssa.CallCommon) *interfaceCall {
	m := common.Method
	var s *summary
	callee := m
	if impl := r.concreteMethod(common); impl != nil {
		s, callee = r.summaryOfFunc(impl), impl
	} else if _, ok := r.impls.projectMethod(m); !ok {
		return nil
	} else if m.Pkg() == r.Pass.Pkg {
		impl := r.impls.of(m)
		if impl == nil {
			return nil
		}
		s, callee = r.summaryOfFunc(impl), impl
	} else {
		// The interface's package saw its implementation; a second one
		// here or in another package this one sees makes the call
		// ambiguous.
		var f keyFacts
		if !r.Pass.ImportObjectFact(m, &f) || r.impls.implementedElsewhere(m) {
			return nil
		}
		s = f.summary()
	}
	if !s.useful() {
		return nil
	}
	static := *common // keeps the call's position
	static.Method = nil
	static.Args = append([]ssa.Value{common.Value}, common.Args...)
	if fn := r.ssaPkg.Prog.FuncValue(callee); fn != nil {
		static.Value = fn
	}
	return &interfaceCall{summary: s, common: &static, sig: callee.Signature(), callee: callee}
}

// maxImplementations bounds the implementations that send something (whose
// summary says anything to a caller) a call through an interface is judged
// with; a method with more is not followed. Implementations that send
// nothing (in-memory ones, mocks) are not counted, whatever their number.
//
// Each implementation judged costs a call as much as a static call of a
// wrapper (its sinks, queued commands and forwards instantiated with the
// call's arguments). Measured with the analyzer alone (singlechecker) on a
// generated package of 4,000 calls through one interface whose
// implementations send two multi-key commands each: 2.1 s user time for
// one implementation, 2.8 s for eight, and, without a bound, 6.7 s for 32
// and 20 s and 1.3 GB for 128 (about 35 µs and 2 KB a call and
// implementation); 2 that send beside 126 mocks, 2.5 s. Without a bound the
// cost grows as calls times implementations; with it, a call costs at
// most eight static calls, the implementations are listed once per method
// (not per call), and the analysis stays linear in the calls. Eight covers
// a store's backends (go-redis, rueidis, a cluster and a single-node
// variant) beside any number of mocks; a method with more implementations
// that send something is a plugin point, where which one runs at a call is
// a deployment's choice.
const maxImplementations = 8

// An implementationSummary is one implementation of an interface method
// that sends something, and its summary.
type implementationSummary struct {
	impl    *types.Func
	summary *summary
}

// sendingImplementations are the implementations of m that send something,
// when m has two or more and at most maxImplementations send something;
// nil otherwise. The list is kept once no implementation's summary was
// being computed when it was made (a decorator calling the interface from
// its own implementation sees the others only).
func (r *Package) sendingImplementations(m *types.Func) []implementationSummary {
	if impls, ok := r.interfaces.sending[m]; ok {
		return impls
	}
	var out []implementationSummary
	complete := true
	for _, impl := range r.impls.all(m) {
		if fn := r.ssaPkg.Prog.FuncValue(impl); fn != nil && r.summarizing[fn] {
			complete = false
			continue
		}
		if s := r.summaryOfFunc(impl); s.useful() {
			out = append(out, implementationSummary{impl, s})
		}
	}
	if len(out) > maxImplementations {
		out = nil
	}
	if complete {
		r.interfaces.sending[m] = out
	}
	return out
}

// implementationCalls are the calls an interface call may make when two or
// more types the package sees implement the method (a second backend, a
// mock beside the real store): each implementation that sends something,
// seen as a static call with the interface call's arguments. A call is
// judged with each, since any of them may run; an implementation that
// sends nothing adds nothing.
func (r *Package) implementationCalls(common *ssa.CallCommon) []calledFunction {
	if !common.IsInvoke() {
		return nil
	}
	m := common.Method
	if _, ok := r.impls.projectMethod(m); !ok {
		return nil
	}
	var out []calledFunction
	for _, is := range r.sendingImplementations(m) {
		impl := is.impl
		static := *common // keeps the call's position
		static.Method = nil
		static.Args = append([]ssa.Value{common.Value}, common.Args...)
		if fn := r.ssaPkg.Prog.FuncValue(impl); fn != nil {
			static.Value = fn
		}
		out = append(out, calledFunction{summary: is.summary, common: &static, sig: impl.Signature(), obj: impl, via: m})
	}
	return out
}

// summaryOfFunc is the summary of a function given by its object: computed
// for the package's own, read from facts for another package's.
func (r *Package) summaryOfFunc(obj *types.Func) *summary {
	if obj.Pkg() == r.Pass.Pkg {
		if fn := r.ssaPkg.Prog.FuncValue(obj); fn != nil {
			return r.summaryOf(fn)
		}
		return nil
	}
	var f keyFacts
	if !r.Pass.ImportObjectFact(obj.Origin(), &f) {
		return nil
	}
	return f.summary()
}

// exportInterfaceFacts exports, on each method of the package's interfaces,
// the summary of its one implementation in what the package sees.
func (r *Package) exportInterfaceFacts() {
	scope := r.Pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for i := range iface.NumExplicitMethods() {
			m := iface.ExplicitMethod(i)
			if !m.Exported() {
				continue
			}
			impl := r.impls.of(m)
			if impl == nil {
				continue
			}
			if s := r.summaryOfFunc(impl); s.useful() {
				r.Pass.ExportObjectFact(m, s.fact())
			}
		}
	}
}

// concreteMethod is the method an interface call runs when its receiver
// is what a constructor returns, one concrete type as that interface (see
// summary.concrete): ad := rueidiscompat.NewAdapter(client); ad.MGet(...)
// runs (*Compat).MGet. Nil otherwise.
func (r *Package) concreteMethod(common *ssa.CallCommon) *types.Func {
	v := common.Value
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			// a field the package sets once: s.ad = rueidiscompat.NewAdapter(c)
			if values, ok := r.Eval.FieldWrites(fa.X.Type(), fa.Field); ok && len(values) == 1 {
				v = values[0]
			}
		}
	}
	_, fn, ok := r.Eval.MadeBy(v)
	if !ok || fn.Pkg == nil {
		return adapterMethod(common)
	}
	s := r.summaryOf(fn)
	if s == nil || s.concrete.Name == "" {
		return nil
	}
	tn, ok := fn.Pkg.Pkg.Scope().Lookup(s.concrete.Name).(*types.TypeName)
	if !ok {
		return nil
	}
	t := tn.Type()
	if s.concrete.Pointer {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, common.Method.Pkg(), common.Method.Name())
	impl, _ := obj.(*types.Func)
	return impl
}

// adapterMethod is the method a call through a go-redis-compatible
// adapter's own interface, or a project's interface of its methods, runs,
// wherever the value came from (a field main fills, a parameter): the
// adapter's client type, the one that implements its interface
// (clients.Adapters). Nil for any other call.
func adapterMethod(common *ssa.CallCommon) *types.Func {
	if common.Method == nil || !types.IsInterface(common.Value.Type()) {
		return nil
	}
	return clients.AdapterMethod(common.Method)
}
