package analyzer

import (
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
)

// checkFunction reports the client calls and wrapper calls of fn.
func (a *packageAnalysis) checkFunction(fn *ssa.Function) {
	a.commandsIn(fn, a.checkClientCall, func(call ssa.CallInstruction, s calledSink) {
		if a.testOffCluster(call.Pos(), s.clientAt()) {
			return
		}
		for _, k := range s.keys {
			if k.ViaCall {
				a.reportTagProblem(s.method, k)
			}
		}
		via := s.via(a, s.callee)
		a.reportCrossSlot(s.method, s.keys, via, "")
		if len(s.script) > 0 {
			a.judgeScriptKeysAtCall(s, via)
		}
	})
	a.checkTransactions(fn)
	a.checkMultiExec(fn)
	a.checkDatabaseOptions(fn)
}

// checkClientCall reports the call's malformed tags and, for multi-key
// methods, the first pair of keys proved to be on different slots.
func (a *packageAnalysis) checkClientCall(site *clients.Site) {
	if a.testOffCluster(site.Common.Pos(), site.Client()) {
		return
	}
	keys, multi := a.keysOf(site)
	for _, k := range keys {
		a.reportTagProblem(site.Method, k)
		a.reportHotTag(site.Method, k)
	}
	if multi {
		fate := site.Fate
		if site.Library == clients.GoRedis && (clients.SplitReads[site.Method] || clients.SplitWrites[site.Method]) && a.splitsBySlot(site.Client()) {
			if clients.SplitReads[site.Method] {
				a.count(false, nil, false) // split by slot and merged: fine
				return
			}
			fate = splitWrite
		}
		a.reportCrossSlot(site.Method, keys, nil, fate)
		a.checkScript(site, keys)
	}
	a.checkClusterProblems(site)
}

// splitWrite ends a crossslot message on a write the client splits by slot.
const splitWrite = "; the client's command-info resolver splits it by slot, so it does not fail but is not atomic"
