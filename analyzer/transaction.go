package analyzer

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Every key of one MULTI/EXEC must be on one slot. go-redis v9.11.0 and
// later refuse a cluster transaction whose commands' keys span slots
// (ErrCrossSlot, nothing written); v9.10.0 and earlier, and v8, v7 and v6,
// split it into one MULTI/EXEC per slot, silently no longer atomic. Inside
// Watch's callback, the transaction runs on the node of the watched keys,
// where a key of another slot fails with MOVED.
//
// A transaction's commands are the keyed commands queued on one pipeline:
//   - in a TxPipelined callback, a function literal or a named function;
//   - on a TxPipeline() value, up to an Exec that comes before them;
//   - in a Watch callback, on its *Tx, and in the TxPipelined it runs;
//
// directly or through helpers that take the pipeline as a parameter (their
// summaries' queued commands, facts across packages). Plain pipelines are
// split per node by the client: their commands are not compared.

// checkTransactions reports the transactions fn starts.
func (a *packageAnalysis) checkTransactions(fn *ssa.Function) {
	for call := range ssaread.CallsIn(fn) {
		common := call.Common()
		if a.testOffCluster(call.Pos(), ssaread.ReceiverValue(common)) {
			continue
		}
		if cmds, ok := clients.DoMultiTransaction(call, a.ev); ok {
			a.reportTransaction("DoMulti", cmds, "the cluster client panics on it (Mixing no-slot and cross slot commands in DoMulti is prohibited)")
		}
		m := clients.GoRedisMethod(common)
		if m == nil || (!a.cfg.IncludeSingleNode && a.talksToOneNode(call, ssaread.ReceiverValue(common))) {
			continue
		}
		switch m.Name() {
		case "TxPipelined":
			if cb := ssaread.CallbackArg(common); cb != nil {
				a.reportTransaction("TxPipelined", a.queuedOn(cb), clients.TransactionFate(m))
			}
		case "TxPipeline":
			if v, ok := call.(*ssa.Call); ok {
				a.reportTransaction("TxPipeline", a.pipelineCommands(fn, v), clients.TransactionFate(m))
			}
		case "Watch":
			if cb := ssaread.CallbackArg(common); cb != nil {
				site := clients.NewSite(a.ev, common, m.Signature())
				a.reportWatch(site.KeysOfParam("keys"), a.queuedOn(cb))
			}
		}
	}
}

// pipelineCommands is what fn queues on the TxPipeline() value txp before an
// Exec of it: a command that an Exec dominates belongs to the next batch.
func (a *packageAnalysis) pipelineCommands(fn *ssa.Function, txp *ssa.Call) []clients.Command {
	var execs []ssa.Instruction
	var cmds []rootedCommand
	for _, c := range a.commandsOnPipelines(fn) {
		if c.root != ssa.Value(txp) {
			continue
		}
		if c.Method == "Exec" {
			execs = append(execs, c.instr)
			continue
		}
		cmds = append(cmds, c)
	}
	var out []clients.Command
	for _, c := range cmds {
		after := false
		for _, e := range execs {
			after = after || ssaread.Dominates(e, c.instr)
		}
		if !after {
			out = append(out, c.Command)
		}
	}
	return out
}

// reportTransaction reports the first two keys of different commands of one
// transaction that are proved to be on different slots, at the later one.
func (a *packageAnalysis) reportTransaction(name string, cmds []clients.Command, fate string) {
	if c, ok := a.crossing(cmds, func(int) bool { return true }); ok {
		a.pass.Report(analysis.Diagnostic{
			Pos: c.later.At.Pos, End: c.later.At.End, Category: CategoryCrossSlot,
			Message: fmt.Sprintf("%s keys %s and %s are on different hash slots%s; %s",
				name, c.d.Show(true, cmds[c.i].Method), c.d.Show(false, cmds[c.j].Method), c.d.How(), fate),
			Related: []analysis.RelatedInformation{{
				Pos: c.earlier.At.Pos, End: c.earlier.At.End,
				Message: fmt.Sprintf("%s key %s%s", cmds[c.i].Method, c.earlier.Alts[0].Quoted(), c.d.SlotOf(true)),
			}},
		})
		a.count(true, nil, true)
		return
	}
	if a.reportLoopTransaction(name, cmds, fate) {
		a.count(true, nil, true)
		return
	}
	var all []keymodel.Arg
	for _, c := range cmds {
		all = append(all, c.Keys...)
	}
	if len(cmds) > 0 {
		a.count(true, all, false)
	}
	a.reportUnprovable(name, all, false)
}

