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
		a.reportCrossSlot(site.Method, keys, nil, site.Fate)
		a.checkScript(site, keys)
	}
	a.checkClusterProblems(site)
}
