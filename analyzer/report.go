package analyzer

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/slotcalc"
)

func (a *packageAnalysis) reportTagProblem(method string, k keymodel.Arg) {
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
	case keymodel.EmptyTag:
		category, msg = CategoryEmptyTag, fmt.Sprintf("%s key %s has an empty hash tag {}, so the whole key is hashed", method, key.Quoted())
	case keymodel.DoubleTag:
		tag, _ := key.Hashed()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a second hash tag after {%s}; only the first one counts", method, key.Quoted(), tag)
	case keymodel.UnclosedTag:
		category, msg = CategoryUnclosedTag, fmt.Sprintf("%s key %s has a '{' with no '}' after it, so the whole key is hashed", method, key.Quoted())
	default:
		return
	}
	a.pass.Report(analysis.Diagnostic{Pos: k.At.Pos, End: k.At.End, Category: category, Message: msg})
}

// reportHotTag (opt-in) reports a key whose tag is one constant while a
// value outside the tag varies: every value shares the tag's slot.
func (a *packageAnalysis) reportHotTag(method string, k keymodel.Arg) {
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

// reportCrossSlot reports the first key proved to be on another slot than an
// earlier key of the same command, with the earlier key as related. Through
// a wrapper (via != nil), only pairs with a key from the caller's arguments
// count, as the wrapper's own keys are checked in the wrapper, and the
// diagnostic is at such a key.
func (a *packageAnalysis) reportCrossSlot(method string, keys []keymodel.Arg, via *wrapperVia, fate string) {
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
			category, noun := CategoryCrossSlot, "keys"
			if clients.ShardedPubSub[method] {
				category, noun = CategoryShardedPubSub, "channels"
			}
			msg := fmt.Sprintf("%s %s %s and %s are on different hash slots%s%s", method, noun, d.Show(true, ""), d.Show(false, ""), d.How(), fate)
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
				Pos: at.At.Pos, End: at.At.End, Category: category,
				Message: msg, Related: related, SuggestedFixes: fixes,
			})
			a.countCommand(method, keys, true)
			return
		}
	}
	if a.reportFamily(method, keys, via, fate) || a.reportZeroOnPath(method, keys, fate) {
		a.countCommand(method, keys, true)
		return
	}
	a.countCommand(method, keys, false)
	a.reportUnprovable(method, keys, via != nil)
}

// reportFamily reports keys built one per element of an input in a loop
// (see keymodel.Arg.Family) whose slots differ from one element to the next:
// the command fails whenever the input holds two different elements.
func (a *packageAnalysis) reportFamily(method string, keys []keymodel.Arg, via *wrapperVia, fate string) bool {
	for _, k := range keys {
		if k.Family == "" || via != nil && !k.ViaCall {
			continue
		}
		d, ok := a.differ(k, k.OtherElement())
		if !ok {
			continue
		}
		msg := fmt.Sprintf("%s keys %s for two different elements of %s are on different hash slots%s%s",
			method, d.A.Quoted(), k.Family, d.ForPairs(), fate)
		if via != nil {
			msg += fmt.Sprintf(" in %s (%s)", via.name, via.where)
		}
		a.pass.Report(analysis.Diagnostic{Pos: k.At.Pos, End: k.At.End, Category: CategoryCrossSlot, Message: msg})
		return true
	}
	return false
}

// reportUnprovable (strict mode) reports a command whose keys are not proved
// to share a slot, with the first reason found. A command is judged once,
// where it is written: a wrapper whose keys come from its parameters cannot
// prove them for every caller, and its callers are not judged again.
func (a *packageAnalysis) reportUnprovable(method string, keys []keymodel.Arg, throughWrapper bool) {
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
			if reason := keymodel.Unproved(keys[i], keys[j]); reason != "" {
				a.pass.Report(analysis.Diagnostic{
					Pos: keys[j].At.Pos, End: keys[j].At.End, Category: CategoryUnprovable,
					Message: fmt.Sprintf("%s keys are not proved to share a hash slot: %s", method, reason),
				})
				return
			}
		}
	}
}

// reportZeroOnPath reports a key that is a variable's "" on the paths that
// skip its assignment (see keymodel.Arg.ZeroOnPath) when "" is on another
// slot than a key beside it: the command fails whenever the assignment is
// skipped.
func (a *packageAnalysis) reportZeroOnPath(method string, keys []keymodel.Arg, fate string) bool {
	zero, other, d, ok := a.zeroOnPathPair(keys)
	if !ok {
		return false
	}
	msg := fmt.Sprintf("%s keys %s and \"\" (%s on the paths that leave it unassigned) are on different hash slots%s%s",
		method, d.Show(true, ""), zero.ZeroOnPath, d.How(), fate)
	a.pass.Report(analysis.Diagnostic{
		Pos: zero.At.Pos, End: zero.At.End, Category: CategoryCrossSlot, Message: msg,
		Related: []analysis.RelatedInformation{{
			Pos: other.At.Pos, End: other.At.End,
			Message: "key " + other.Alts[0].Quoted() + d.SlotOf(true),
		}},
	})
	return true
}

// zeroOnPathPair finds a key left "" on some path and a key beside it on
// another slot than "".
func (a *packageAnalysis) zeroOnPathPair(keys []keymodel.Arg) (zero, other keymodel.Arg, d keymodel.Difference, ok bool) {
	for i, k := range keys {
		if k.ZeroOnPath == "" {
			continue
		}
		for j, o := range keys {
			if j == i {
				continue
			}
			if d, ok := a.differ(o, k.Zero()); ok {
				return k, o, d, true
			}
		}
	}
	return keymodel.Arg{}, keymodel.Arg{}, keymodel.Difference{}, false
}
