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
		Message: fmt.Sprintf("%s key %s has the constant hash tag {%s}: every value of %s is on its slot %d, one hot slot; put %s in the tag instead",
			c.Method, k.Alts[0].Quoted(), tag, values, slotcalc.Slot(tag), values),
	})
}
