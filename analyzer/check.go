package analyzer

import (
	"fmt"
	"go/token"
	"go/types"
	"iter"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/slotcalc"
)

// packageAnalysis is the state of one package's analysis: its SSA, the
// evaluator, what its package variables and fields hold, and the summaries
// of the functions it calls.
type packageAnalysis struct {
	pass      *analysis.Pass
	cfg       *Config
	ssaPkg    *ssa.Package
	funcs     []*ssa.Function // source functions and their literals, in source order
	ev        *Evaluator
	summaries map[*ssa.Function]*summary
	siteKeys  map[*ssa.CallCommon][]Arg
	// redigoCluster: whether the package reaches a cluster library built
	// on redigo; nil until asked.
	redigoCluster *bool
	embedded      map[types.Object]string // string variables filled by //go:embed, to their file
	scripts       map[string]parsedScript // Lua read so far, by text
	coverage      Coverage
}

func newPackageAnalysis(pass *analysis.Pass, cfg *Config) *packageAnalysis {
	pkg, funcs := buildSSA(pass)
	src := IndexSource(pass.Files)
	a := &packageAnalysis{
		pass: pass, cfg: cfg, ssaPkg: pkg, funcs: funcs,
		summaries: map[*ssa.Function]*summary{},
		siteKeys:  map[*ssa.CallCommon][]Arg{},
		embedded:  embeddedStrings(pass),
		scripts:   map[string]parsedScript{},
	}
	a.ev = NewEvaluator(pkg, funcs, pass.TypesInfo, src, a.embedded, a)
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
func (a *packageAnalysis) commandsIn(fn *ssa.Function, client func(*Site), wrapper func(ssa.CallInstruction, calledSink)) {
	for call := range CallsIn(fn) {
		if site := a.clientCall(call); site != nil {
			client(site)
			continue
		}
		for _, s := range a.wrapperSinks(call) {
			wrapper(call, s)
		}
	}
}

// callsIn yields fn's calls (and go and defer statements), in block order.
func CallsIn(fn *ssa.Function) iter.Seq[ssa.CallInstruction] {
	return func(yield func(ssa.CallInstruction) bool) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && !yield(call) {
					return
				}
			}
		}
	}
}

// clientCall recognizes a call of a client and returns nil for anything
// else, including calls on a single-node client unless the configuration
// includes them.
func (a *packageAnalysis) clientCall(call ssa.CallInstruction) *Site {
	site := Recognize(call, a.ev)
	if site == nil || (!a.cfg.IncludeSingleNode && a.onOneNode(site)) {
		return nil
	}
	return site
}

// keysOf reads a client call's keys once: the report and the summary of
// the calling function both need them.
func (a *packageAnalysis) keysOf(site *Site) (keys []Arg, multi bool) {
	rule, multi := site.Rule, site.Rule != nil
	if rule == nil {
		rule, multi = MultiKeyMethods[site.Method]
	}
	if k, ok := a.siteKeys[site.Common]; ok {
		return k, multi
	}
	if multi {
		keys = rule(site)
	} else {
		keys = SingleKeyArgs(site)
	}
	a.siteKeys[site.Common] = keys
	return keys, multi
}

