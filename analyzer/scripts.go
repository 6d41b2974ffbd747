package analyzer

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// Scripts: the Lua that Go code sends is read (internal/luascript) and
// checked against the keys the Go call declares. On a cluster the script
// runs on the node of its declared keys; a key it touches that lives on
// another node fails with "ERR Script attempted to access a non local key in
// a cluster node", whether the script builds it from KEYS (derived), writes
// it as a literal, or takes it from ARGV (undeclared).

// scriptKeys is the scriptslot, undeclaredkey and missingkey checks.
var scriptKeys = &unitKind{new: func(p *unitPass) reading.Visitor { return scripts{pass: p} }}

type scripts struct {
	hooks
	pass *unitPass
}

func (u scripts) Command(c *reading.Command) {
	switch {
	case c.Wrapper != nil && len(c.Script) > 0:
		u.judgeAtCall(c)
	case c.Site != nil && c.Multi && c.Split != reading.SplitRead:
		u.checkScript(c.Site, c.Keys)
	}
}

// checkScript reads a script call's Lua and reports the keys it touches
// that are not its declared keys' slot, the KEYS it reads that the call does
// not pass, and keys it neither declares nor provably shares a slot with.
func (u scripts) checkScript(site *clients.Site, declared []keymodel.Arg) {
	src, script, ok := u.pass.ReadScript(site)
	if !ok {
		return
	}
	passed := len(declared)
	for _, k := range declared {
		if k.Unread != "" || k.Spread > 0 || len(k.Alts) == 0 {
			passed = -1 // how many keys is not known
		}
	}
	for _, r := range script.KeyReads {
		if passed >= 0 && r.N > passed {
			u.pass.reportInScript(src, r.Line, fmt.Sprintf("KEYS[%d]", r.N), site, CategoryMissingKey,
				fmt.Sprintf("%s script reads KEYS[%d], but the call passes %s: it gets nil; pass the key in the call's keys", site.Method, r.N, plural(passed, "key")))
			break
		}
	}
	if script.HasFlag("allow-cross-slot-keys") {
		return // the script vouches that its keys are on one node
	}
	// Declared keys that come from the function's parameters are the
	// callers' to fix: an undeclared key built from the parameters too that
	// is not proved on their slot is judged at each call (the function's
	// summary carries it, scriptKeysOf).
	deferred := keymodel.AnyFromParams(declared)
	for _, k := range u.pass.TouchedKeys(site, script, declared) {
		category, msg := u.judge(site.Method, k, declared, "")
		if category == "" || category == CategoryUndeclaredKey && deferred && k.Key.FromParams() {
			continue
		}
		u.pass.reportInScript(src, k.Line, "", site, category, msg)
		return
	}
}

// judgeAtCall reports, at a call of a wrapper, the first key its script
// touches that is on another slot than the declared keys the call passes
// (scriptslot), or, once the call fixes them, not proved on theirs
// (undeclaredkey).
func (u scripts) judgeAtCall(c *reading.Command) {
	at := c.Keys[0].At
	for _, k := range c.Keys {
		if k.ViaCall {
			at = k.At
		}
	}
	in := fmt.Sprintf(" in %s (%s)", c.Wrapper.Name, c.Wrapper.Where)
	fromParams := keymodel.AnyFromParams(c.Keys)
	for _, k := range c.Script {
		category, msg := u.judge(c.Method, k, c.Keys, in)
		if category == "" || category == CategoryUndeclaredKey && (fromParams || k.Key.FromParams()) {
			continue // on their slot, or still the callers' to decide
		}
		u.pass.report(analysis.Diagnostic{Pos: at.Pos, End: at.End, Category: category, Message: msg})
		return
	}
}

// judge judges one key a script touches against its declared keys:
// proved on another slot than one of them (scriptslot), proved on theirs
// (no category), or neither (undeclaredkey). in names the wrapper the script
// runs in, for reports at its calls.
func (u scripts) judge(method string, k reading.ScriptKey, declared []keymodel.Arg, in string) (category, message string) {
	// The declared keys share one slot, or the call fails with CROSSSLOT
	// anyway: a key on the slot of any of them is on theirs.
	onTheirSlot := false
	for _, d := range declared {
		if diff, ok := u.pass.Differ(d, k.Key); ok {
			return CategoryScriptSlot, fmt.Sprintf(
				"%s script's %s key %s and the declared key %s are on different hash slots%s%s; on a cluster the script fails where they are on different nodes (non local key); %s",
				method, k.Command, diff.Show(false, ""), diff.Show(true, ""), diff.How(), in, adviceFor(diff.A, diff.B, nil, commandBatch, "EVAL").scriptRemedy())
		}
		onTheirSlot = onTheirSlot || keymodel.Unproved(d, k.Key) == "" || keymodel.SameTagTemplate(d, k.Key) || keymodel.SameAssumingNoBrace(d, k.Key)
	}
	if onTheirSlot {
		return "", ""
	}
	if k.FromData != "" {
		return CategoryUndeclaredKey, fmt.Sprintf(
			"%s script's %s key %s is read from data (%s) and not declared in KEYS%s; Redis requires scripts to declare their keys, and on a cluster the script fails where it is on another node (non local key); %s",
			method, k.Command, k.Lua, k.FromData, in, undeclaredRemedy)
	}
	return CategoryUndeclaredKey, fmt.Sprintf(
		"%s script's %s key %s is not declared in KEYS and not proved to be on the declared keys' slot%s; Redis requires scripts to declare their keys, and on a cluster the script fails where it is on another node (non local key); %s",
		method, k.Command, k.Lua, in, undeclaredRemedy)
}

// undeclaredRemedy ends an undeclaredkey finding.
const undeclaredRemedy = "pass the key in KEYS, with the declared keys' hash tag"

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
