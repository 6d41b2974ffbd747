package clients

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Keys that came from the server: a batch that KEYS or SCAN returned
//
//	keys, _ := rdb.Keys(ctx, "cache:*").Result()
//	keys, cursor, err := rdb.Scan(ctx, cursor, "cache:*", 100).Result()
//
// holds keys of any slot, unless the MATCH pattern fixes a hash tag
// ("cache:{user1}:*"). A command over such a batch is read as a family of
// keys (see keymodel.Arg.Family): the pattern with each glob a part that
// differs from one key to the next. (A key that a glob matches may hold a
// tag of its own; two such keys are on one slot only if the tags are
// equal, which the pattern does not ensure either: the part is taken to
// hold no brace.)

// serverKeys reads v as the keys of a KEYS or SCAN reply (go-redis's Val or
// Result of Keys or Scan): the template of its keys, and what they are, for
// messages. ok is false for any other value.
func serverKeys(ev *eval.Evaluator, v ssa.Value) (each []keymodel.Key, of string, ok bool) {
	if ext, isExtract := v.(*ssa.Extract); isExtract && ext.Index == 0 {
		v = ext.Tuple
	}
	call, isCall := v.(*ssa.Call)
	if !isCall {
		return nil, "", false
	}
	get := ssaread.CalledFunc(&call.Call)
	if get == nil || (get.Name() != "Val" && get.Name() != "Result") || len(call.Call.Args) != 1 {
		return nil, "", false
	}
	cmd, isCall := call.Call.Args[0].(*ssa.Call)
	if !isCall {
		return nil, "", false
	}
	m := GoRedisMethod(&cmd.Call)
	if m == nil {
		return nil, "", false
	}
	site := NewSite(ev, &cmd.Call, m.Signature())
	var pattern ssa.Value
	switch m.Name() {
	case "Keys":
		_, pattern, ok = site.Param("pattern")
	case "Scan":
		_, pattern, ok = site.Param("match")
	}
	if !ok {
		return nil, "", false
	}
	ks := ev.Keys(pattern)
	if len(ks) != 1 {
		return nil, "", false
	}
	key := globTemplate(ks[0], ev.Show(call))
	return []keymodel.Key{key}, "keys that " + strings.ToUpper(m.Name()) + " " + key.Quoted() + " returns", true
}

// globTemplate is the keys a MATCH pattern can match: its text up to the
// first glob ('*', '?', '['), then one part that differs from one key to
// the next. A pattern with no glob matches itself. An empty pattern (SCAN
// without MATCH) matches any key.
func globTemplate(pattern keymodel.Key, batch string) keymodel.Key {
	var out keymodel.Key
	for _, p := range pattern {
		if p.Unknown {
			out = append(out, p)
			continue
		}
		if i := strings.IndexAny(p.Text, "*?["); i >= 0 {
			out = keymodel.Concat(out, keymodel.TextKey(p.Text[:i]))
			return keymodel.Concat(out, keymodel.UnknownKey(keymodel.ElementPart(keymodel.Part{ID: "match(" + batch + ")", Show: p.Text[i:], NoBrace: true, NonEmpty: true}, batch)))
		}
		out = keymodel.Concat(out, keymodel.Key{p})
	}
	if len(out) == 0 {
		return keymodel.UnknownKey(keymodel.ElementPart(keymodel.Part{ID: "match(" + batch + ")", Show: "*", NoBrace: true, NonEmpty: true}, batch))
	}
	return out
}
