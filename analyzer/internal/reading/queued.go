package reading

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A rootedCommand is a command on a pipeline or client value of a function,
// by the value its receiver comes from (see ClientRoot).
type rootedCommand struct {
	keymodel.QueuedCommand
	root  ssa.Value
	instr ssa.Instruction
	via   []implChoice // see sink.via
}

// commandsOnPipelines lists fn's commands on pipelines and clients: its
// client calls (Exec too, keyless), the commands of the TxPipelined
// callbacks it runs on them, and those its helpers queue on values it
// passes them (each implementation's, through an interface method with
// several).
func (r *Package) commandsOnPipelines(fn *ssa.Function) []rootedCommand {
	if !r.Eval.Work().Enter() {
		return nil
	}
	defer r.Eval.Work().Leave()
	var out []rootedCommand
	for call := range ssaread.CallsIn(fn) {
		common := call.Common()
		if site := r.clientCall(call); site != nil {
			root := r.pickedRoot(clients.ClientRoot(site.Receiver()))
			if site.Method == "TxPipelined" {
				if cb := ssaread.CallbackArg(common); cb != nil {
					cmds, via := r.queuedOn(cb)
					for i, c := range cmds {
						out = append(out, rootedCommand{c, root, call, via[i]})
					}
				}
				continue
			}
			if each, ok := r.commandPerIteration(site, call); ok {
				for _, c := range each {
					out = append(out, rootedCommand{QueuedCommand: c, root: root, instr: call})
				}
				continue
			}
			out = append(out, rootedCommand{QueuedCommand: r.transactionCommand(site), root: root, instr: call})
			continue
		}
		calls := r.implementationCalls(common)
		if called, ok := r.calledFunction(common); ok {
			calls = []calledFunction{called}
		}
		for _, called := range calls {
			out = append(out, r.queuedBy(call, called)...)
		}
	}
	return out
}

// commandPerIteration reads a command sent in a range loop over a slice
// the code fixes, whose keys are the loop's elements (for _, k := range ks
// { p.Get(ctx, k) }): one command per element, with that element's keys.
func (r *Package) commandPerIteration(site *clients.Site, call ssa.CallInstruction) ([]keymodel.QueuedCommand, bool) {
	keys, _ := r.keysOf(site)
	if !slices.ContainsFunc(keys, keymodel.Arg.HasElement) {
		return nil, false
	}
	var out []keymodel.QueuedCommand
	read := func() {
		var ks []keymodel.Arg
		if site.Rule != nil {
			ks = site.Rule(site)
		} else {
			ks = clients.SingleKeyArgs(site)
		}
		out = append(out, keymodel.QueuedCommand{Method: site.Method, Keys: ks})
	}
	if !r.Eval.EachIteration(call, read) || slices.ContainsFunc(out, func(c keymodel.QueuedCommand) bool { return slices.ContainsFunc(c.Keys, keymodel.Arg.HasElement) }) {
		return nil, false
	}
	return out, true
}

// queuedBy are the commands a called function queues on the pipelines
// the call gives it.
func (r *Package) queuedBy(call ssa.CallInstruction, called calledFunction) []rootedCommand {
	if len(called.summary.queued) == 0 {
		return nil
	}
	common := called.common
	site := clients.NewSite(r.Eval, common, called.sig)
	var out []rootedCommand
	for _, q := range called.summary.queued {
		if q.client > len(common.Args) {
			continue
		}
		via := q.via
		if called.via != nil && called.obj != nil {
			via = append(slices.Clip(via), implChoice{Method: called.via.FullName(), Impl: called.obj.FullName()})
		}
		root := firstOfSlice(clients.ClientRoot(common.Args[q.client-1]))
		if each, ok := r.queuedPerElement(site, q); ok {
			// A command the helper sends once per element of a slice the
			// call gives it: one command per element.
			for _, keys := range each {
				out = append(out, rootedCommand{keymodel.QueuedCommand{Method: q.method, Keys: keys}, root, call, via})
			}
			continue
		}
		keys := site.InstantiateKeys(q.keys)
		out = append(out, rootedCommand{keymodel.QueuedCommand{Method: q.method, Keys: keys}, root, call, via})
	}
	return out
}

// paramElements is keys with the parts that are each element of one of
// fn's slice parameters marked so (see eval.ParamElements), copied only
// where they change.
func (r *Package) paramElements(fn *ssa.Function, keys []keymodel.Arg) []keymodel.Arg {
	var out []keymodel.Arg
	for i, k := range keys {
		var alts []keymodel.Key
		for j, alt := range k.Alts {
			marked, ok := r.Eval.ParamElements(fn, alt)
			if !ok {
				continue
			}
			if alts == nil {
				alts = slices.Clone(k.Alts)
			}
			alts[j] = marked
		}
		if alts == nil {
			continue
		}
		if out == nil {
			out = slices.Clone(keys)
		}
		out[i].Alts = alts
	}
	if out == nil {
		return keys
	}
	return out
}

