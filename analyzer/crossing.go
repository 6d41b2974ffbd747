package analyzer

import (
	"fmt"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"golang.org/x/tools/go/analysis"
)

// The checks of a batch's slots (crossslot, shardedpubsub, unprovable)
// share one judgement of its keys: the first reason they cross slots.

// A crossing is the first reason a command's keys are on different slots:
// two of its keys (other the earlier, at the later), a key built per
// element of an input in a loop (family), or a key left "" on some path
// beside another (zero).
type crossing struct {
	kind       crossingKind
	at, other  keymodel.Arg
	otherFirst bool // other comes before at in the command
	d          keymodel.Difference
	world      string // the world the keys are read in (see eval.World), "" for all
	setting    string // the option that world holds at its default, when code out of sight may set it
}

type crossingKind int

const (
	pairCrossing crossingKind = iota
	familyCrossing
	zeroCrossing
)

// commandCrossing judges one command's keys. Through a wrapper, only pairs
// with a key from the caller's arguments count (the wrapper's own keys are
// judged in the wrapper), and the crossing is at such a key.
func (p *unitPass) commandCrossing(keys []keymodel.Arg, throughWrapper bool) (crossing, bool) {
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if throughWrapper && !keys[i].ViaCall && !keys[j].ViaCall {
				continue
			}
			d, ok := p.Differ(keys[i], keys[j])
			if !ok {
				continue
			}
			c := crossing{kind: pairCrossing, at: keys[j], other: keys[i], otherFirst: true, d: d}
			if throughWrapper && !c.at.ViaCall {
				c.at, c.other, c.otherFirst = keys[i], keys[j], false
			}
			return c, true
		}
	}
	for _, k := range keys {
		if k.Family == "" || throughWrapper && !k.ViaCall {
			continue
		}
		if d, ok := p.Differ(k, k.OtherElement()); ok {
			return crossing{kind: familyCrossing, at: k, d: d}, true
		}
	}
	if zero, other, d, ok := keymodel.ZeroOnPathPair(keys, p.cfg.claims()); ok {
		return crossing{kind: zeroCrossing, at: zero, other: other, d: d}, true
	}
	return crossing{}, false
}

// inWorld is the clause that says in which world the keys cross slots.
func (x crossing) inWorld() string {
	if x.world == "" {
		return ""
	}
	return ", " + x.world
}

// worldCrossing judges a command's keys in each world that decides them
// (see reading.Command.Worlds), when they do not cross slots read in all
// worlds at once.
func (p *unitPass) worldCrossing(c *reading.Command) (crossing, bool) {
	for _, w := range c.Worlds {
		if x, ok := p.commandCrossing(w.Keys, c.Wrapper != nil); ok {
			x.world, x.setting = w.Name, w.Setting
			return x, true
		}
	}
	return crossing{}, false
}

// A transactionCrossing is the first reason a transaction's commands'
// keys are on different slots: two keys of different commands (earlier of
// command i, later of command j), or a loop that queues a command per
// element of an input.
type transactionCrossing struct {
	loop           bool
	i, j           int
	earlier, later keymodel.Arg
	d              keymodel.Difference
}

// transactionCrossing judges a transaction's commands, comparing command
// j's keys with those of each earlier command i that compared(i, j) admits,
// in the order the later key is queued; then (when loops is set) a key
// queued in a loop over an input against every key built from an element.
func (p *unitPass) transactionCrossing(cmds []keymodel.QueuedCommand, compared func(i, j int) bool, loops bool) (transactionCrossing, bool) {
	for j := 1; j < len(cmds); j++ {
		for _, kj := range cmds[j].Keys {
			for i := range j {
				if !compared(i, j) {
					continue
				}
				for _, ki := range cmds[i].Keys {
					if d, ok := p.Differ(ki, kj); ok {
						return transactionCrossing{i: i, j: j, earlier: ki, later: kj, d: d}, true
					}
				}
			}
		}
	}
	if !loops {
		return transactionCrossing{}, false
	}
	for j, cj := range cmds {
		for _, kj := range cj.Keys {
			if !kj.HasElement() {
				continue
			}
			for i, ci := range cmds {
				for _, ki := range ci.Keys {
					if !ki.HasElement() || !compared(i, j) {
						continue
					}
					if d, ok := p.Differ(ki, kj.OtherElement()); ok {
						return transactionCrossing{loop: true, i: i, j: j, earlier: ki, later: kj, d: d}, true
					}
				}
			}
		}
	}
	return transactionCrossing{}, false
}

