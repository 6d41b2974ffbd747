package reading

import (
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
		keys := site.InstantiateKeys(q.keys)
		via := q.via
		if called.via != nil && called.obj != nil {
			via = append(slices.Clip(via), implChoice{Method: called.via.FullName(), Impl: called.obj.FullName()})
		}
		out = append(out, rootedCommand{keymodel.QueuedCommand{Method: q.method, Keys: keys}, firstOfSlice(clients.ClientRoot(common.Args[q.client-1])), call, via})
	}
	return out
}

// queuedOf is fn's summary of what it queues on its parameters that can be
// pipelines (Pipeliner, Cmdable and the like, *Tx): keyed commands, in
// order, as sinks whose client is that parameter.
func (r *Package) queuedOf(fn *ssa.Function) []sink {
	var out []sink
	for _, c := range r.commandsOnPipelines(fn) {
		p, ok := c.root.(*ssa.Parameter)
		if !ok || p.Parent() != fn || !pipelines(p.Type()) || len(c.Keys) == 0 {
			continue
		}
		out = append(out, sink{method: c.Method, pos: c.instr.Pos(), where: r.Where(c.instr.Pos()), client: ssaread.ParamIndex(p), keys: c.Keys, via: c.via, worlds: c.Worlds})
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

// pipelines reports a pipeline type, or a slice of them (a picker's
// variadic ...redis.Cmdable).
func pipelines(t types.Type) bool {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return clients.PipelineType(s.Elem())
	}
	return clients.PipelineType(t)
}