// checkClientCall reports the call's malformed tags and, for multi-key
// methods, the first pair of keys proved to be on different slots.
func (a *packageAnalysis) checkClientCall(site *Site) {
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

// singleKeyArgs reads the parameters go-redis names as keys, for tag checks.
func SingleKeyArgs(site *Site) []Arg {
	var out []Arg
	params := site.Sig.Params()
	for i := range params.Len() {
		if name := params.At(i).Name(); SingleKeyParams[name] {
			out = append(out, site.KeysOfParam(name)...)
		}
	}
	return out
}

func (a *packageAnalysis) reportTagProblem(method string, k Arg) {
	if len(k.Alts) == 0 {
		return
	}
	problem := k.Alts[0].TagProblem()
	for _, alt := range k.Alts[1:] {
		if alt.TagProblem() != problem {
			return // not every value has it
		}
	}
	key := k.Alts[0]
	var category, msg string
	switch problem {
	case EmptyTag:
		category, msg = CategoryEmptyTag, fmt.Sprintf("%s key %s has an empty hash tag {}, so the whole key is hashed", method, key.Quoted())
	case DoubleTag:
		tag, _ := key.Hashed()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a second hash tag after {%s}; only the first one counts", method, key.Quoted(), tag)
	case UnclosedTag:
		category, msg = CategoryUnclosedTag, fmt.Sprintf("%s key %s has a '{' with no '}' after it, so the whole key is hashed", method, key.Quoted())
	default:
		return
	}
	a.pass.Report(analysis.Diagnostic{Pos: k.At.Pos, End: k.At.End, Category: category, Message: msg})
}

// reportHotTag (opt-in) reports a key whose tag is one constant while a
// value outside the tag varies: every value shares the tag's slot.
func (a *packageAnalysis) reportHotTag(method string, k Arg) {
	if !a.cfg.HotTags || len(k.Alts) != 1 {
		return
	}
	tag, values, ok := k.Alts[0].ConstantTag()
	if !ok {
		return
	}
	a.pass.Report(analysis.Diagnostic{
		Pos: k.At.Pos, End: k.At.End, Category: CategoryHotTag,
		Message: fmt.Sprintf("%s key %s has the constant hash tag {%s}: every value of %s is on its slot %d, one hot slot",
			method, k.Alts[0].Quoted(), tag, values, slotcalc.Slot(tag)),
	})
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
func (a *packageAnalysis) reportCrossSlot(method string, keys []Arg, via *wrapperVia, fate string) {
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if via != nil && !keys[i].ViaCall && !keys[j].ViaCall {
				continue
			}
			d, ok := a.differ(keys[i], keys[j])
			if !ok {
				continue
			}
			at, other, otherFirst := keys[j], keys[i], true
			if via != nil && !at.ViaCall {
				at, other, otherFirst = keys[i], keys[j], false
			}
			msg := fmt.Sprintf("%s keys %s and %s are on different hash slots%s%s", method, d.Show(true, ""), d.Show(false, ""), d.How(), fate)
			var fixes []analysis.SuggestedFix
			related := []analysis.RelatedInformation{{
				Pos: other.At.Pos, End: other.At.End,
				Message: "key " + other.Alts[0].Quoted() + d.SlotOf(otherFirst),
			}}
			if via != nil {
				msg += fmt.Sprintf(" in %s (%s)", via.name, via.where)
				if via.pos.IsValid() {
					related = append(related, analysis.RelatedInformation{
						Pos: via.pos, End: via.pos,
						Message: fmt.Sprintf("%s runs %s here", via.name, method),
					})
				}
			} else if fixes = coLocateFix(keys, a.ev.Source.Literals); fixes == nil {
				fixes = templateFix(keys, a.ev)
			}
			a.pass.Report(analysis.Diagnostic{
				Pos: at.At.Pos, End: at.At.End, Category: CategoryCrossSlot,
				Message: msg, Related: related, SuggestedFixes: fixes,
			})
			a.count(false, keys, true)
			return
		}
	}
	a.count(false, keys, false)
	a.reportUnprovable(method, keys, via != nil)
}

// reportUnprovable (strict mode) reports a command whose keys are not proved
// to share a slot, with the first reason found. A command is judged once,
// where it is written: a wrapper whose keys come from its parameters cannot
// prove them for every caller, and its callers are not judged again.
func (a *packageAnalysis) reportUnprovable(method string, keys []Arg, throughWrapper bool) {
	if !a.cfg.Strict || throughWrapper {
		return
	}
	for _, k := range keys {
		if k.Unread != "" {
			a.pass.Report(analysis.Diagnostic{
				Pos: k.At.Pos, End: k.At.End, Category: CategoryUnprovable,
				Message: fmt.Sprintf("%s keys are not proved to share a hash slot: they come from %s, which is not read here", method, k.Unread),
			})
			return
		}
	}
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if reason := Unproved(keys[i], keys[j]); reason != "" {
				a.pass.Report(analysis.Diagnostic{
					Pos: keys[j].At.Pos, End: keys[j].At.End, Category: CategoryUnprovable,
					Message: fmt.Sprintf("%s keys are not proved to share a hash slot: %s", method, reason),
				})
				return
			}
		}
	}
}

