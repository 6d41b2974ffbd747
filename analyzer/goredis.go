package analyzer

import (
	"go/constant"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/internal/commands"
)

// goRedisPackages are the import paths of go-redis across its versions. The
// rules name parameters, not indexes, so one table serves v9, v8 (both take a
// context first) and the context-free v7 and v6.
var GoRedisPackages = map[string]bool{
	"github.com/redis/go-redis/v9": true,
	"github.com/go-redis/redis/v8": true,
	"github.com/go-redis/redis/v7": true,
	"github.com/go-redis/redis":    true,
}

// A keyRule finds the key arguments of one call.
type KeyRule func(c *Site) []Arg

// multiKeyMethods says where each go-redis method that can carry two or more
// keys takes them. Built from the v9.23.0 source; see
// shared/reference/clients.md §1. (Set in init: rules evaluate keys, which
// may follow wrappers back to this table.)
var MultiKeyMethods map[string]KeyRule

func init() { MultiKeyMethods = multiKeyRules() }

func multiKeyRules() map[string]KeyRule {
	return map[string]KeyRule{
		// Variadic keys.
		"Del": params("keys"), "Unlink": params("keys"), "Exists": params("keys"), "Touch": params("keys"),
		"MGet": params("keys"), "PFCount": params("keys"),
		"SDiff": params("keys"), "SInter": params("keys"), "SUnion": params("keys"),
		"SInterCard": params("keys"), "SDiffCard": params("keys"), "SUnionCard": params("keys"),
		"ZInterCard": params("keys"), "ZDiff": params("keys"), "ZDiffWithScores": params("keys"),
		"BLPop": params("keys"), "BRPop": params("keys"), "BLMPop": params("keys"), "LMPop": params("keys"),
		"BZPopMax": params("keys"), "BZPopMin": params("keys"), "BZMPop": params("keys"), "ZMPop": params("keys"),
		"JSONMGet": params("keys"), "XReadStreams": firstHalf("streams"),

		// Fixed key parameters.
		"Rename": params("key", "newkey"), "RenameNX": params("key", "newkey"),
		"Copy":      params("sourceKey", "destKey"),
		"SortStore": params("key", "store"),
		"RPopLPush": params("source", "destination"), "BRPopLPush": params("source", "destination"),
		"LMove": params("source", "destination"), "BLMove": params("source", "destination"),
		"LMoveM": params("source", "destination"), "BLMoveM": params("source", "destination"),
		"SMove":          params("source", "destination"),
		"GeoSearchStore": params("key", "store"),
		"BitOpNot":       params("destKey", "key"),
		"TSCreateRule":   params("sourceKey", "destKey"), "TSCreateRuleWithArgs": params("sourceKey", "destKey"),
		"TSDeleteRule": params("sourceKey", "destKey"),

		// A destination, then variadic sources.
		"SDiffStore": params("destination", "keys"), "SInterStore": params("destination", "keys"),
		"SUnionStore": params("destination", "keys"), "ZDiffStore": params("destination", "keys"),
		"PFMerge":  params("dest", "keys"),
		"BitOpAnd": params("destKey", "keys"), "BitOpOr": params("destKey", "keys"), "BitOpXor": params("destKey", "keys"),
		"BitOpDiff": params("destKey", "keys"), "BitOpDiff1": params("destKey", "keys"),
		"BitOpAndOr": params("destKey", "keys"), "BitOpOne": params("destKey", "keys"),
		"CMSMerge": params("destKey", "sourceKeys"), "TDigestMerge": params("destKey", "sourceKeys"),

		// A keys []string parameter: scripts, functions, Script's methods.
		"Eval": params("keys"), "EvalRO": params("keys"), "EvalSha": params("keys"), "EvalShaRO": params("keys"),
		"FCall": params("keys"), "FCallRO": params("keys"), "FCallRo": params("keys"),
		"Run": params("keys"), "RunRO": params("keys"),
		"TSNRange": params("keys"), "TSNRangeWithArgs": params("keys"),
		"TSNRevRange": params("keys"), "TSNRevRangeWithArgs": params("keys"),

		// Alternating key, value; key, path, value.
		"MSet": pairs("values"), "MSetNX": pairs("values"), "MSetEX": pairs("values"),
		"JSONMSet": every(3, "params"),

		// Keys inside structs.
		"ZInterStore": all(params("destination"), field("store", "Keys")),
		"ZUnionStore": all(params("dest"), field("store", "Keys")),
		"ZInter":      field("store", "Keys"), "ZInterWithScores": field("store", "Keys"),
		"ZUnion": field("store", "Keys"), "ZUnionWithScores": field("store", "Keys"),
		"ZRangeStore":            all(params("dst"), field("z", "Key")),
		"LCS":                    all(field("q", "Key1"), field("q", "Key2")),
		"GeoRadiusStore":         all(params("key"), field("query", "Store"), field("query", "StoreDist")),
		"GeoRadiusByMemberStore": all(params("key"), field("query", "Store"), field("query", "StoreDist")),
		"XRead":                  xreadStreams,
		"XReadGroup":             xreadStreams,

		// Keys the analyzer does not follow yet: in a map (CMSMergeWithWeight's
		// source keys), in nested slices (TSMAdd) or in a slice of structs
		// (JSONMSetArgs). Only the plain parameters are read; the rest is silence.
		"CMSMergeWithWeight": params("destKey"),
		"TSMAdd":             notFollowed,
		"JSONMSetArgs":       notFollowed,

		// Transactions: WATCH on ClusterClient, Client and Tx; v7 also spells it
		// with a context.
		"Watch": params("keys"), "WatchContext": params("keys"),

		// Raw commands, by name; v7 also has DoContext.
		"Do": rawCommand, "DoContext": rawCommand,
	}
}