// reportLoopTransaction reports a transaction that queues commands in a
// loop over an input whose keys' slots differ from one element to the next:
// it fails whenever the input holds two different elements.
func (a *packageAnalysis) reportLoopTransaction(name string, cmds []clients.Command, fate string) bool {
	for _, cj := range cmds {
		for _, kj := range cj.Keys {
			if !kj.HasElement() {
				continue
			}
			for _, ci := range cmds {
				for _, ki := range ci.Keys {
					if !ki.HasElement() {
						continue
					}
					d, ok := a.differ(ki, kj.OtherElement())
					if !ok {
						continue
					}
					a.pass.Report(analysis.Diagnostic{
						Pos: kj.At.Pos, End: kj.At.End, Category: CategoryCrossSlot,
						Message: fmt.Sprintf("%s keys %s and %s for two different elements of a loop are on different hash slots%s; %s",
							name, d.Show(true, ci.Method), d.Show(false, cj.Method), d.ForPairs(), fate),
					})
					return true
				}
			}
		}
	}
	return false
}

// checkMultiExec reports the transactions fn sends as command lines (redigo's
// Send("MULTI") ... Do("EXEC")) on one connection, in straight-line code:
// MULTI, the commands, and EXEC in one block.
func (a *packageAnalysis) checkMultiExec(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		open := map[ssa.Value][]clients.Command{} // by connection, since its MULTI
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site := a.clientCall(call)
			if site == nil || !site.CommandLine {
				continue
			}
			conn := clients.ClientRoot(site.Receiver())
			cmds, inTx := open[conn]
			switch site.Method {
			case "MULTI":
				open[conn] = []clients.Command{}
			case "EXEC":
				if inTx && !a.testOffCluster(call.Pos(), conn) {
					a.reportTransaction("MULTI/EXEC", cmds, "the server refuses the transaction at EXEC (CROSSSLOT)")
				}
				delete(open, conn)
			case "DISCARD":
				delete(open, conn)
			default:
				if inTx {
					keys, _ := a.keysOf(site)
					open[conn] = append(cmds, clients.Command{Method: site.Method, Keys: keys})
				}
			}
		}
	}
}

// reportWatch reports the first command of a Watch callback with a key
// proved to be on another slot than a watched key.
func (a *packageAnalysis) reportWatch(watched []keymodel.Arg, cmds []clients.Command) {
	all := append([]clients.Command{{Method: "WATCH", Keys: watched}}, cmds...)
	c, ok := a.crossing(all, func(i int) bool { return i == 0 }) // the commands among themselves are their transactions'
	if !ok {
		return
	}
	a.pass.Report(analysis.Diagnostic{
		Pos: c.later.At.Pos, End: c.later.At.End, Category: CategoryCrossSlot,
		Message: fmt.Sprintf("Watch keys %s and %s key %s are on different hash slots%s; the callback runs on the watched keys' node, where another slot fails with MOVED",
			c.d.Show(true, ""), all[c.j].Method, c.d.Show(false, ""), c.d.How()),
		Related: []analysis.RelatedInformation{{
			Pos: c.earlier.At.Pos, End: c.earlier.At.End, Message: "watched key " + c.earlier.Alts[0].Quoted() + c.d.SlotOf(true),
		}},
	})
}

// A crossingPair is two keys of different commands proved to be on
// different slots: command i's earlier, command j's later (i < j).
type crossingPair struct {
	i, j           int
	earlier, later keymodel.Arg
	d              keymodel.Difference
}

// crossing finds the first crossing pair of a transaction's commands, in
// the order the later key is queued, comparing command j's keys with those
// of each earlier command i that compared(i) admits.
func (a *packageAnalysis) crossing(cmds []clients.Command, compared func(i int) bool) (crossingPair, bool) {
	for j := 1; j < len(cmds); j++ {
		for _, kj := range cmds[j].Keys {
			for i := range j {
				if !compared(i) {
					continue
				}
				for _, ki := range cmds[i].Keys {
					if d, ok := a.differ(ki, kj); ok {
						return crossingPair{i, j, ki, kj, d}, true
					}
				}
			}
		}
	}
	return crossingPair{}, false
}
