package reading

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/crossslot/crossslot/analyzer/internal/eval"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// summaryOf returns fn's summary, computed once. A function of another
// package has the summary its package exported as a fact; a recursive call
// has none.
func (r *Package) summaryOf(fn *ssa.Function) *summary {
	if !r.Eval.Work().Enter() {
		return nil
	}
	defer r.Eval.Work().Leave()
	if fn.Origin() != nil {
		fn = fn.Origin() // generic functions are summarized once, on their origin
	}
	if s, ok := r.summaries[fn]; ok {
		return s
	}
	if fn.Pkg != r.ssaPkg {
		s := r.importedSummary(fn)
		r.summaries[fn] = s
		return s
	}
	if fn.Blocks == nil {
		return nil
	}
	r.summaries[fn] = nil // in progress: a recursive call sees no summary
	r.summarizing[fn] = true
	defer delete(r.summarizing, fn)
	s := &summary{elems: r.resultElements(fn), sinks: r.sinksOf(fn), queued: r.queuedOf(fn), forwards: r.forwardsOf(fn), transactions: r.transactionSinks(fn),
		singleNodeResult: r.topo.ReturnsSingleNode(fn), singleNodeCallbacks: r.topo.SingleNodeCallbackParams(fn), concrete: r.concreteResult(fn), picksFrom: picksFrom(fn)}
	s.result, s.byDefault, s.option = r.resultKeys(fn)
	if s.elems == nil {
		s.eachOf, s.each, s.mapBy = r.resultFamily(fn)
	}
	s.fields = r.Eval.ReturnedFields(fn)
	if !s.useful() || r.Eval.Work().Exhausted() {
		// Past the bound some of it may be unknown: no summary, as for a
		// function the analysis cannot read.
		s = nil
	}
	r.summaries[fn] = s
	return s
}

// resultFamily reads a []string result built one key per element of a
// slice parameter, func stockKeys(skus []string) []string, and a result
// built by a function parameter from each element of a slice parameter,
// func Map[T, U any](xs []T, f func(T) U) []U (mapBy the function's
// number, see eval.ParamMap).
func (r *Package) resultFamily(fn *ssa.Function) (eachOf int, each []keymodel.Key, mapBy int) {
	results := fn.Signature.Results()
	if results.Len() != 1 {
		return 0, nil, 0
	}
	sl, ok := results.At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return 0, nil, 0
	}
	_, generic := types.Unalias(sl.Elem()).(*types.TypeParam)
	if !generic && !ssaread.IsString(sl.Elem()) {
		return 0, nil, 0
	}
	var ret *ssa.Return
	for _, b := range fn.Blocks {
		if rt, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if ret != nil {
				return 0, nil, 0
			}
			ret = rt
		}
	}
	if ret == nil {
		return 0, nil, 0
	}
	if of, by, ok := r.Eval.ParamMap(ret.Results[0]); ok {
		return of, nil, by
	}
	if generic {
		return 0, nil, 0
	}
	param, each, ok := r.Eval.ParamFamily(ret.Results[0])
	if !ok {
		return 0, nil, 0
	}
	return param, each, 0
}

// resultKeys evaluates every return of a function with one string result;
// when an option decides which return runs (if q.useHashTag { return
// tagged }), also the returns that run at the options' defaults, read in
// that world (see eval.World), and the option.
func (r *Package) resultKeys(fn *ssa.Function) (all, byDefault []keymodel.Key, option string) {
	results := fn.Signature.Results()
	if results.Len() != 1 || !ssaread.IsString(results.At(0).Type()) {
		return nil, nil, ""
	}
	var out []keymodel.Key
	var rets []*ssa.Return
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		rets = append(rets, ret)
		out = append(out, r.Eval.UnderTests(r.Eval.Keys(ret.Results[0]), ret.Block())...)
		if len(out) > keymodel.MaxAlternatives {
			return nil, nil, ""
		}
	}
	for _, k := range out {
		if len(k) != 1 || !k[0].Unknown || k[0].Param > 0 {
			byDefault, option = r.returnsByDefault(rets)
			return out, byDefault, option // some text or a parameter: a caller learns something
		}
	}
	return nil, nil, ""
}