// singleKeyParams are the parameter names go-redis gives keys; on methods
// outside multiKeyMethods they are checked for malformed tags only.
var SingleKeyParams = map[string]bool{
	"key": true, "keys": true, "newkey": true, "source": true, "destination": true, "dest": true,
	"destKey": true, "sourceKey": true, "dst": true, "store": true, "stream": true,
}

// A keyArg is one key of a call, with its alternatives and where to report it.
type Arg struct {
	Alts []Key
	At   Range

	// spread > 0: the key is every element of the calling function's slice
	// parameter number spread (1-based); alts is empty. Its callers fill it.
	Spread int
	// viaCall: the key reached a wrapper's command from the caller's
	// arguments (see instantiateKey).
	ViaCall bool
	// unread names a list of keys the analyzer cannot read (a slice from
	// input); alts is empty. Only strict mode reports it.
	Unread string
}

// anyFromParams reports whether some of the keys come from the function's
// parameters.
func AnyFromParams(keys []Arg) bool {
	for _, k := range keys {
		if k.FromParams() {
			return true
		}
	}
	return false
}

// fromParams reports whether the key depends on the calling function's
// parameters.
func (k Arg) FromParams() bool {
	if k.Spread > 0 {
		return true
	}
	for _, alt := range k.Alts {
		if alt.FromParams() {
			return true
		}
	}
	return false
}

// params takes the named parameters: a string is one key, a []string (variadic
// or not) gives each element as a key.
func params(names ...string) KeyRule {
	return func(c *Site) []Arg {
		var out []Arg
		for _, name := range names {
			out = append(out, c.KeysOfParam(name)...)
		}
		return out
	}
}

// pairs takes the even elements of a variadic key, value list (MSet). A
// single map or struct argument is flattened by go-redis (appendArgs): a map
// literal's keys, or a struct's `redis:"name"` tag names, are the keys.
func pairs(name string) KeyRule {
	list := every(2, name)
	return func(c *Site) []Arg {
		elems, ok := c.ElementsOfParam(name)
		if ok && len(elems) == 1 {
			return flattenedKeys(c, elems[0])
		}
		return list(c)
	}
}

// flattenedKeys reads the keys go-redis takes from a lone map or struct
// argument of MSet. A map must be a literal whose every key is a string;
// a struct contributes the tag names of its exported fields tagged
// `redis:"name"` without omitempty (an omitempty field may be left out).
func flattenedKeys(c *Site, el Element) []Arg {
	v := UnwrapInterface(el.Value)
	if mk, ok := v.(*ssa.MakeMap); ok {
		if m, ok := mk.Type().Underlying().(*types.Map); !ok || !IsString(m.Key()) {
			return nil
		}
		var out []Arg
		for _, ref := range *mk.Referrers() {
			switch ref := ref.(type) {
			case *ssa.MapUpdate:
				out = append(out, Arg{Alts: c.Eval.Keys(ref.Key), At: el.At})
			case *ssa.MakeInterface:
			default:
				return nil // the map is changed or read elsewhere
			}
		}
		return out
	}
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []Arg
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("redis")
		name, opt, _ := strings.Cut(tag, ",")
		if !f.Exported() || name == "" || name == "-" || strings.Contains(","+opt+",", ",omitempty,") {
			continue
		}
		out = append(out, Arg{Alts: []Key{TextKey(name)}, At: el.At})
	}
	return out
}

