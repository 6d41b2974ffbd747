package analyzer

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// unprovableBatches is the unprovable check (strict mode): a multi-key
// command or transaction whose keys are not proved to share a slot and
// that crossslot does not report, with the first reason found. A command
// is judged once, where it is written: a wrapper whose keys come from its
// parameters cannot prove them for every caller, and its callers are not
// judged again.
var unprovableBatches = &unitKind{new: func(p *unitPass) reading.Visitor { return unprovable{pass: p} }}

type unprovable struct {
	hooks
	pass *unitPass
}

func (u unprovable) Command(c *reading.Command) {
	if !c.Multi || c.Wrapper != nil || c.Split == reading.SplitRead || c.Split == reading.SplitAlways || c.Split == reading.SplitByProxy {
		return
	}
	if _, found := u.pass.commandCrossing(c.Keys, false); !found {
		u.report(c.Method, c.Keys)
	}
}

func (u unprovable) Transaction(t *reading.Transaction) {
	if t.Watch {
		return // the watched keys against the callback's: crossslot's only
	}
	if _, found := u.pass.transactionCrossing(t.Commands, t.InOne, true); !found {
		u.report(t.Name, keysOfBatch(t.Commands))
	}
}

// unprovableRemedy ends every unprovable finding: a tag of one value shares
// a slot by construction, and a reason that only the team knows belongs in
// a directive beside the call.
const unprovableRemedy = "give the keys one hash tag of one value, or say why they share a slot in a //crossslot:ignore unprovable comment"

func (u unprovable) report(method string, keys []keymodel.Arg) {
	for _, k := range keys {
		if k.Unread != "" {
			u.pass.report(analysis.Diagnostic{
				Pos: k.At.Pos, End: k.At.End, Category: CategoryUnprovable,
				Message: fmt.Sprintf("%s keys are not proved to share a hash slot: they come from %s, which is not read here; %s", method, k.Unread, unprovableRemedy),
			})
			return
		}
	}
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if reason := keymodel.Unproved(keys[i], keys[j]); reason != "" {
				u.pass.report(analysis.Diagnostic{
					Pos: keys[j].At.Pos, End: keys[j].At.End, Category: CategoryUnprovable,
					Message: fmt.Sprintf("%s keys are not proved to share a hash slot: %s; %s", method, reason, unprovableRemedy),
				})
				return
			}
		}
	}
}
