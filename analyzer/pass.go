package analyzer

import (
	"go/types"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// packageAnalysis is the state of one package's analysis: its SSA, the
// evaluator, what its package variables and fields hold, and the summaries
// of the functions it calls.
type packageAnalysis struct {
	pass      *analysis.Pass
	cfg       *Config
	ssaPkg    *ssa.Package
	funcs     []*ssa.Function // source functions and their literals, in source order
	ev        *eval.Evaluator
	summaries map[*ssa.Function]*summary
	siteKeys  map[*ssa.CallCommon][]keymodel.Arg
	// redigoCluster: whether the package reaches a cluster library built
	// on redigo; nil until asked.
	redigoCluster *bool
	embedded      map[types.Object]string // string variables filled by //go:embed, to their file
	scripts       map[string]parsedScript // Lua read so far, by text
	coverage      Coverage
}

func newPackageAnalysis(pass *analysis.Pass, cfg *Config) *packageAnalysis {
	pkg, funcs := buildSSA(pass)
	src := eval.IndexSource(pass.Files)
	a := &packageAnalysis{
		pass: pass, cfg: cfg, ssaPkg: pkg, funcs: funcs,
		summaries: map[*ssa.Function]*summary{},
		siteKeys:  map[*ssa.CallCommon][]keymodel.Arg{},
		embedded:  embeddedStrings(pass),
		scripts:   map[string]parsedScript{},
	}
	a.ev = eval.NewEvaluator(pkg, funcs, pass.TypesInfo, src, a.embedded, a)
	return a
}

// checkFunction reports the client calls and wrapper calls of fn.
func (a *packageAnalysis) checkFunction(fn *ssa.Function) {
	a.commandsIn(fn, a.checkClientCall, func(_ ssa.CallInstruction, s calledSink) {
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
}

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
	rule, multi := site.Rule, site.Rule != nil
	if rule == nil {
		rule, multi = clients.MultiKeyMethods[site.Method]
	}
	if k, ok := a.siteKeys[site.Common]; ok {
		return k, multi
	}
	if multi {
		keys = rule(site)
	} else {
		keys = clients.SingleKeyArgs(site)
	}
	a.siteKeys[site.Common] = keys
	return keys, multi
}

// checkClientCall reports the call's malformed tags and, for multi-key
// methods, the first pair of keys proved to be on different slots.
func (a *packageAnalysis) checkClientCall(site *clients.Site) {
	keys, multi := a.keysOf(site)
	for _, k := range keys {
		a.reportTagProblem(site.Method, k)
		a.reportHotTag(site.Method, k)
	}
	if multi {
		a.reportCrossSlot(site.Method, keys, nil, site.Fate)
		a.checkScript(site, keys)
	}
}
