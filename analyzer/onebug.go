package analyzer

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// One bug is one finding. The checks judge events (a command, a key of it,
// a transaction), and one bug may show in several: a WATCH of keys on two
// slots is also a Watch callback whose commands leave the watched slot and
// a TxPipelined inside it that crosses; a SUNIONSTORE across slots queued
// in a transaction is also that transaction's crossing; two keys of one
// MGET built by one template share its empty tag; SORT's BY and GET read
// keys off one sorted key. Each would be a finding of its own, and the
// user would fix one thing. So a package's findings are held until its
// checks are done, and the findings of one check that concern one event's
// keys (they share a key argument, in one function and its closures),
// stand at one position, or are about one built key's text (a malformed
// key built once and sent by two commands), are one: the one a user fixes first is reported,
// and the others become its related positions.

// A bugRank orders the findings of one bug: the lowest is reported.
type bugRank int

const (
	rankCommand     bugRank = iota // a command's own keys: the place to fix
	rankWatch                      // a Watch callback's command off the watched slot
	rankTransaction                // a transaction's commands among themselves
)

// A bugMerger holds a package's findings and reports one per bug (see
// above). The units say what the finding being reported concerns (about);
// findings reported without it stand alone.
type bugMerger struct {
	report func(analysis.Diagnostic)
	files  []*ast.File
	closed bool
	// deferral is the layer under the merger, which defers a finding on a
	// client the wiring decides: each finding is handed to it with the
	// client and setting it was made with.
	deferral *deferral
	// concerns are the key arguments of the event being judged, rank its
	// kind: set while the units judge it.
	concerns []token.Pos
	rank     bugRank
	// key is the key a Key event's findings are about, as text: a key
	// malformed once and sent by two commands of a function is one bug.
	key  string
	held []heldFinding
}

type heldFinding struct {
	d        analysis.Diagnostic
	concerns []token.Pos
	key      string
	rank     bugRank
	wired    reading.Wiring
	setting  string
}

// install puts the merger over the deferral, which gets one finding per
// bug, and under the directives, which see each finding as the checks
// made it.
func (m *bugMerger) install(pass *analysis.Pass, under *deferral) {
	m.report, m.files, m.deferral = pass.Report, pass.Files, under
	pass.Report = func(d analysis.Diagnostic) {
		if m.closed || d.Category == CategoryRecord {
			m.report(d)
			return
		}
		h := heldFinding{d: d, concerns: m.concerns, rank: m.rank, key: m.key}
		if m.deferral != nil {
			h.wired, h.setting = m.deferral.current, m.deferral.setting
		}
		m.held = append(m.held, h)
	}
}

// close reports what is held, and lets later findings pass straight
// through.
func (m *bugMerger) close() {
	m.flush()
	m.closed = true
}

// about runs judge with the event's key arguments and rank as what its
// findings concern.
func (m *bugMerger) about(keys []keymodel.Arg, rank bugRank, judge func()) {
	if m == nil {
		judge()
		return
	}
	prev, prevRank := m.concerns, m.rank
	m.concerns, m.rank = keyPositions(keys), rank
	defer func() { m.concerns, m.rank = prev, prevRank }()
	judge()
}

func keyPositions(keys []keymodel.Arg) []token.Pos {
	var out []token.Pos
	for _, k := range keys {
		if k.At.Pos.IsValid() {
			out = append(out, k.At.Pos)
		}
	}
	return out
}

// watchedAndQueuedKeys are every key a transaction's findings concern: the
// watched keys and its commands'.
func watchedAndQueuedKeys(watched []keymodel.Arg, cmds []keymodel.QueuedCommand) []keymodel.Arg {
	return append(slices.Clone(watched), keysOfCommands(cmds)...)
}

