package analyzer

import (
	"fmt"
	"go/token"
	"golang.org/x/tools/go/ssa"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/clustertarget"
)

// crossSlotCommands is the crossslot check of multi-key commands: a call of
// the client, or a wrapper's command seen from its call, whose keys are
// proved to be on different slots. (Transactions: transactionslots.go.)
var crossSlotCommands = &unitKind{new: func(p *unitPass) reading.Visitor { return commandSlots{pass: p} }}

type commandSlots struct {
	hooks
	pass *unitPass
}

// splitWrite ends a crossslot message on a write the client splits by slot.
const splitAlways = "; GLIDE's cluster client splits it by slot, so it does not fail but is not atomic"

const splitWrite = "; the client's command-info resolver splits it by slot, so it does not fail but is not atomic"

func (u commandSlots) Command(c *reading.Command) {
	if !c.Multi || c.Channels() {
		return // sharded channels: shardedpubsub.go
	}
	fate := ""
	var fix func(advice) string // the clause, when not the batch's (advice.pairRemedy)
	ring := c.Site != nil && u.pass.TopologyAt(c.Site).Ring
	if ring {
		fate, fix = ringFate(c.Method), advice.ringRemedy
	} else if c.Site != nil {
		fate = c.Site.Fate
		switch c.Split {
		case reading.SplitRead:
			u.pass.coverage.count(false, nil, false, u.pass.cfg.claims(), token.Position{}) // split by slot and merged: fine
			return
		case reading.SplitWrite:
			fate, fix = splitWrite, advice.splitWriteRemedy
		case reading.SplitAlways:
			fate, fix = splitAlways, advice.splitWriteRemedy
		case reading.SplitBarred:
			fix = advice.splitBarredRemedy
		case reading.SplitByProxy:
			fate, fix = fmt.Sprintf("; %s splits it by slot, so it does not fail but is not atomic", u.pass.target.Name()), advice.splitWriteRemedy
		case reading.NotSplit:
			if t := u.pass.target; t.Proxy != "" {
				if u.pass.TopologyAt(c.Site).OneServer {
					fate = "" // a plain client's fate is the proxy's, not a cluster client's
				}
				fate += fmt.Sprintf("; %s splits only %s across slots", t.Name(), strings.Join(clustertarget.ProxySplitNames(), ", "))
			}
		}
	}
	x, found := u.pass.commandCrossing(c.Keys, c.Wrapper != nil)
	if !found {
		x, found = u.pass.worldCrossing(c)
	}
	if found && (c.Split == reading.SplitAlways || c.Split == reading.SplitByProxy) && !(x.kind == pairCrossing && keymodel.ShareAValue(x.d.A, x.d.B)) {
		found = false // different entities' keys, written together without needing one write
	}
	if found {
		setting := x.setting
		if len(x.d.Leading) > 0 && setting == "" {
			var fn *ssa.Function
			if c.Site != nil && c.Site.Call != nil {
				fn = c.Site.Call.Parent()
			}
			setting = u.pass.TaglessSetting(fn, c.Keys) // "unless the prefix holds a hash tag": the wiring says
			if setting == "" {
				setting = u.pass.SetterSetting(fn, c.Keys)
			}
		}
		d := u.pass.crossingDiagnostic(c, x, CategoryCrossSlot, "keys", fate, fix, commandBatch)
		if ring {
			d = onRing(d)
		}
		u.pass.reportOnSetting(setting, d)
	}
	u.pass.coverage.count(false, c.Keys, found, u.pass.cfg.claims(), u.pass.pass.Fset.Position(commandPos(c)))
}

// commandPos is where a command is sent: its call, or the wrapper's call.
func commandPos(c *reading.Command) token.Pos {
	switch {
	case c.Site != nil:
		return c.Site.CallPos().Pos
	case c.Wrapper != nil && c.Wrapper.Call != nil:
		return c.Wrapper.Call.Pos()
	}
	return token.NoPos
}
