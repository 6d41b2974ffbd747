package analyzer

import (
	"slices"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// Every finding ends with what to do about it, after "; ", in a short
// clause worded for its check and for the shape of its keys; `crossslot
// -explain CHECK` says more. The clauses of the checks of a batch's slots
// are chosen here, from the two keys that cross and the batch they are in.
//
// A clause never tells keys of two entities (two users' sets, two days'
// counters) to share one hash tag: the only tag two values of one family
// could share is a constant one, which puts every entity of the family on
// one slot, the hot slot the hottag check reports. Such keys are split by
// slot where the command allows it, their work is done in the client, or
// they are tagged with an entity they both belong to (a group, a room).

// A batchKind names what a batch is, for the clause that splits it.
type batchKind int

const (
	commandBatch     batchKind = iota // one multi-key command
	transactionBatch                  // one MULTI/EXEC
	channelBatch                      // one SSUBSCRIBE or SUNSUBSCRIBE
)

// splitting is how a batch of keys on several slots is split.
var splitting = map[batchKind]string{
	commandBatch:     "send one call per slot",
	transactionBatch: "run one transaction per slot",
	channelBatch:     "subscribe once per slot",
}

// independentKeys are the commands whose keys do not depend on each other:
// one call per slot does what the one call did (go-redis's cluster client
// splits some of them itself). Any other command (RENAME, SUNIONSTORE, a
// script) needs its keys on one slot.
var independentKeys = map[string]bool{"MGET": true, "MSET": true, "DEL": true, "UNLINK": true, "EXISTS": true, "TOUCH": true}

// splittable reports whether a batch can be split by slot.
func splittable(batch batchKind, method string) bool {
	return batch != commandBatch || independentKeys[strings.ToUpper(method)]
}

// A pairing is how two keys that cross slots stand to each other as
// entities, which decides whether one hash tag can bring them together
// without a hot slot.
type pairing int

const (
	// sameValues: both hold values, and one holds every value of the
	// other ("order:<id>:items", "order:<id>:total"): a tag of a value
	// they share co-locates them, one entity per slot.
	sameValues pairing = iota
	// constantKeys: neither holds a value ("report:today",
	// "report:yesterday"): a constant tag co-locates just these keys.
	constantKeys
	// twoEntities: each holds a value the other does not ("friends:<a>",
	// "friends:<b>"), or both are constant ids of one family
	// ("shop:stock:1", "shop:stock:2"): they could share only a constant
	// tag, or a tag of an entity both belong to.
	twoEntities
	// entityAndAll: one key per entity beside a constant key ("hot:cat:<c>"
	// beside "hot:global"): the only tag they could share is a constant one.
	entityAndAll
)

// apart reports a pairing whose keys may not be told to share a tag.
func (p pairing) apart() bool { return p == twoEntities || p == entityAndAll }

// pairingOf is how two keys stand to each other as entities.
func pairingOf(a, b keymodel.Key) pairing {
	va, vb := holdsValues(a), holdsValues(b)
	switch {
	case !va && !vb:
		if familyIDs(a, b) {
			return twoEntities
		}
		return constantKeys
	case !va || !vb:
		return entityAndAll
	}
	onlyA, onlyB, shared := keymodel.ValuesApart(a, b)
	switch {
	case len(onlyA) > 0 && len(onlyB) > 0:
		return twoEntities
	case len(onlyA)+len(onlyB) > 0 && !slices.ContainsFunc(shared, func(p keymodel.Part) bool { return !leads(a, p) || !leads(b, p) }):
		// They share only the value both start with, a namespace
		// ("<prefix>:cert:<id>" beside "<prefix>:revoked"): a key per
		// entity beside a key of all of them.
		return entityAndAll
	}
	return sameValues
}

// leads reports a key that starts with the value p.
func leads(k keymodel.Key, p keymodel.Part) bool {
	return len(k) > 0 && keymodel.OneValue(k[0], p)
}

// holdsValues: the key has a part the code does not fix.
func holdsValues(k keymodel.Key) bool {
	return slices.ContainsFunc(k, func(p keymodel.Part) bool { return p.Unknown })
}

// batchPairing is the pairing of the keys a and b that cross, within the
// batch of keys they are in: keys that may share a tag by themselves may
// not when another key of the batch is apart from one of them (the
// destination "mutual:<a>" and "friends:<a>" of an SINTERSTORE that also
// reads "friends:<b>"). keys are each key's first alternative.
func batchPairing(a, b keymodel.Key, keys []keymodel.Key) pairing {
	p := pairingOf(a, b)
	for j := range keys {
		for i := range j {
			if q := pairingOf(keys[i], keys[j]); q.apart() && (!p.apart() || q == twoEntities) {
				p = q
			}
		}
	}
	return p
}

// firstAlternatives are the keys' first alternatives, the ones messages show.
func firstAlternatives(args []keymodel.Arg) []keymodel.Key {
	var out []keymodel.Key
	for _, k := range args {
		if len(k.Alts) > 0 {
			out = append(out, k.Alts[0])
		}
	}
	return out
}

// An advice is what a finding over two keys that cross says to do: the
// keys, how they pair within their batch, the batch and its command.
type advice struct {
	a, b    keymodel.Key
	pairing pairing
	batch   batchKind
	method  string // the command's name, as the client calls it
}

// adviceFor is the advice for keys a and b of a batch of keys (each key's
// first alternative; nil for just the two).
func adviceFor(a, b keymodel.Key, keys []keymodel.Key, batch batchKind, method string) advice {
	return advice{a: a, b: b, pairing: batchPairing(a, b, keys), batch: batch, method: method}
}

// pairRemedy is the clause for two keys of a batch on different slots:
//   - keys that hold the same values: make a value they share their tag
//     ("order:<id>:items" and "order:<id>:total" → "order:{<id>}:items");
//   - constant keys of one entity, "type:id:field": make the entity the tag;
//     other constant keys: split the batch when it can be, else one tag
//     with their common prefix as the example;
//   - keys of two entities, or of an entity beside a constant key: never
//     one tag (see apartRemedy).
func (v advice) pairRemedy() string {
	switch v.pairing {
	case twoEntities, entityAndAll:
		return v.apartRemedy()
	case sameValues:
		if r, ok := v.sharedValue(); ok {
			return r
		}
		if splittable(v.batch, v.method) {
			return splitting[v.batch] + ", or give keys that belong together one hash tag"
		}
		return "give both keys one hash tag of a value they share"
	}
	if entity, ok := sharedEntity(v.a, v.b); ok {
		return "give them the hash tag {" + entity + "}, as in " + keymodel.TextKey(withEntityTag(v.a, entity)).Quoted()
	}
	if splittable(v.batch, v.method) {
		return splitting[v.batch] + ", or give keys that belong together one hash tag"
	}
	if prefix := commonSegments(v.a, v.b); prefix != "" {
		return "give both keys one hash tag, such as {" + prefix + "}"
	}
	return "give both keys one hash tag"
}

// apartRemedy is the clause for keys that may not share a tag: a
// transaction (or WATCH) cannot be atomic across slots (see
// crossEntityTransaction); a batch that can be split is split by slot;
// any other command's work is done in the client, or, for two entities,
// the keys are tagged with an entity both belong to.
func (v advice) apartRemedy() string {
	if v.batch == transactionBatch || transactional[strings.ToUpper(v.method)] {
		return crossEntityTransaction
	}
	if splittable(v.batch, v.method) {
		return splitting[v.batch] + ", since one hash tag for every such key would put them all on one slot"
	}
	if v.pairing == twoEntities {
		return clientWork(v.method) + ", or tag both keys with an entity they belong to (a group, a room, a month), never with one constant tag, which puts every such key on one slot"
	}
	return clientWork(v.method) + ", since the only tag both could share is a constant one, which puts every such key on one slot"
}

// crossEntityTransaction is the clause for a transaction over two entities
// (two accounts of a transfer), or over an entity and a key of all of them:
// one transaction per slot would silently give up the atomicity it exists
// for, and one tag for every such key a hot slot. crossslot -explain
// crossslot says more.
const crossEntityTransaction = "co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox (atomicity cannot hold across slots)"

// transactional are the commands that hold their keys together as a
// transaction does: WATCH guards them for one MULTI/EXEC.
var transactional = map[string]bool{"WATCH": true}

// moving are the commands that move data from one key to another: across
// two entities' slots, the client does the move itself.
var moving = map[string]bool{"RENAME": true, "RENAMENX": true, "COPY": true, "SMOVE": true, "LMOVE": true, "BLMOVE": true,
	"RPOPLPUSH": true, "BRPOPLPUSH": true}

// clientWork is how the client does the work of a command whose keys are
// on several slots, by what the command does.
func clientWork(method string) string {
	m := strings.ToUpper(method)
	switch {
	case moving[m]:
		return "move the data in the client (read, write, then delete the source)"
	case m == "PFCOUNT" || m == "PFMERGE":
		return "copy each HyperLogLog (GET, then SET) to a key tagged with this call's own id and run it on the copies"
	case setOperation(m) && (strings.HasSuffix(m, "STORE") || strings.HasPrefix(m, "BITOP")):
		return "read each key, compute the result in the client and write it to the destination"
	case setOperation(m):
		return "read each key and compute the result in the client"
	case script(m):
		return "run the script once per slot from the client, with that slot's keys (each run is atomic on its own slot only)"
	case m == "MSETNX":
		return "set each slot's keys with a call of its own, deleting the ones set when a later call finds a key taken"
	case popping[m]:
		return "wait on each slot's keys with a call of its own"
	}
	return "run the command per slot and combine the results in the client"
}

// setOperation: a command that combines its keys' values (set and sorted
// set algebra, BITOP, LCS, a search stored into another key), by its name
// or the client method's (SInterStore, ZUnionWithScores, BitOpAnd).
func setOperation(m string) bool {
	for _, p := range []string{"SINTER", "SUNION", "SDIFF", "ZINTER", "ZUNION", "ZDIFF", "ZRANGESTORE", "BITOP", "LCS", "GEOSEARCHSTORE", "GEORADIUS", "SORT"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// script: a call that runs a script or function (EVAL, EVALSHA, FCALL, a
// Script's Run, a Lua's Exec, GLIDE's InvokeScript).
func script(m string) bool {
	return strings.Contains(m, "EVAL") || strings.Contains(m, "FCALL") || strings.Contains(m, "SCRIPT") ||
		m == "RUN" || m == "RUNRO" || m == "LUA.EXEC"
}

// popping are the commands that pop from, or wait on, the first of several
// keys that has data.
var popping = map[string]bool{"BLPOP": true, "BRPOP": true, "BLMPOP": true, "LMPOP": true, "BZPOPMIN": true, "BZPOPMAX": true,
	"BZMPOP": true, "ZMPOP": true, "XREAD": true, "XREADGROUP": true, "XREADSTREAMS": true}

// familyRemedy is the clause for a key built per element of an input: the
// elements are different entities, so the batch is split by slot when it
// can be, and never given one tag.
func familyRemedy(batch batchKind, method string) string {
	if splittable(batch, method) {
		return "group the keys by slot (slotcalc.Slot) and " + splitting[batch]
	}
	if transactional[strings.ToUpper(method)] {
		return crossEntityTransaction
	}
	return clientWork(method) + ", or tag every key with an entity they all belong to (a group, a room, a month), never with one constant tag, which puts every such key on one slot"
}

// sharedValue is the clause that makes a value both keys hold their hash
// tag: one key's whole tag already, else the last that follows text (an
// id, not a prefix; the last is the finest: "idem:<scope>:<value>"), else
// the one they start with; never a value whose type prints braces. The
// example is the first key that changes, with its other braces gone.
func (v advice) sharedValue() (string, bool) {
	_, _, shared := keymodel.ValuesApart(v.a, v.b)
	var pick keymodel.Part
	best := -1
	for _, p := range shared {
		if p.Braces || slices.ContainsFunc(v.b, func(q keymodel.Part) bool { return keymodel.OneValue(p, q) && q.Braces }) {
			continue
		}
		rank := 0
		switch {
		case tagIs(v.a, p) || tagIs(v.b, p):
			rank = 2
		case leads(v.a, p):
		default:
			rank = 1
		}
		if rank >= best && !(rank == 2 && best == 2) {
			pick, best = p, rank
		}
	}
	if best < 0 {
		return "", false
	}
	for _, k := range [][2]keymodel.Key{{v.a, v.b}, {v.b, v.a}} {
		if tagIs(k[1], pick) && !tagIs(k[0], pick) {
			return "make " + pick.Show + " the hash tag of " + k[0].Quoted() + " too, as in " + retagged(k[0], pick).Quoted(), true
		}
	}
	return "make " + pick.Show + " their hash tag, as in " + retagged(v.a, pick).Quoted(), true
}

// tagIs reports a key whose hash tag is the value p alone, as in
// "campaign:{"+id+"}:rules" or "<prefix>:{"+id+"}".
func tagIs(k keymodel.Key, p keymodel.Part) bool {
	for i, q := range k {
		if q.Unknown {
			continue
		}
		open := strings.IndexByte(q.Text, '{')
		if open < 0 {
			continue
		}
		return open == len(q.Text)-1 && i+2 < len(k) && k[i+1].Unknown && keymodel.OneValue(k[i+1], p) &&
			!k[i+2].Unknown && strings.HasPrefix(k[i+2].Text, "}")
	}
	return false
}

// retagged is k with its braces gone and the value p in braces: the key as
// a tag of p makes it.
func retagged(k keymodel.Key, p keymodel.Part) keymodel.Key {
	var out keymodel.Key
	done := false
	for _, q := range k {
		switch {
		case !q.Unknown:
			out = keymodel.Concat(out, keymodel.TextKey(strings.NewReplacer("{", "", "}", "").Replace(q.Text)))
		case !done && keymodel.OneValue(q, p):
			out, done = keymodel.Concat(out, keymodel.TextKey("{"), keymodel.Key{q}, keymodel.TextKey("}")), true
		default:
			out = keymodel.Concat(out, keymodel.Key{q})
		}
	}
	return out
}

// familyIDs reports two constant keys of one family that name two of its
// entities: the same ':'-separated segments but one, an id (with a digit)
// in both: "shop:stock:1" and "shop:stock:2", "user:1:a" and "user:2:a".
func familyIDs(a, b keymodel.Key) bool {
	x, ok1 := a.Known()
	y, ok2 := b.Known()
	if !ok1 || !ok2 {
		return false
	}
	return oneIDApart(x, y)
}

// oneIDApart: two texts of ':'-separated segments that differ in exactly
// one, an id in both ("k1" and "k2" are no family's).
func oneIDApart(x, y string) bool {
	sx, sy := strings.Split(x, ":"), strings.Split(y, ":")
	if len(sx) != len(sy) || len(sx) < 2 {
		return false
	}
	apart := 0
	for i := range sx {
		if sx[i] != sy[i] {
			apart++
			if !idLike(sx[i]) || !idLike(sy[i]) {
				return false
			}
		}
	}
	return apart == 1
}

// commonSegments is the ':'-separated segments two keys' known text starts
// with, "" when none.
func commonSegments(a, b keymodel.Key) string {
	x, y := leadingText(a), leadingText(b)
	if len(y) < len(x) {
		x, y = y, x
	}
	if strings.HasPrefix(y, x+":") {
		return strings.Trim(x, "{}") // "report:1" and "report:1:archived"
	}
	n := 0
	for i := 0; i < len(x) && x[i] == y[i]; i++ {
		if x[i] == ':' {
			n = i
		}
	}
	return strings.Trim(x[:n], "{}")
}

// leadingText is the known text a key starts with.
func leadingText(k keymodel.Key) string {
	if len(k) == 0 || k[0].Unknown {
		return ""
	}
	return k[0].Text
}

// zeroRemedy is the clause for a key left "" on some paths.
func zeroRemedy(variable string) string {
	return "assign " + variable + " on every path before the call, or skip the call when it is empty"
}

// splitBarredRemedy is the clause for a command GLIDE would split per slot,
// queued in an atomic batch: out of the batch, or, for one entity's keys,
// one tag.
func (v advice) splitBarredRemedy() string {
	const out = "send it outside the atomic batch, where GLIDE splits it per slot"
	if v.pairing.apart() {
		return out
	}
	if r, ok := v.sharedValue(); ok {
		return out + ", or " + r
	}
	return out + ", or give the keys one hash tag"
}

// splitWriteRemedy is the clause for a write the client splits by slot.
func (v advice) splitWriteRemedy() string {
	if v.pairing.apart() {
		return "if the write must be atomic, " + crossEntityTransaction
	}
	if r, ok := v.sharedValue(); ok {
		return "if the write must be atomic, " + r
	}
	return "if the write must be atomic, give the keys one hash tag"
}

// watchRemedy is the clause for a key of a Watch callback (batch: of the
// batch a watch guards) on another slot than the watched keys.
func (v advice) watchRemedy(batch bool) string {
	switch r, ok := v.sharedValue(); {
	case v.pairing.apart():
		return crossEntityTransaction
	case ok:
		return r
	case batch:
		return "give the watched keys and the batch's keys one hash tag"
	}
	return "give the watched keys and the callback's keys one hash tag"
}

// scriptRemedy is the clause for a key a script touches on another slot
// than a declared key (advice of a script command).
func (v advice) scriptRemedy() string {
	if v.pairing.apart() {
		return v.apartRemedy()
	}
	if r, ok := v.sharedValue(); ok {
		return r
	}
	return "give the script's keys the declared keys' hash tag"
}

// sharedEntity is the "type:id" two constant keys without braces share
// before their last ':', when they do.
func sharedEntity(a, b keymodel.Key) (string, bool) {
	x, ok1 := a.Known()
	y, ok2 := b.Known()
	if !ok1 || !ok2 || strings.ContainsAny(x+y, "{}") {
		return "", false
	}
	ex, ok1 := entityOf(x)
	ey, ok2 := entityOf(y)
	if idLike(strings.TrimPrefix(x, ex+":")) || idLike(strings.TrimPrefix(y, ey+":")) {
		return "", false // "shop:stock:1" and "shop:stock:2": two entities of one family
	}
	return ex, ok1 && ok2 && ex == ey
}

// withEntityTag is a key whose text starts with entity, with it in braces.
func withEntityTag(k keymodel.Key, entity string) string {
	text, _ := k.Known()
	return "{" + entity + "}" + strings.TrimPrefix(text, entity)
}

// soleValue is the one value a key without braces holds, a string id
// among them (the tag "order:{"+id+"}" is one slot unless id is empty):
// advice, unlike a fix, may name it.
func soleValue(k keymodel.Key) (keymodel.Part, bool) {
	var u keymodel.Part
	n := 0
	for _, p := range k {
		switch {
		case p.Unknown:
			u = p
			n++
		case strings.ContainsAny(p.Text, "{}"):
			return keymodel.Part{}, false
		}
	}
	return u, n == 1 && !u.Braces
}