// every takes elements 0, n, 2n, ... of a variadic list of n-tuples whose
// first member is the key.
func every(n int, name string) KeyRule {
	return func(c *Site) []Arg {
		elems, ok := c.ElementsOfParam(name)
		if !ok || len(elems) < n || len(elems)%n != 0 {
			return nil
		}
		firsts := make([]Element, 0, len(elems)/n)
		for i := 0; i < len(elems); i += n {
			firsts = append(firsts, elems[i])
		}
		return c.KeyArgs(firsts)
	}
}

// firstHalf takes the first half of a variadic list (streams then IDs).
func firstHalf(name string) KeyRule {
	return func(c *Site) []Arg {
		elems, ok := c.ElementsOfParam(name)
		if !ok || len(elems)%2 != 0 {
			return nil
		}
		return c.KeyArgs(elems[:len(elems)/2])
	}
}

// field takes a string or []string field of a struct (or pointer to struct)
// parameter built from a composite literal in the calling function.
func field(param, name string) KeyRule {
	return func(c *Site) []Arg {
		v, ok := c.fieldOfParam(param, name)
		if !ok {
			return nil
		}
		if IsString(v.Value.Type()) {
			if k, ok := v.Value.(*ssa.Const); ok && (k.Value == nil || constant.StringVal(k.Value) == "") {
				return nil // an unset optional key such as GeoRadiusQuery.StoreDist
			}
			return []Arg{{Alts: c.Eval.Keys(v.Value), At: v.At}}
		}
		elems, ok := SliceElements(v.Value)
		if !ok {
			return nil
		}
		return c.keysAt(elems, v.At)
	}
}

// notFollowed marks a multi-key method whose keys the analyzer cannot read
// yet; it finds no keys, so the method is never reported.
func notFollowed(*Site) []Arg { return nil }

func all(rules ...KeyRule) KeyRule {
	return func(c *Site) []Arg {
		var out []Arg
		for _, r := range rules {
			out = append(out, r(c)...)
		}
		return out
	}
}

// xreadStreams reads XReadArgs/XReadGroupArgs.Streams: keys then IDs, or all
// keys when XReadArgs.ID is set.
func xreadStreams(c *Site) []Arg {
	v, ok := c.fieldOfParam("a", "Streams")
	if !ok {
		return nil
	}
	elems, ok := SliceElements(v.Value)
	if !ok {
		return nil
	}
	keys := elems
	if id, ok := c.fieldOfParam("a", "ID"); !ok {
		if len(elems)%2 != 0 {
			return nil
		}
		keys = elems[:len(elems)/2]
	} else if s, ok := ConstString(id.Value); !ok {
		return nil // ID set to an unknown value: the layout is unknown
	} else if s == "" {
		keys = elems[:len(elems)/2]
	}
	return c.keysAt(keys, v.At)
}

// rawCommand reads Do(ctx, "NAME", args...) whose name is a constant, with
// the command table from the server's key specs (internal/commands). Keys
// are found as the server finds them; an argument the code does not fix is
// a key only if the table places one there, and a keyword or count that is
// not fixed leaves the keys unknown.
func rawCommand(c *Site) []Arg {
	elems, ok := c.ElementsOfParam("args")
	if !ok || len(elems) == 0 {
		return nil
	}
	return commandKeys(c, elems)
}

// commandKeys reads the keys of a command line given as values, the
// command's name first (go-redis Do, redigo Do and Send).
func commandKeys(c *Site, elems []Element) []Arg {
	name, ok := ConstString(UnwrapInterface(elems[0].Value))
	if !ok {
		return nil
	}
	cmd, ok := commands.Lookup(name)
	if !ok {
		return nil
	}
	argv := make([]commands.Arg, len(elems))
	for i, el := range elems {
		argv[i].Text, argv[i].Known = constText(UnwrapInterface(el.Value))
	}
	pos, ok := cmd.Keys(argv)
	if !ok {
		return nil
	}
	var out []Arg
	for _, i := range pos {
		v := UnwrapInterface(elems[i].Value)
		if v == nil || !IsString(v.Type()) {
			continue // a key the analyzer cannot read (bytes, a number)
		}
		out = append(out, Arg{Alts: c.Eval.Keys(v), At: elems[i].At})
	}
	return out
}

// constText is a string or integer constant as the command line holds it.
func constText(v ssa.Value) (string, bool) {
	if s, ok := ConstString(v); ok {
		return s, true
	}
	if n, ok := ConstInt(v); ok {
		return strconv.FormatInt(n, 10), true
	}
	return "", false
}

func ConstInt(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return 0, false
	}
	b, ok := c.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return 0, false
	}
	return c.Int64(), true
}
