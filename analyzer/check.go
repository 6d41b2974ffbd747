package analyzer

import (
	"fmt"
	"go/token"
	"go/types"

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
	ev        *evaluator
	stores    *stores
	summaries map[*ssa.Function]*summary
	siteKeys  map[*ssa.CallCommon][]keyArg
}

func newPackageAnalysis(pass *analysis.Pass, cfg *Config) *packageAnalysis {
	pkg, funcs := buildSSA(pass)
	calls, literals := indexSource(pass)
	a := &packageAnalysis{
		pass: pass, cfg: cfg, ssaPkg: pkg, funcs: funcs,
		summaries: map[*ssa.Function]*summary{},
		siteKeys:  map[*ssa.CallCommon][]keyArg{},
	}
	a.ev = &evaluator{calls: calls, literals: literals, info: pass.TypesInfo, pkg: a,
		valueEnv: map[ssa.Value]ssa.Value{}, keyEnv: map[ssa.Value][]key{}, sliceEnv: map[ssa.Value][]element{}}
	a.stores = indexStores(pkg, funcs)
	a.stores.ev = a.ev
	return a
}

// checkFunction reports the client calls and wrapper calls of fn.
func (a *packageAnalysis) checkFunction(fn *ssa.Function) {
	a.commandsIn(fn, a.checkClientCall, func(_ ssa.CallInstruction, s calledSink) {
		for _, k := range s.keys {
			if k.viaCall {
				a.reportTagProblem(s.method, k)
			}
		}
		a.reportCrossSlot(s.method, s.keys, s.via(a, s.callee))
	})
	a.checkTransactions(fn)
}

// commandsIn walks fn's commands: its calls of the client, and the sinks of
// the wrappers it calls, seen from those calls.
func (a *packageAnalysis) commandsIn(fn *ssa.Function, client func(*callSite), wrapper func(ssa.CallInstruction, calledSink)) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if site := a.clientCall(call); site != nil {
				client(site)
				continue
			}
			for _, s := range a.wrapperSinks(call) {
				wrapper(call, s)
			}
		}
	}
}

// clientCall recognizes a call of a go-redis method, static or through an
// interface, and returns nil for anything else, including calls on a
// single-node client unless the configuration includes them.
func (a *packageAnalysis) clientCall(call ssa.CallInstruction) *callSite {
	common := call.Common()
	method := methodOf(common)
	if method == nil {
		return nil
	}
	site := &callSite{method: method.Name(), common: common, sig: method.Signature(), expr: a.ev.calls[common.Pos()], eval: a.ev}
	if !a.cfg.IncludeSingleNode && a.singleNode(site.receiver()) {
		return nil
	}
	return site
}

// keysOf reads a client call's keys once: the report and the summary of
// the calling function both need them.
func (a *packageAnalysis) keysOf(site *callSite) (keys []keyArg, multi bool) {
	rule, multi := multiKeyMethods[site.method]
	if k, ok := a.siteKeys[site.common]; ok {
		return k, multi
	}
	if multi {
		keys = rule(site)
	} else {
		keys = singleKeyArgs(site)
	}
	a.siteKeys[site.common] = keys
	return keys, multi
}

// checkClientCall reports the call's malformed tags and, for multi-key
// methods, the first pair of keys proved to be on different slots.
func (a *packageAnalysis) checkClientCall(site *callSite) {
	keys, multi := a.keysOf(site)
	for _, k := range keys {
		a.reportTagProblem(site.method, k)
	}
	if multi {
		a.reportCrossSlot(site.method, keys, nil)
	}
}

// singleKeyArgs reads the parameters go-redis names as keys, for tag checks.
func singleKeyArgs(site *callSite) []keyArg {
	var out []keyArg
	params := site.sig.Params()
	for i := range params.Len() {
		if name := params.At(i).Name(); singleKeyParams[name] {
			out = append(out, site.keysOfParam(name)...)
		}
	}
	return out
}

