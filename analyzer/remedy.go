package analyzer

import (
	"slices"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// Every finding ends with what to do about it, after "; ", in a short
// clause worded for its check and for the shape of its keys; `crossslot
// -explain CHECK` says more. The clauses of the checks of a batch's slots
// are chosen here, from the two keys that cross.

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

// pairRemedy is the clause for two keys of a batch on different slots:
//   - keys built around one shared value, with no tag: make the value the
//     tag ("order:<id>:items" and "order:<id>:total" → "order:{<id>}:items");
//   - constant keys of one entity, "type:id:field": make the entity the tag;
//   - otherwise, keys of different entities or values: split the batch
//     when it can be, since one tag for all of them would pile every entity
//     on one slot; else, for keys of two different values of one family
//     ("acct:<from>", "acct:<to>"), the tag they would share is the
//     family's, one slot for every account: do the work in the client, or
//     tag both with an entity they belong to; else co-locate the two, with
//     their common prefix as the example tag.
func pairRemedy(a, b keymodel.Key, batch batchKind, method string) string {
	if u, ok := soleValue(a); ok {
		if v, ok := soleValue(b); ok && u.ID == v.ID {
			return "make " + u.Show + " their hash tag, as in " + tagged(a).Quoted()
		}
	}
	for _, k := range [][2]keymodel.Key{{a, b}, {b, a}} {
		if u, ok := soleValue(k[0]); ok {
			if v, ok := soleTag(k[1]); ok && u.ID == v.ID {
				return "make " + u.Show + " the hash tag of " + k[0].Quoted() + " too, as in " + tagged(k[0]).Quoted()
			}
		}
	}
	if entity, ok := sharedEntity(a, b); ok {
		return "give them the hash tag {" + entity + "}, as in " + keymodel.TextKey(withEntityTag(a, entity)).Quoted()
	}
	twoEntities := otherValues(a, b) || familyIDs(a, b)
	if batch == transactionBatch && twoEntities {
		return crossEntityTransaction
	}
	if splittable(batch, method) {
		if twoEntities {
			return splitting[batch] + ", since one hash tag for every such key would put them all on one slot"
		}
		return splitting[batch] + ", or give keys that belong together one hash tag"
	}
	if prefix := commonSegments(a, b); prefix != "" {
		if twoEntities && moving[strings.ToUpper(method)] {
			return "move the data in the client (read, write, then delete the source), or tag both keys with an entity they share (one tag for both, such as {" + prefix + "}, would put every such key on one slot)"
		}
		if twoEntities {
			return "run the command per key and combine the results in the client, or tag both keys with an entity they share (one tag for both, such as {" + prefix + "}, would put every such key on one slot)"
		}
		return "give both keys one hash tag, such as {" + prefix + "}"
	}
	return "give both keys one hash tag"
}

// crossEntityTransaction is the clause for a transaction over two entities
// (two accounts of a transfer): one transaction per slot would silently
// give up the atomicity it exists for, and one tag for every such key a
// hot slot. crossslot -explain crossslot says more.
const crossEntityTransaction = "co-locate the keys under an owner or tenant they share, if there is one, or else make each slot's write a step of its own with an idempotent compensation or an outbox (atomicity cannot hold across slots)"

// moving are the commands that move data from one key to another: across
// two entities' slots, the client does the move itself.
var moving = map[string]bool{"RENAME": true, "RENAMENX": true, "COPY": true, "SMOVE": true, "LMOVE": true, "BLMOVE": true,
	"RPOPLPUSH": true, "BRPOPLPUSH": true}

// familyIDs reports two constant keys of one family that name two of its
// entities: "shop:stock:1" and "shop:stock:2".
func familyIDs(a, b keymodel.Key) bool {
	x, ok1 := a.Known()
	y, ok2 := b.Known()
	if !ok1 || !ok2 || x == y {
		return false
	}
	ex, okX := entityOf(x)
	ey, okY := entityOf(y)
	return okX && okY && ex == ey && idLike(strings.TrimPrefix(x, ex+":")) && idLike(strings.TrimPrefix(y, ey+":"))
}

// otherValues: each key holds values, and not the same ones (two ids of one
// family).
func otherValues(a, b keymodel.Key) bool {
	ids := func(k keymodel.Key) []string {
		var out []string
		for _, p := range k {
			if p.Unknown {
				out = append(out, p.ID)
			}
		}
		return out
	}
	x, y := ids(a), ids(b)
	return len(x) > 0 && len(y) > 0 && !slices.Equal(x, y)
}

// familyRemedy is the clause for a key built per element of an input: the
// elements are different entities, so the batch is split by slot when it
// can be.
func familyRemedy(batch batchKind, method string) string {
	if splittable(batch, method) {
		return "group the keys by slot (slotcalc.Slot) and " + splitting[batch]
	}
	return "give every key one hash tag, or run the command per key and combine the results in the client"
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
// queued in an atomic batch.
const splitBarredRemedy = "send it outside the atomic batch, where GLIDE splits it per slot, or give the keys one hash tag"

// splitWriteRemedy is the clause for a write the client splits by slot.
const splitWriteRemedy = "if the write must be atomic, give the keys one hash tag"

// watchRemedy is the clause for a Watch callback's key on another slot than
// the watched keys.
const watchRemedy = "give the watched keys and the callback's keys one hash tag"

// watchBatchRemedy is the clause for a key of a batch a watch guards.
const watchBatchRemedy = "give the watched keys and the batch's keys one hash tag"

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
// soleTag is the one value of a key that is its whole hash tag, as in
// "campaign:{"+id+"}:rules".
func soleTag(k keymodel.Key) (keymodel.Part, bool) {
	var u keymodel.Part
	n := 0
	for i, p := range k {
		if !p.Unknown {
			continue
		}
		u, n = p, n+1
		if i == 0 || i == len(k)-1 || k[i-1].Unknown || k[i+1].Unknown ||
			!strings.HasSuffix(k[i-1].Text, "{") || !strings.HasPrefix(k[i+1].Text, "}") ||
			strings.Count(k[i-1].Text, "{") != 1 || strings.Contains(k[i-1].Text, "}") {
			return keymodel.Part{}, false
		}
	}
	return u, n == 1 && !u.Braces
}

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
