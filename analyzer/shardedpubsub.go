package analyzer

import (
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// shardedChannels is the shardedpubsub check: sharded pub/sub channels
// hash like keys, and one SSUBSCRIBE or SUNSUBSCRIBE of channels on
// different slots fails with CROSSSLOT.
var shardedChannels = &unitKind{new: func(p *unitPass) reading.Visitor { return shardedPubSub{pass: p} }}

type shardedPubSub struct {
	hooks
	pass *unitPass
}

func (u shardedPubSub) Command(c *reading.Command) {
	if !c.Multi || !c.Channels() {
		return
	}
	fate := ""
	if c.Site != nil {
		fate = c.Site.Fate
	}
	x, found := u.pass.commandCrossing(c.Keys, c.Wrapper != nil)
	if found {
		u.pass.report(u.pass.crossingDiagnostic(c, x, CategoryShardedPubSub, "channels", fate, nil, channelBatch))
	}
	reason, _ := undecidedReason(c.Keys, u.pass.cfg.claims())
	u.pass.coverage.tally(CategoryShardedPubSub, found, !found && reason != "", u.pass.pass.Fset.Position(commandPos(c)), reason)
}