// returnsByDefault is what the returns that run at the options' defaults
// give, when an option rules some out.
func (r *Package) returnsByDefault(rets []*ssa.Return) ([]keymodel.Key, string) {
	var live []*ssa.Return
	option := ""
	for _, ret := range rets {
		if r.Eval.LiveByDefault(ret.Block()) {
			live = append(live, ret)
		} else if o, ok := r.Eval.OptionOf(ret.Block()); ok && option == "" {
			option = o
		}
	}
	if option == "" || len(live) == 0 {
		return nil, ""
	}
	ev := r.worldEval(eval.World{Defaults: true, Option: option})
	var out []keymodel.Key
	for _, ret := range live {
		out = append(out, ev.Keys(ret.Results[0])...)
	}
	return out, option
}

// resultElements reads a []string result that is one fixed list.
func (r *Package) resultElements(fn *ssa.Function) [][]keymodel.Key {
	results := fn.Signature.Results()
	if results.Len() != 1 {
		return nil
	}
	if sl, ok := results.At(0).Type().Underlying().(*types.Slice); !ok || !ssaread.IsString(sl.Elem()) {
		return nil
	}
	var ret *ssa.Return
	for _, b := range fn.Blocks {
		if rt, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if ret != nil {
				return nil // several lists: not followed
			}
			ret = rt
		}
	}
	if ret == nil {
		return nil
	}
	elems, ok := r.Eval.ElementsOf(ret.Results[0], 0, map[ssa.Value]bool{})
	if !ok || len(elems) == 0 {
		return nil
	}
	out := make([][]keymodel.Key, len(elems))
	for i, el := range elems {
		out[i] = r.Eval.ElementKeys(el, 0, map[ssa.Value]bool{})
	}
	return out
}

// sinksOf collects the multi-key commands of fn whose keys involve its
// parameters: calls of the client and of other wrappers.
func (r *Package) sinksOf(fn *ssa.Function) []sink {
	var out []sink
	r.commandsIn(fn, func(site *clients.Site) {
		out = append(out, r.sinksAt(site)...)
	}, func(call ssa.CallInstruction, s calledSink) {
		lists, ok := keymodel.Lists(s.keys)
		if !ok {
			return
		}
		if s.client > 0 {
			s.client = clients.ClientParam(s.clientAt())
		}
		for _, keys := range lists {
			if !keymodel.AnyFromParams(keys) || r.anyDiffer(keys) || (len(keys) < 2 && keys[0].Spread == 0 && s.script == nil) {
				continue
			}
			inst := s.sink
			inst.keys = keys
			out = append(out, inst)
		}
	})
	return out
}

// sinksAt makes a sink of a client call when some of its keys come from
// the calling function's parameters: one per list of keys it may run with
// (see keymodel.Lists), each judged as a command of its own.
func (r *Package) sinksAt(site *clients.Site) []sink {
	all, multi := r.keysOf(site)
	if !multi {
		return nil
	}
	lists, ok := keymodel.Lists(all)
	if !ok {
		return nil
	}
	var out []sink
	for _, keys := range lists {
		fromParams := keymodel.AnyFromParams(keys)
		script := r.scriptKeysOf(site, keys)
		if !fromParams || r.anyDiffer(keys) || (len(keys) < 2 && keys[0].Spread == 0 && script == nil) {
			// No key from a caller; or the command fails whatever the callers
			// pass (its own keys differ, or a caller's value beside them is
			// near-sure to), which is reported here, once, not at every caller;
			// or one key, which cannot cross slots with itself (unless a script
			// touches others).
			continue
		}
		out = append(out, sink{
			method: site.Method,
			pos:    site.Common.Pos(),
			where:  r.Where(site.Common.Pos()),
			client: clients.ClientParam(site.Client()),
			keys:   keys,
			script: script,
		})
	}
	return out
}

// anyDiffer reports keys that cross slots whatever the callers pass.
func (r *Package) anyDiffer(keys []keymodel.Arg) bool {
	return keymodel.AnyDiffer(keys, r.Options.Claims)
}