// flush reports one finding per bug of those held, in the order the first
// of each was made. Findings are taken by rank, then position: one that
// shares its position or a key argument with a bug already found (of its
// check, in its function) joins it, the bug holding its position first;
// any other starts a bug. So a transaction's crossing joins the crossing
// command it holds, not every command it holds: two commands on two slots
// each are two bugs.
func (m *bugMerger) flush() {
	type spot struct {
		category string
		scope    token.Pos // the function declaration holding the finding
		pos      token.Pos
		key      string
	}
	order := make([]int, len(m.held))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if ra, rb := m.held[a].rank, m.held[b].rank; ra != rb {
			return int(ra - rb)
		}
		return int(m.held[a].d.Pos - m.held[b].d.Pos)
	})
	bugOf := map[spot]int{} // a spot's bug: the index of its first finding
	members := map[int][]int{}
	for _, i := range order {
		h := m.held[i]
		scope, category := m.scopeOf(h.d.Pos), bugFamily(h.d.Category)
		spots := []spot{{category, scope, h.d.Pos, ""}}
		switch {
		case !scope.IsValid():
			// a script's line: findings there are one bug, whatever call
			// runs the script, but two lines of one script are two
		case h.d.Category == CategoryHotTag:
			// its advice is each command's: see hottags.go
		default:
			for _, p := range h.concerns {
				spots = append(spots, spot{category, scope, p, ""})
			}
			if h.key != "" {
				spots = append(spots, spot{category, scope, token.NoPos, h.key})
			}
		}
		bug := i
		for _, s := range spots {
			if b, ok := bugOf[s]; ok {
				bug = b
				break
			}
		}
		for _, s := range spots {
			if _, ok := bugOf[s]; !ok {
				bugOf[s] = bug
			}
		}
		members[bug] = append(members[bug], i)
	}
	for i := range m.held {
		group, ok := members[i]
		if !ok {
			continue // joined another bug
		}
		first := m.held[group[0]]
		kept := first.d
		seen := map[token.Pos]bool{kept.Pos: true}
		for _, r := range kept.Related {
			seen[r.Pos] = true
		}
		for _, j := range group[1:] {
			d := m.held[j].d
			kept.Related = append(kept.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: "the same bug: " + predicate(d.Message)})
			seen[d.Pos] = true
			for _, r := range d.Related { // where else it runs: another call of the script
				if !seen[r.Pos] {
					seen[r.Pos] = true
					kept.Related = append(kept.Related, r)
				}
			}
		}
		m.handOn(first, kept)
	}
	m.held = nil
}

// handOn reports a finding to the deferral with the client and setting it
// was made with.
func (m *bugMerger) handOn(h heldFinding, d analysis.Diagnostic) {
	if m.deferral == nil {
		m.report(d)
		return
	}
	wired, setting := m.deferral.current, m.deferral.setting
	m.deferral.current, m.deferral.setting = h.wired, h.setting
	defer func() { m.deferral.current, m.deferral.setting = wired, setting }()
	m.report(d)
}

// bugFamily is the checks whose findings at one place are one bug: a
// script's key reported as on another slot than the declared keys by one
// call and as undeclared by another.
func bugFamily(category string) string {
	switch category {
	case CategoryScriptSlot, CategoryUndeclaredKey, CategoryMissingKey:
		return "script"
	}
	return category
}

// predicate is a finding's message without its fix: what it says is wrong.
func predicate(message string) string {
	p, _, _ := strings.Cut(message, "; ")
	return p
}

// scopeOf is the start of the function declaration holding pos, which
// holds its closures too (a Watch's callback); NoPos outside any (a
// script's text in a package variable, an embedded Lua file).
func (m *bugMerger) scopeOf(pos token.Pos) token.Pos {
	for _, f := range m.files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
				return fd.Pos()
			}
		}
	}
	return token.NoPos
}

// concerning tells the merger what each event's findings concern, for every
// unit of the run.
type concerning struct {
	reading.Visitor
	m *bugMerger
}

func (v concerning) Key(c *reading.Command, k keymodel.Arg) {
	var text []string
	built := false // of values: from one builder, not literals written twice
	for _, alt := range k.Alts {
		text = append(text, alt.Quoted())
		built = built || slices.ContainsFunc(alt, func(p keymodel.Part) bool { return p.Unknown })
	}
	prev := v.m.key
	v.m.key = ""
	if built {
		v.m.key = strings.Join(text, " or ")
	}
	defer func() { v.m.key = prev }()
	v.m.about(c.Keys, rankCommand, func() { v.Visitor.Key(c, k) })
}

func (v concerning) Command(c *reading.Command) {
	v.m.about(c.Keys, rankCommand, func() { v.Visitor.Command(c) })
}

func (v concerning) Transaction(t *reading.Transaction) {
	rank := rankTransaction
	if t.Watch {
		rank = rankWatch
	}
	v.m.about(watchedAndQueuedKeys(t.Watched, t.Commands), rank, func() { v.Visitor.Transaction(t) })
}

// flushAfterPanic reports what the package's checks found before a panic,
// unless reporting it panics too.
func (m *bugMerger) flushAfterPanic() {
	if m.report == nil || m.closed {
		return
	}
	defer func() { _ = recover() }()
	m.close()
}