// crossingDiagnostic reports a command's crossing (see commandCrossing) as
// check category, its keys called noun, fate ending the message before the
// remedy (remedy.go), which is the batch's unless fix is given.
func (p *unitPass) crossingDiagnostic(c *reading.Command, x crossing, category, noun, fate string, fix func(advice) string, batch batchKind) analysis.Diagnostic {
	var in string
	if c.Wrapper != nil {
		in = fmt.Sprintf(" in %s (%s)", c.Wrapper.Name, c.Wrapper.Where)
	}
	command := c.Name() // a raw command's name, not "Do", decides the remedy
	keys := meeting(c.Keys, x.at)
	v := adviceFor(x.d.A, x.d.B, firstAlternatives(keys), batch, command)
	remedy := func(r string) string {
		if fix != nil {
			r = fix(v)
		}
		return "; " + r
	}
	switch x.kind {
	case familyCrossing:
		return analysis.Diagnostic{Pos: x.at.At.Pos, End: x.at.At.End, Category: category,
			Message: fmt.Sprintf("%s %s %s for two different %s are on different hash slots%s%s%s%s",
				c.Method, noun, x.d.A.Quoted(), x.at.Family, x.d.ForPairs()+x.inWorld(), fate, in, remedy(familyRemedy(batch, command)))}
	case zeroCrossing:
		return analysis.Diagnostic{Pos: x.at.At.Pos, End: x.at.At.End, Category: category,
			Message: fmt.Sprintf("%s %s %s and \"\" (%s on the paths that leave it unassigned) are on different hash slots%s%s%s",
				c.Method, noun, x.d.Show(true, ""), x.at.ZeroOnPath, x.d.How(), fate, remedy(zeroRemedy(x.at.ZeroOnPath))),
			Related: []analysis.RelatedInformation{{
				Pos: x.other.At.Pos, End: x.other.At.End,
				Message: "key " + x.other.Alts[0].Quoted() + x.d.SlotOf(true),
			}}}
	}
	d := analysis.Diagnostic{Pos: x.at.At.Pos, End: x.at.At.End, Category: category,
		Message: fmt.Sprintf("%s %s %s and %s are on different hash slots%s%s%s%s", c.Method, noun, x.d.Show(true, ""), x.d.Show(false, ""), x.d.How()+x.inWorld(), fate, in, remedy(v.pairRemedy())),
	}
	if x.other.At.Pos.IsValid() { // a key of a slice filled elsewhere has no position of its own
		d.Related = []analysis.RelatedInformation{{
			Pos: x.other.At.Pos, End: x.other.At.End,
			Message: "key " + x.other.Alts[0].Quoted() + x.d.SlotOf(x.otherFirst),
		}}
	}
	if c.Wrapper != nil {
		if c.Wrapper.Pos.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{
				Pos: c.Wrapper.Pos, End: c.Wrapper.Pos,
				Message: fmt.Sprintf("%s runs %s here", c.Wrapper.Name, c.Method),
			})
		}
	} else {
		if d.SuggestedFixes = coLocateFix(keys, p.source.Literals); d.SuggestedFixes == nil {
			d.SuggestedFixes = templateFix(keys, p.source, p.pass.TypesInfo, p.keyBuilders())
		}
	}
	return d
}

// meeting is the keys that may be in one command with k: of its list,
// when the command runs with one of several (see keymodel.Arg.Apart).
func meeting(keys []keymodel.Arg, k keymodel.Arg) []keymodel.Arg {
	var out []keymodel.Arg
	for _, o := range keys {
		if o.Meets(k) {
			out = append(out, o)
		}
	}
	return out
}

// keysOfBatch is every key of a transaction's commands.
func keysOfBatch(cmds []keymodel.QueuedCommand) []keymodel.Arg {
	var all []keymodel.Arg
	for _, c := range cmds {
		all = append(all, c.Keys...)
	}
	return all
}
