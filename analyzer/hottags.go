package analyzer

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/slotcalc"
)

// hotTags is the hottag check (opt-in): a key whose tag is one constant
// while a value outside the tag varies, so every value shares the tag's
// slot.
var hotTags = &unitKind{new: func(p *unitPass) reading.Visitor { return hotTag{pass: p} }}

type hotTag struct {
	hooks
	pass *unitPass
}

func (u hotTag) Key(c *reading.Command, k keymodel.Arg) {
	if c.Wrapper != nil || len(k.Alts) != 1 {
		return // a client call's own keys only
	}
	tag, values, ok := k.Alts[0].ConstantTag()
	if !ok {
		return
	}
	u.pass.report(analysis.Diagnostic{
		Pos: k.At.Pos, End: k.At.End, Category: CategoryHotTag,
		Message: fmt.Sprintf("%s key %s has the constant hash tag {%s}: every value of %s is on its slot %d, one hot slot; put %s in the tag instead%s",
			c.Method, k.Alts[0].Quoted(), tag, values, slotcalc.Slot(tag), values, thenApart(c, k)),
	})
}

// thenApart is what else to do when putting a hot key's values in its tag
// takes it off the slot of another key of its command that the constant
// tag keeps it with, a key of another entity or of all of them: the
// command then crosses slots, and its work is split or done as the
// crossslot check would say. "" when no such key is there.
func thenApart(c *reading.Command, k keymodel.Arg) string {
	if !c.Multi {
		return ""
	}
	for _, o := range c.Keys {
		if o.At == k.At || len(o.Alts) == 0 || !o.Meets(k) {
			continue
		}
		p := pairingOf(k.Alts[0], o.Alts[0])
		if !p.apart() || keymodel.Relate(k.Alts[0], o.Alts[0]) != keymodel.Same {
			continue
		}
		v := advice{a: k.Alts[0], b: o.Alts[0], pairing: p, batch: commandBatch, method: c.Name()}
		return ", and as " + o.Alts[0].Quoted() + " is then on another slot, " + v.apartRemedy()
	}
	return ""
}