// queuedPerElement reads a queued command of one key that the helper sends
// for each element of a slice parameter (for _, k := range keys {
// p.Incr(ctx, k) }): the keys of each command, one per element of the
// caller's slice, or one command of a family over it. ok is false for any
// other command.
func (r *Package) queuedPerElement(site *clients.Site, q sink) ([][]keymodel.Arg, bool) {
	if len(q.keys) != 1 || len(q.keys[0].Alts) != 1 {
		return nil, false
	}
	tmpl := q.keys[0].Alts[0]
	each, family, ok := r.Eval.EachElementKeys(tmpl, site.Common.Args, fmt.Sprintf("call%p", site.Common))
	if !ok {
		return nil, false
	}
	at := site.CallPos()
	if family != nil {
		return [][]keymodel.Arg{{{Alts: family, At: at}}}, true
	}
	var out [][]keymodel.Arg
	for _, alts := range each {
		out = append(out, []keymodel.Arg{{Alts: alts, At: at}})
	}
	return out, true
}

// queuedOf is fn's summary of what it queues on its parameters that can be
// pipelines (Pipeliner, Cmdable and the like, *Tx): keyed commands, in
// order, as sinks whose client is that parameter.
func (r *Package) queuedOf(fn *ssa.Function) []sink {
	var out []sink
	for _, c := range r.commandsOnPipelines(fn) {
		p, ok := pickedParam(c.root).(*ssa.Parameter)
		if !ok || p.Parent() != fn || !pipelines(p.Type()) || len(c.Keys) == 0 {
			continue
		}
		out = append(out, sink{method: c.Method, pos: c.instr.Pos(), where: r.Where(c.instr.Pos()), client: ssaread.ParamIndex(p), keys: r.paramElements(fn, c.Keys), via: c.via, worlds: c.Worlds})
	}
	return out
}

// queuedOn is what a callback queues on the pipeline (or *Tx) it receives
// as its first parameter, and the implementations each command came
// through (see sink.via).
func (r *Package) queuedOn(cb *ssa.Function) ([]keymodel.QueuedCommand, [][]implChoice) {
	s := r.summaryOf(cb)
	if s == nil {
		return nil, nil
	}
	var out []keymodel.QueuedCommand
	var via [][]implChoice
	for _, q := range s.queued {
		if q.client == 1 {
			out = append(out, keymodel.QueuedCommand{Method: q.method, Keys: q.keys, Worlds: q.worlds})
			via = append(via, q.via)
		}
	}
	return out, via
}

// pickedRoot is, for a client that a connection picker returns (see
// summary.picksFrom), the slice the call gives the picker: a command on
// s.conn(cs...) is queued on cs[0] when the caller passes one.
func (r *Package) pickedRoot(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return v
	}
	s := r.calleeSummary(&call.Call)
	if s == nil || s.picksFrom == 0 || s.picksFrom > len(call.Call.Args) {
		return v
	}
	return call.Call.Args[s.picksFrom-1]
}

// firstOfSlice is, for a slice of clients the caller builds (a variadic
// argument, conn(ctx, id, p)), its first element's client; v otherwise.
func firstOfSlice(v ssa.Value) ssa.Value {
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return v
	}
	elems, ok := ssaread.SliceElements(v)
	if !ok || len(elems) == 0 {
		return v
	}
	return clients.ClientRoot(ssaread.UnwrapInterface(elems[0]))
}

// pickedParam is the slice parameter whose first element a command is
// sent on (c := cs[0] in a helper given ...redis.Cmdable): the caller's
// pipeline, when it passes one. Any other value is itself.
func pickedParam(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok || !ssaread.IsConstInt(ia.Index, 0) {
		return v
	}
	if p, ok := ia.X.(*ssa.Parameter); ok {
		return p
	}
	return v
}

// pipelines reports a pipeline type, or a slice of them (a picker's
// variadic ...redis.Cmdable), or an interface of the module's own whose
// methods are go-redis commands (Incr(ctx, key) *redis.IntCmd), which a
// Pipeliner satisfies.
func pipelines(t types.Type) bool {
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	return clients.PipelineType(t) || goRedisCommandInterface(t)
}

// goRedisCommandInterface reports an interface type, not go-redis's own,
// with a method that returns one of go-redis's command types.
func goRedisCommandInterface(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || clients.GoRedisPackages[named.Obj().Pkg().Path()] {
		return false
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for m := range iface.Methods() {
		res := m.Signature().Results()
		if res.Len() != 1 {
			continue
		}
		ptr, ok := res.At(0).Type().(*types.Pointer)
		if !ok {
			continue
		}
		if cmd, ok := types.Unalias(ptr.Elem()).(*types.Named); ok && cmd.Obj().Pkg() != nil && clients.GoRedisPackages[cmd.Obj().Pkg().Path()] {
			return true
		}
	}
	return false
}