func (a *packageAnalysis) reportTagProblem(method string, k keyArg) {
	if len(k.alts) == 0 {
		return
	}
	problem := k.alts[0].tagProblem()
	for _, alt := range k.alts[1:] {
		if alt.tagProblem() != problem {
			return // not every value has it
		}
	}
	key := k.alts[0]
	var category, msg string
	switch problem {
	case emptyTag:
		category, msg = CategoryEmptyTag, fmt.Sprintf("%s key %s has an empty hash tag {}, so the whole key is hashed", method, key.quoted())
	case doubleTag:
		tag, _ := key.hashed()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a second hash tag after {%s}; only the first one counts", method, key.quoted(), tag)
	case unclosedTag:
		category, msg = CategoryUnclosedTag, fmt.Sprintf("%s key %s has a '{' with no '}' after it, so the whole key is hashed", method, key.quoted())
	default:
		return
	}
	a.pass.Report(analysis.Diagnostic{Pos: k.at.pos, End: k.at.end, Category: category, Message: msg})
}

// A wrapperVia says, for a diagnostic at a wrapper's caller, which wrapper
// runs the command and where the command is.
type wrapperVia struct {
	name  string
	where string
	pos   token.Pos // the command, when it is in this package
}

// via describes a called sink for messages.
func (s calledSink) via(a *packageAnalysis, callee *types.Func) *wrapperVia {
	return &wrapperVia{name: a.calleeName(callee), where: s.where, pos: s.pos}
}

// reportCrossSlot reports the first key proved to be on another slot than an
// earlier key of the same command, with the earlier key as related. Through
// a wrapper (via != nil), only pairs with a key from the caller's arguments
// count, as the wrapper's own keys are checked in the wrapper, and the
// diagnostic is at such a key.
func (a *packageAnalysis) reportCrossSlot(method string, keys []keyArg, via *wrapperVia) {
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if via != nil && !keys[i].viaCall && !keys[j].viaCall {
				continue
			}
			si, sj, ok := provedDifferent(keys[i], keys[j])
			if !ok {
				continue
			}
			at, other, sOther := keys[j], keys[i], si
			if via != nil && !at.viaCall {
				at, other, sOther = keys[i], keys[j], sj
			}
			msg := fmt.Sprintf("%s keys %s (slot %d) and %s (slot %d) are on different hash slots",
				method, keys[i].alts[0].quoted(), si, keys[j].alts[0].quoted(), sj)
			var fixes []analysis.SuggestedFix
			related := []analysis.RelatedInformation{{
				Pos: other.at.pos, End: other.at.end,
				Message: fmt.Sprintf("key %s is on slot %d", other.alts[0].quoted(), sOther),
			}}
			if via != nil {
				msg += fmt.Sprintf(" in %s (%s)", via.name, via.where)
				if via.pos.IsValid() {
					related = append(related, analysis.RelatedInformation{
						Pos: via.pos, End: via.pos,
						Message: fmt.Sprintf("%s runs %s here", via.name, method),
					})
				}
			} else {
				fixes = coLocateFix(keys, a.ev.literals)
			}
			a.pass.Report(analysis.Diagnostic{
				Pos: at.at.pos, End: at.at.end, Category: CategoryCrossSlot,
				Message: msg, Related: related, SuggestedFixes: fixes,
			})
			return
		}
	}
}

// provedDifferent holds when every value of a and every value of b have a
// known slot and no two of them agree. It returns the slots of the first
// alternatives for the message.
func provedDifferent(a, b keyArg) (int, int, bool) {
	if len(a.alts) == 0 || len(b.alts) == 0 {
		return 0, 0, false
	}
	var first [2]int
	for ia, ka := range a.alts {
		sa, ok := ka.slot()
		if !ok {
			return 0, 0, false
		}
		for ib, kb := range b.alts {
			sb, ok := kb.slot()
			if !ok || sa == sb {
				return 0, 0, false
			}
			if ia == 0 && ib == 0 {
				first = [2]int{sa, sb}
			}
		}
	}
	return first[0], first[1], true
}
