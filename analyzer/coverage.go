package analyzer

import (
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"sort"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// Coverage is what the analyzer saw in one package: the multi-key commands
// and transactions, how many it proved on one slot, how many it reported,
// and why the others were left undecided. With Config.Coverage set, each
// package's is appended to that file as one JSON line (every front end runs
// packages apart, go vet in processes of their own); `crossslot coverage
// FILE` sums them.
type Coverage struct {
	Package      string         `json:"package"`
	Commands     int            `json:"commands"`     // multi-key commands, wrapper calls included
	Transactions int            `json:"transactions"` // TxPipelined, TxPipeline, Watch, MULTI/EXEC, DoMulti
	Proved       int            `json:"proved"`       // every key on one slot, for every value
	Reported     int            `json:"reported"`     // crossslot findings
	Undecided    int            `json:"undecided"`
	Reasons      map[string]int `json:"reasons,omitempty"` // why undecided, counted
	// Assumed counts the proved batches whose keys share one hash tag of
	// one value ("acct:{"+id+"}:balance" and ":ledger"): one slot unless
	// that value is empty or starts with '}', which is taken not to be.
	Assumed int `json:"assumed,omitempty"`
	// UndecidedAt is where each undecided batch is, and why.
	UndecidedAt []Site `json:"undecided_at,omitempty"`
	// OutOfSight counts calls through the module's interfaces whose
	// implementation is in a package this one does not import: go vet
	// does not decide them; the standalone command and golangci-lint do,
	// in the main package that wires them.
	OutOfSight int `json:"out_of_sight,omitempty"`
	// SingleNode counts the calls the checks would judge (multi-key
	// commands, transactions, readiness sites) left out because their
	// client talks to one server: what -include-single-node and
	// `crossslot readiness` judge as a cluster's.
	SingleNode int `json:"single_node,omitempty"`
	// Panics counts packages left unchecked after an internal error of the
	// analyzer; Panic is the first one's message.
	Panics int    `json:"panics,omitempty"`
	Panic  string `json:"panic,omitempty"`
	// PanicAt is where it was: the first frames of crossslot's code,
	// innermost first.
	PanicAt []string `json:"panic_at,omitempty"`
	// Exhausted says where the package's reading passed the bound of its
	// work (see budget): what it was reading then; the rest of the package
	// was not read and nothing past that point was reported.
	Exhausted string `json:"exhausted,omitempty"`
	// Readiness counts the call sites of the readiness checks (database,
	// sortpattern, onenode, shardedpubsub) by check.
	Readiness map[string]Tally `json:"readiness,omitempty"`
}

// NotChecked says what a package's panic left: the package not checked,
// the error and where it was raised, for a front end to show.
func NotChecked(pkg, err string, at []string) string {
	text := fmt.Sprintf("package %s is not checked: internal error of crossslot: %s", pkg, err)
	for _, frame := range at {
		text += "\n\tat " + frame
	}
	return text
}

// A Site is where a batch is: its call, or the call that opens its
// transaction; Reason says why it is undecided. Check is the readiness
// check that left it undecided, "" for the crossslot check's batches.
type Site struct {
	Check  string `json:"check,omitempty"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Reason string `json:"reason"`
}

// A Tally counts one readiness check's call sites: fine on a cluster,
// reported, or undecided (an argument the code does not fix, a client that
// may or may not be a cluster's).
type Tally struct {
	Sites     int `json:"sites"`
	Fine      int `json:"fine"`
	Reported  int `json:"reported"`
	Undecided int `json:"undecided"`
}

// Plus is the two tallies summed.
func (t Tally) Plus(o Tally) Tally {
	return Tally{Sites: t.Sites + o.Sites, Fine: t.Fine + o.Fine, Reported: t.Reported + o.Reported, Undecided: t.Undecided + o.Undecided}
}

// tally counts one call site of a readiness check; an undecided one is
// listed at at, with the reason.
func (c *Coverage) tally(check string, reported, undecided bool, at token.Position, reason string) {
	if c.Readiness == nil {
		c.Readiness = map[string]Tally{}
	}
	t := c.Readiness[check]
	t.Sites++
	switch {
	case reported:
		t.Reported++
	case undecided:
		t.Undecided++
		c.UndecidedAt = append(c.UndecidedAt, Site{Check: check, File: at.Filename, Line: at.Line, Column: at.Column, Reason: reason})
	default:
		t.Fine++
	}
	c.Readiness[check] = t
}

// Reasons a batch is left undecided, in messages and reports.
const (
	reasonParameter    = "a key from a parameter (checked at callers)"
	reasonInput        = "a key list from input"
	reasonUnknownPart  = "a key part the analyzer does not follow"
	reasonBrace        = "a value that may hold a brace or make the tag empty"
	reasonOtherValues  = "keys of different unknown values"
	reasonAlternatives = "too many alternatives"
	reasonNearSure     = "near-sure only (proofs-only)"
)

// count records one batch, at at: reported, proved on one slot, or why not.
func (c *Coverage) count(transaction bool, keys []keymodel.Arg, reported bool, claims keymodel.Claims, at token.Position) {
	if transaction {
		c.Transactions++
	} else {
		c.Commands++
	}
	switch {
	case reported:
		c.Reported++
		return
	}
	reason, assumed := undecidedReason(keys, claims)
	if reason == "" {
		c.Proved++
		if assumed {
			c.Assumed++
		}
		return
	}
	c.Undecided++
	if c.Reasons == nil {
		c.Reasons = map[string]int{}
	}
	c.Reasons[reason]++
	c.UndecidedAt = append(c.UndecidedAt, Site{Check: CategoryCrossSlot, File: at.Filename, Line: at.Line, Column: at.Column, Reason: reason})
}

// undecidedReason says why keys are not proved to share a slot, "" when
// they are; assumed says a pair is proved only by taking one tag of one
// value ("{"+id+"}" in both) to be neither empty nor to start with '}'.
func undecidedReason(keys []keymodel.Arg, claims keymodel.Claims) (reason string, assumed bool) {
	reason, assumed = undecidedPairs(keys, claims)
	return reason, assumed && reason == ""
}

func undecidedPairs(keys []keymodel.Arg, claims keymodel.Claims) (string, bool) {
	assumed := false
	proofsOnly := !claims.NearSure
	for _, k := range keys {
		switch {
		case k.Spread > 0:
			return reasonParameter, false
		case k.Unread != "":
			return reasonInput, false
		}
	}
	for j := 1; j < len(keys); j++ {
		for i := range j {
			if keymodel.Unproved(keys[i], keys[j]) == "" {
				continue
			}
			if keymodel.SameTagTemplate(keys[i], keys[j]) {
				assumed = true // one tag of one value: one slot, unless that value is "" or starts with '}'
				continue
			}
			if proofsOnly && allNear(keys[i], keys[j]) {
				return reasonNearSure, false
			}
			return keyReason(keys[i], keys[j]), false
		}
	}
	return "", assumed
}

func allNear(x, y keymodel.Arg) bool {
	for a, b := range keymodel.Pairs(x, y) {
		if keymodel.Relate(a, b) != keymodel.NearSure {
			return false
		}
	}
	return len(x.Alts) > 0 && len(y.Alts) > 0
}

// keyReason classifies an undecided pair by its keys.
func keyReason(x, y keymodel.Arg) string {
	for _, k := range []keymodel.Arg{x, y} {
		for _, alt := range k.Alts {
			for _, p := range alt {
				if p.ID == "too-many" || strings.HasSuffix(p.ID, "/too-many") {
					return reasonAlternatives
				}
			}
			if alt.FromParams() {
				return reasonParameter
			}
		}
	}
	for _, k := range []keymodel.Arg{x, y} {
		for _, alt := range k.Alts {
			if _, ok := alt.Hashed(); !ok {
				return reasonBrace
			}
		}
	}
	for _, k := range []keymodel.Arg{x, y} {
		for _, alt := range k.Alts {
			for _, p := range alt {
				if p.Unknown && p.Show == "…" {
					return reasonUnknownPart
				}
			}
		}
	}
	return reasonOtherValues
}

// appendTo appends the coverage to the file as a JSON line.
func (c Coverage) appendTo(file string) error { return appendJSONLine(file, c) }

// appendJSONLine appends v to the file as one JSON line: the coverage and
// inventory files, which every package's analysis appends to.
func appendJSONLine(file string, v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n')) // one write: lines of parallel processes do not mix
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SumCoverage reads a coverage file and sums it by package (a package
// analyzed twice, as go vet does for its tests, counts once, its largest)
// and in total.
func SumCoverage(data []byte) (byPackage []Coverage, total Coverage, err error) {
	seen := map[string]Coverage{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var c Coverage
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			return nil, Coverage{}, err
		}
		if prev, ok := seen[c.Package]; ok {
			if prev.Commands+prev.Transactions+prev.readinessSites() >= c.Commands+c.Transactions+c.readinessSites() {
				c, prev = prev, c // keep the larger analysis
			}
			if c.Panics == 0 {
				c.Panics, c.Panic, c.PanicAt = prev.Panics, prev.Panic, prev.PanicAt // and that the other failed
			}
			if c.Exhausted == "" {
				c.Exhausted = prev.Exhausted
			}
		}
		seen[c.Package] = c
	}
	total.Package = "total"
	total.Reasons = map[string]int{}
	for _, c := range seen {
		byPackage = append(byPackage, c)
		total.Commands += c.Commands
		total.Transactions += c.Transactions
		total.Proved += c.Proved
		total.Reported += c.Reported
		total.Undecided += c.Undecided
		total.Panics += c.Panics
		total.OutOfSight += c.OutOfSight
		total.SingleNode += c.SingleNode
		total.Assumed += c.Assumed
		total.UndecidedAt = append(total.UndecidedAt, c.UndecidedAt...)
		for r, n := range c.Reasons {
			total.Reasons[r] += n
		}
		for check, t := range c.Readiness {
			if total.Readiness == nil {
				total.Readiness = map[string]Tally{}
			}
			total.Readiness[check] = total.Readiness[check].Plus(t)
		}
	}
	sort.Slice(byPackage, func(i, j int) bool { return byPackage[i].Package < byPackage[j].Package })
	return byPackage, total, nil
}

func (c Coverage) readinessSites() int {
	n := 0
	for _, t := range c.Readiness {
		n += t.Sites
	}
	return n
}