// Returns is what fn returns, for the evaluator (see callees).
func (r *Package) Returns(fn *ssa.Function) eval.Returned {
	if s := r.summaryOf(fn); s != nil {
		return eval.Returned{Result: s.result, ByDefault: s.byDefault, Option: s.option, Elems: s.elems, EachOf: s.eachOf, Each: s.each, MapBy: s.mapBy, Fields: s.fields}
	}
	return eval.Returned{}
}

// A calledFunction is what a call calls, as its summary numbers the
// parameters: a static call as it is, a call through a project interface as
// a static call of its one implementation (see interfaces.go).
type calledFunction struct {
	summary *summary
	common  *ssa.CallCommon  // the receiver, if any, first among the arguments
	sig     *types.Signature // the callee's
	obj     *types.Func      // the callee, for messages; nil for a function value
	// via is the interface method the call calls when obj is one of its
	// several implementations (see implementationCalls), nil otherwise.
	via *types.Func
}

// calledFunction is what the call calls; ok is false when its summary is
// unknown. (A value, not a pointer: it is asked for at every call.)
func (r *Package) calledFunction(common *ssa.CallCommon) (called calledFunction, ok bool) {
	if fn := common.StaticCallee(); fn != nil {
		s := r.summaryOf(fn)
		if s == nil {
			return calledFunction{}, false
		}
		obj, _ := fn.Object().(*types.Func)
		if fn.Origin() != nil {
			obj, _ = fn.Origin().Object().(*types.Func)
		}
		return calledFunction{summary: s, common: common, sig: fn.Signature, obj: obj}, true
	}
	if c := r.interfaceCallOf(common); c != nil {
		return calledFunction{summary: c.summary, common: c.common, sig: c.sig, obj: c.callee}, true
	}
	return calledFunction{}, false
}

// calleeSummary is the summary of the function a call calls.
func (r *Package) calleeSummary(common *ssa.CallCommon) *summary {
	if c, ok := r.calledFunction(common); ok {
		return c.summary
	}
	return nil
}

// A calledSink is a wrapper's sink seen from one call: its keys with the
// call's arguments put in, each placed at the argument it came from.
type calledSink struct {
	sink
	callee *types.Func
	args   []ssa.Value // the call's arguments, the receiver first for a method
	worlds []WorldKeys // the keys read in each world that decides them
}

// clientAt is the client the call passes the wrapper for the sink's
// command, nil when the wrapper does not take it as a parameter.
func (s calledSink) clientAt() ssa.Value {
	if s.client > 0 && s.client <= len(s.args) {
		return s.args[s.client-1]
	}
	return nil
}

// wrapperSinks instantiates the sinks of the function a call calls: of
// each implementation a call through an interface may run.
func (r *Package) wrapperSinks(call ssa.CallInstruction) []calledSink {
	var out []calledSink
	if called, ok := r.calledFunction(call.Common()); ok {
		out = r.sinksOfCalled(called)
	} else {
		for _, impl := range r.implementationCalls(call.Common()) {
			out = append(out, r.sinksOfCalled(impl)...)
		}
	}
	// The client the call passes is judged there, as its own call would be:
	// one server's, or where a check of it ruled a cluster client out, it
	// is left out (unless the options include single-node clients); where
	// a check ruled one in, it is a cluster client's.
	return slices.DeleteFunc(out, func(s calledSink) bool {
		v := s.clientAt()
		return v != nil && r.topo.LeftOutCall(call, v)
	})
}

// sinksOfCalled instantiates the sinks of one called function with its
// call's arguments.
func (r *Package) sinksOfCalled(called calledFunction) []calledSink {
	if len(called.summary.sinks) == 0 {
		return nil
	}
	common := called.common
	site := clients.NewSite(r.Eval, common, called.sig)
	var out []calledSink
	for _, sk := range called.summary.sinks {
		inst := sk
		inst.keys, inst.script = nil, nil
		mark := r.Eval.Mark()
		inst.keys = site.InstantiateKeys(sk.keys)
		var worlds []WorldKeys
		for _, w := range r.Eval.Worlds(mark) {
			in := clients.NewSite(r.worldEval(w), common, called.sig)
			worlds = append(worlds, WorldKeys{Name: w.Name(), Keys: in.InstantiateKeys(sk.keys), Setting: w.Setting})
		}
		for _, k := range sk.script {
			if keys := site.InstantiateKey(k.Key); len(keys) == 1 {
				k.Key = keys[0]
				inst.script = append(inst.script, k)
			}
		}
		if len(inst.keys) == 0 {
			continue
		}
		out = append(out, calledSink{sink: inst, callee: called.obj, args: common.Args, worlds: worlds})
	}
	return out
}