// unproved says why two keys are not proved to share a slot, "" when they
// are: every alternative of one on the slot of every alternative of the
// other.
func Unproved(x, y Arg) string {
	for _, kx := range x.Alts {
		for _, ky := range y.Alts {
			if Relate(kx, ky) == Same {
				continue
			}
			for _, k := range []Key{kx, ky} {
				if _, ok := k.Hashed(); !ok {
					if k.EmptyTagPossible() {
						return fmt.Sprintf("the hash tag of %s may be empty", k.Quoted())
					}
					return fmt.Sprintf("%s may hold a brace, so its hash tag is not known", k.Quoted())
				}
			}
			return fmt.Sprintf("%s and %s hash different values", kx.Quoted(), ky.Quoted())
		}
	}
	return ""
}

// A difference is the analyzer's case that two keys are on different slots.
type Difference struct {
	A, B         Key // the first alternatives, for messages
	SlotA, SlotB int // their slots, when known
	SlotsKnown   bool
	NearSure     bool // different for all but about 1 in 16384 values
}

// differ says whether every alternative of x is on another slot than every
// alternative of y: proved for every value, or (unless the configuration
// wants proofs only) near-sure.
func (a *packageAnalysis) differ(x, y Arg) (Difference, bool) {
	return Differ(x, y, a.cfg.ProofsOnly)
}

// differ says whether every alternative of x is on another slot than every
// alternative of y: proved for every value, or (unless proofsOnly) near-sure.
func Differ(x, y Arg, proofsOnly bool) (Difference, bool) {
	if len(x.Alts) == 0 || len(y.Alts) == 0 {
		return Difference{}, false
	}
	d := Difference{A: x.Alts[0], B: y.Alts[0]}
	for _, kx := range x.Alts {
		for _, ky := range y.Alts {
			switch Relate(kx, ky) {
			case Different:
			case NearSure:
				if proofsOnly {
					return Difference{}, false
				}
				d.NearSure = true
			default:
				return Difference{}, false
			}
		}
	}
	d.SlotA, d.SlotsKnown = d.A.Slot()
	if d.SlotsKnown {
		d.SlotB, d.SlotsKnown = d.B.Slot()
	}
	return d, true
}

// key shows one of the two keys for messages: with its slot when known, and
// the command it belongs to when given.
func (d Difference) Show(first bool, method string) string {
	k, slot := d.B, d.SlotB
	if first {
		k, slot = d.A, d.SlotA
	}
	var in []string
	if d.SlotsKnown {
		in = append(in, fmt.Sprintf("slot %d", slot))
	}
	if method != "" {
		in = append(in, method)
	}
	if len(in) == 0 {
		return k.Quoted()
	}
	return fmt.Sprintf("%s (%s)", k.Quoted(), strings.Join(in, ", "))
}

// how says for which values the keys differ, "" when they are known.
func (d Difference) How() string {
	switch {
	case d.SlotsKnown:
		return ""
	case d.NearSure:
		return " for all but about 1 in 16384 values of " + ValuesOf(d.A)
	}
	return " for every value of " + ValuesOf(d.A)
}

// slotOf is the related information's "is on slot N", or "" when unknown.
func (d Difference) SlotOf(first bool) string {
	if !d.SlotsKnown {
		return ""
	}
	if first {
		return fmt.Sprintf(" is on slot %d", d.SlotA)
	}
	return fmt.Sprintf(" is on slot %d", d.SlotB)
}
