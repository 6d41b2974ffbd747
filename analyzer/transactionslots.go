package analyzer

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// crossSlotTransactions is the crossslot check of transactions: two keys
// of different commands of one MULTI/EXEC (TxPipelined, TxPipeline, redigo's
// MULTI ... EXEC, rueidis's DoMulti) proved to be on different slots,
// reported at the later one; and a Watch callback's command with a key on
// another slot than a watched key. (What a transaction is: the reading's
// transactions.go.)
var crossSlotTransactions = &unitKind{new: func(p *unitPass) reading.Visitor { return transactionSlots{pass: p} }}

type transactionSlots struct {
	hooks
	pass *unitPass
}

func (u transactionSlots) Transaction(t *reading.Transaction) {
	if t.Ring {
		t.Fate = ringTransactionFate
		if t.Watch {
			t.Fate = ringWatchFate
		}
	}
	report := u.pass.reportOnSetting
	if t.Ring {
		report = func(setting string, d analysis.Diagnostic) { u.pass.reportOnSetting(setting, onRing(d)) }
	}
	if t.Via != "" {
		t.Fate = "in " + t.Via + ", " + t.Fate // a helper's transaction, with this call's keys
	}
	if t.Watch {
		u.watch(t, report)
		return
	}
	x, found := u.pass.transactionCrossing(t.Commands, t.InOne, true)
	world, setting := "", ""
	for _, name := range keymodel.WorldNames(t.Commands) {
		if found {
			break
		}
		if x, found = u.pass.transactionCrossing(keymodel.InWorld(t.Commands, name), t.InOne, true); found {
			world, setting = ", "+name, keymodel.WorldSetting(t.Commands, name)
		}
	}
	if found && setting == "" && len(x.d.Leading) > 0 {
		setting = u.pass.TaglessSetting(nil, keysOfCommands(t.Commands))
	}
	switch {
	case found && x.loop:
		report(setting, analysis.Diagnostic{
			Pos: x.later.At.Pos, End: x.later.At.End, Category: CategoryCrossSlot, Related: opensHere(t),
			Message: fmt.Sprintf("%s keys %s and %s for two different elements of a loop are on different hash slots%s; %s; %s",
				t.Name, x.d.Show(true, t.Commands[x.i].Method), x.d.Show(false, t.Commands[x.j].Method), x.d.ForPairs()+world, t.Fate, familyRemedy(transactionBatch, "")),
		})
	case found:
		report(setting, analysis.Diagnostic{
			Pos: x.later.At.Pos, End: x.later.At.End, Category: CategoryCrossSlot,
			Message: fmt.Sprintf("%s keys %s and %s are on different hash slots%s; %s; %s",
				t.Name, x.d.Show(true, t.Commands[x.i].Method), x.d.Show(false, t.Commands[x.j].Method), x.d.How()+world, t.Fate, adviceFor(x.d.A, x.d.B, transactionKeys(t.Commands), transactionBatch, "").pairRemedy()),
			Related: append([]analysis.RelatedInformation{{
				Pos: x.earlier.At.Pos, End: x.earlier.At.End,
				Message: fmt.Sprintf("%s key %s%s", t.Commands[x.i].Method, x.earlier.Alts[0].Quoted(), x.d.SlotOf(true)),
			}}, opensHere(t)...),
		})
	}
	switch {
	case found:
		u.pass.coverage.count(true, nil, true, u.pass.cfg.claims(), token.Position{})
	case len(t.Commands) > 0: // nothing queued is no batch
		u.pass.coverage.count(true, keysOfBatch(t.Commands), false, u.pass.cfg.claims(), u.pass.pass.Fset.Position(t.At.Pos))
	}
}

// watch reports the first command of a Watch callback with a key proved to
// be on another slot than a watched key. The commands among themselves are
// their transactions' (TxPipelined inside the callback).
func (u transactionSlots) watch(t *reading.Transaction, report func(string, analysis.Diagnostic)) {
	all := append([]keymodel.QueuedCommand{{Method: "WATCH", Keys: t.Watched}}, t.Commands...)
	watched := func(i, _ int) bool { return i == 0 }
	x, found := u.pass.transactionCrossing(all, watched, false)
	world, setting := "", ""
	for _, name := range keymodel.WorldNames(all) {
		if found {
			break
		}
		if x, found = u.pass.transactionCrossing(keymodel.InWorld(all, name), watched, false); found {
			world, setting = ", "+name, keymodel.WorldSetting(all, name)
		}
	}
	if !found {
		return
	}
	remedy := adviceFor(x.d.A, x.d.B, transactionKeys(all), transactionBatch, "WATCH").watchRemedy(t.Batch)
	report(setting, analysis.Diagnostic{
		Pos: x.later.At.Pos, End: x.later.At.End, Category: CategoryCrossSlot,
		Message: fmt.Sprintf("Watch keys %s and %s key %s are on different hash slots%s; %s; %s",
			x.d.Show(true, ""), all[x.j].Method, x.d.Show(false, ""), x.d.How()+world, t.Fate, remedy),
		Related: append([]analysis.RelatedInformation{{
			Pos: x.earlier.At.Pos, End: x.earlier.At.End, Message: "watched key " + x.earlier.Alts[0].Quoted() + x.d.SlotOf(true),
		}}, opensHere(t)...),
	})
}

// opensHere is the related position of the call that opens a transaction,
// where a reader looks first (and may put a //crossslot:ignore).
func opensHere(t *reading.Transaction) []analysis.RelatedInformation {
	if !t.At.Pos.IsValid() {
		return nil
	}
	if t.Via != "" {
		return []analysis.RelatedInformation{{Pos: t.At.Pos, End: t.At.End, Message: t.Via + " runs the " + t.Name + " here"}}
	}
	return []analysis.RelatedInformation{{Pos: t.At.Pos, End: t.At.End, Message: t.Name + " opens the transaction here"}}
}

// transactionKeys are the first alternatives of a transaction's keys, the
// batch a crossing's advice weighs.
func transactionKeys(cmds []keymodel.QueuedCommand) []keymodel.Key {
	return firstAlternatives(keysOfCommands(cmds))
}

// keysOfCommands are the keys of a transaction's commands, in order.
func keysOfCommands(cmds []keymodel.QueuedCommand) []keymodel.Arg {
	var out []keymodel.Arg
	for _, c := range cmds {
		out = append(out, c.Keys...)
	}
	return out
}
