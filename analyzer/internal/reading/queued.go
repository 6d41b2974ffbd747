package reading

import (
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A rootedCommand is a command on a pipeline or client value of a function,
// by the value its receiver comes from (see ClientRoot).
type rootedCommand struct {
	clients.Command
	root  ssa.Value
	instr ssa.Instruction
}

// commandsOnPipelines lists fn's commands on pipelines and clients: its
// client calls (Exec too, keyless), the commands of the TxPipelined
// callbacks it runs on them, and those its helpers queue on values it
// passes them.
func (r *Package) commandsOnPipelines(fn *ssa.Function) []rootedCommand {
	var out []rootedCommand
	for call := range ssaread.CallsIn(fn) {
		common := call.Common()
		if site := r.clientCall(call); site != nil {
			root := clients.ClientRoot(site.Receiver())
			if site.Method == "TxPipelined" {
				if cb := ssaread.CallbackArg(common); cb != nil {
					for _, c := range r.queuedOn(cb) {
						out = append(out, rootedCommand{c, root, call})
					}
				}
				continue
			}
			keys, _ := r.keysOf(site)
			out = append(out, rootedCommand{clients.Command{Method: site.Method, Keys: keys}, root, call})
			continue
		}
		called, ok := r.calledFunction(common)
		if !ok || len(called.summary.queued) == 0 {
			continue
		}
		common = called.common
		site := clients.NewSite(r.Eval, common, called.sig)
		for _, q := range called.summary.queued {
			if q.client > len(common.Args) {
				continue
			}
			var keys []keymodel.Arg
			for _, k := range q.keys {
				keys = append(keys, site.InstantiateKey(k)...)
			}
			out = append(out, rootedCommand{clients.Command{Method: q.method, Keys: keys}, clients.ClientRoot(common.Args[q.client-1]), call})
		}
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
		if !ok || p.Parent() != fn || !clients.PipelineType(p.Type()) || len(c.Keys) == 0 {
			continue
		}
		out = append(out, sink{method: c.Method, pos: c.instr.Pos(), where: r.Where(c.instr.Pos()), client: ssaread.ParamIndex(p), keys: c.Keys})
	}
	return out
}

// queuedOn is what a callback queues on the pipeline (or *Tx) it receives
// as its first parameter.
func (r *Package) queuedOn(cb *ssa.Function) []clients.Command {
	s := r.summaryOf(cb)
	if s == nil {
		return nil
	}
	var out []clients.Command
	for _, q := range s.queued {
		if q.client == 1 {
			out = append(out, clients.Command{Method: q.method, Keys: q.keys})
		}
	}
	return out
}
