package analyzer

import (
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// commandsIn walks fn's commands: its calls of the client, and the sinks of
// the wrappers it calls, seen from those calls.
func (a *packageAnalysis) commandsIn(fn *ssa.Function, client func(*clients.Site), wrapper func(ssa.CallInstruction, calledSink)) {
	for call := range ssaread.CallsIn(fn) {
		if site := a.clientCall(call); site != nil {
			client(site)
			continue
		}
		for _, s := range a.wrapperSinks(call) {
			wrapper(call, s)
		}
	}
}

// clientCall recognizes a call of a client and returns nil for anything
// else, including calls on a single-node client unless the configuration
// includes them.
func (a *packageAnalysis) clientCall(call ssa.CallInstruction) *clients.Site {
	site := clients.Recognize(call, a.ev)
	if site == nil || (!a.cfg.IncludeSingleNode && a.onOneNode(site)) {
		return nil
	}
	return site
}

// keysOf reads a client call's keys once: the report and the summary of
// the calling function both need them.
func (a *packageAnalysis) keysOf(site *clients.Site) (keys []keymodel.Arg, multi bool) {
	multi = site.Rule != nil
	if k, ok := a.siteKeys[site.Common]; ok {
		return k, multi
	}
	if multi {
		keys = site.Rule(site)
	} else {
		keys = clients.SingleKeyArgs(site)
	}
	a.siteKeys[site.Common] = keys
	return keys, multi
}
