package reading

import (
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// commandsIn walks fn's commands: its calls of the client, and the sinks of
// the wrappers it calls, seen from those calls.
func (r *Package) commandsIn(fn *ssa.Function, client func(*clients.Site), wrapper func(ssa.CallInstruction, calledSink)) {
	for call := range ssaread.CallsIn(fn) {
		if site := r.clientCall(call); site != nil {
			client(site)
			continue
		}
		for _, s := range r.wrapperSinks(call) {
			wrapper(call, s)
		}
	}
}

// clientCall recognizes a call of a client and returns nil for anything
// else, including calls on a single-node client unless the configuration
// includes them.
func (r *Package) clientCall(call ssa.CallInstruction) *clients.Site {
	site, ok := r.calls.sites[call]
	if !ok {
		site = clients.Recognize(call, r.Eval)
		if site != nil && r.topo.LeftOutSite(site) {
			if r.judged(site) && r.topo.SkippedAsSingleNode(site) {
				r.skippedSingleNode(call)
			}
			site = nil
		}
		r.calls.sites[call] = site
	}
	return site
}

// judged reports whether a check judges the call: a multi-key command, or
// one a readiness check looks at.
func (r *Package) judged(site *clients.Site) bool {
	if site.Rule != nil {
		return true
	}
	_, _, isSite := readiness.ClusterProblems(site, r.Options.Target)
	return isSite
}

func (r *Package) skippedSingleNode(call ssa.CallInstruction) {
	if r.calls.singleNode == nil {
		r.calls.singleNode = map[ssa.CallInstruction]bool{}
	}
	r.calls.singleNode[call] = true
}

// SkippedSingleNode counts the calls the checks would judge that were left
// out only because their client talks to one server: the plain run's
// skipped calls, which judging single-node clients as a cluster's shows.
func (r *Package) SkippedSingleNode() int { return len(r.calls.singleNode) }

// keysOf reads a client call's keys once: the report and the summary of
// the calling function both need them.
func (r *Package) keysOf(site *clients.Site) (keys []keymodel.Arg, multi bool) {
	if !r.Eval.Work().Enter() {
		return nil, site.Rule != nil
	}
	defer r.Eval.Work().Leave()
	multi = site.Rule != nil
	if k, ok := r.calls.keys[site.Common]; ok {
		return k, multi
	}
	mark := r.Eval.Mark()
	if multi {
		keys = site.Rule(site)
	} else {
		keys = clients.SingleKeyArgs(site)
	}
	r.calls.keys[site.Common] = keys
	if site.Eval == r.Eval {
		if worlds := r.Eval.Worlds(mark); len(worlds) > 0 {
			r.calls.worlds[site.Common] = worlds
		}
	}
	return keys, multi
}

// A WorldKeys is a command's keys read in one world (see eval.World).
type WorldKeys = keymodel.WorldKeys

// worldsOf reads a command's keys again in each world that decides them:
// the keys of one command, or of one transaction, hold one world's values
// together.
func (r *Package) worldsOf(site *clients.Site) []WorldKeys {
	if !r.Eval.Work().Enter() {
		return nil
	}
	defer r.Eval.Work().Leave()
	var out []WorldKeys
	for _, w := range r.calls.worlds[site.Common] {
		in := *site
		in.Eval = r.worldEval(w)
		keys := clients.SingleKeyArgs
		if site.Rule != nil {
			keys = site.Rule
		}
		out = append(out, WorldKeys{Name: w.Name(), Keys: keys(&in), Setting: w.Setting})
	}
	return out
}

// transactionCommand is a client call as a command of a transaction, with
// its keys in each world.
func (r *Package) transactionCommand(site *clients.Site) keymodel.QueuedCommand {
	keys, _ := r.keysOf(site)
	return keymodel.QueuedCommand{Method: site.Method, Keys: keys, Worlds: r.worldsOf(site)}
}

// worldEval is the package's evaluator in world w, made once.
func (r *Package) worldEval(w eval.World) *eval.Evaluator {
	ev, ok := r.calls.worldEvals[w]
	if !ok {
		ev = r.Eval.In(w)
		r.calls.worldEvals[w] = ev
	}
	return ev
}