// ExportFacts exports the summaries of the package's exported functions and
// methods, the only ones another package can call, and of its interfaces'
// methods that one type implements (see interfaces.go).
func (r *Package) ExportFacts() {
	r.exportFunctionFacts()
	if r.Eval.Work().Exhausted() {
		return // only the summaries finished before the bound are known
	}
	r.exportInterfaceFacts()
	r.exportSettings()
}

func (r *Package) exportFunctionFacts() {
	for _, fn := range r.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || !obj.Exported() {
			continue
		}
		if s := r.summaryOf(fn); s.useful() {
			r.Pass.ExportObjectFact(obj, s.fact())
		}
	}
}

// importedSummary reads the summary another package exported for fn.
func (r *Package) importedSummary(fn *ssa.Function) *summary {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	var f keyFacts
	if !r.Pass.ImportObjectFact(obj.Origin(), &f) {
		return nil
	}
	return f.summary()
}

// concreteResult is the named type of the package that every return of
// fn gives its one result, an interface, when that type's methods send
// commands (an adapter's constructor); zero otherwise.
func (r *Package) concreteResult(fn *ssa.Function) concreteType {
	results := fn.Signature.Results()
	if results.Len() != 1 || !types.IsInterface(results.At(0).Type()) {
		return concreteType{}
	}
	var found types.Type
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		mi, ok := ret.Results[0].(*ssa.MakeInterface)
		if !ok || found != nil && !types.Identical(found, mi.X.Type()) {
			return concreteType{}
		}
		found = mi.X.Type()
	}
	if found == nil {
		return concreteType{}
	}
	t, pointer := found, false
	if p, ok := t.(*types.Pointer); ok {
		t, pointer = p.Elem(), true
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != r.Pass.Pkg || named.TypeParams().Len() > 0 {
		return concreteType{}
	}
	ms := r.ssaPkg.Prog.MethodSets.MethodSet(found)
	for i := range ms.Len() {
		if m := r.ssaPkg.Prog.MethodValue(ms.At(i)); m != nil && m.Pkg == r.ssaPkg && m.Synthetic == "" {
			if s := r.summaryOf(m); s != nil && (len(s.sinks) > 0 || len(s.queued) > 0) {
				return concreteType{Name: named.Obj().Name(), Pointer: pointer}
			}
		}
	}
	return concreteType{}
}

// picksFrom is the number of the slice parameter of pipelines or clients
// whose first element fn returns on some path (see summary.picksFrom), 0
// when it returns none.
func picksFrom(fn *ssa.Function) int {
	results := fn.Signature.Results()
	if results.Len() != 1 || !clients.PipelineType(results.At(0).Type()) {
		return 0
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if p, ok := firstElementOf(ret.Results[0]); ok {
			return ssaread.ParamIndex(p)
		}
	}
	return 0
}

// firstElementOf is the slice parameter v is element 0 of: cs[0].
func firstElementOf(v ssa.Value) (*ssa.Parameter, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok || !ssaread.IsConstInt(ia.Index, 0) {
		return nil, false
	}
	p, ok := ia.X.(*ssa.Parameter)
	return p, ok
}

// BuilderResult is the string result of a key builder the package calls,
// in terms of its parameters (their parts' Param numbers, the receiver
// first), from its summary: this package's, or a fact. ok is false for a
// function without one.
func (r *Package) BuilderResult(fn *types.Func) ([]keymodel.Key, bool) {
	f := r.ssaPkg.Prog.FuncValue(fn)
	if f == nil {
		return nil, false
	}
	s := r.summaryOf(f)
	if s == nil || len(s.result) == 0 {
		return nil, false
	}
	return s.result, true
}
