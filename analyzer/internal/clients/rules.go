package clients

import (
	"go/constant"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// params takes the named parameters: a string is one key, a []string (variadic
// or not) gives each element as a key.
func params(names ...string) KeyRule {
	return func(c *Site) []keymodel.Arg {
		var out []keymodel.Arg
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
	return func(c *Site) []keymodel.Arg {
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
func flattenedKeys(c *Site, el eval.Element) []keymodel.Arg {
	v := ssaread.UnwrapInterface(el.Value)
	if mk, ok := v.(*ssa.MakeMap); ok {
		if m, ok := mk.Type().Underlying().(*types.Map); !ok || !ssaread.IsString(m.Key()) {
			return nil
		}
		var out []keymodel.Arg
		for _, ref := range *mk.Referrers() {
			switch ref := ref.(type) {
			case *ssa.MapUpdate:
				out = append(out, c.KeyArg(ref.Key, el.At))
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
	var out []keymodel.Arg
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("redis")
		name, opt, _ := strings.Cut(tag, ",")
		if !f.Exported() || name == "" || name == "-" || strings.Contains(","+opt+",", ",omitempty,") {
			continue
		}
		out = append(out, keymodel.Arg{Alts: []keymodel.Key{keymodel.TextKey(name)}, At: el.At})
	}
	return out
}

// every takes elements 0, n, 2n, ... of a variadic list of n-tuples whose
// first member is the key.
func every(n int, name string) KeyRule {
	return func(c *Site) []keymodel.Arg {
		elems, ok := c.ElementsOfParam(name)
		if !ok {
			return c.tupleFamily(n, name) // pairs appended in a loop
		}
		if len(elems) < n || len(elems)%n != 0 {
			return nil
		}
		firsts := make([]eval.Element, 0, len(elems)/n)
		for i := 0; i < len(elems); i += n {
			firsts = append(firsts, elems[i])
		}
		return c.KeyArgs(firsts)
	}
}

// firstHalf takes the first half of a variadic list (streams then IDs).
func firstHalf(name string) KeyRule {
	return func(c *Site) []keymodel.Arg {
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
	return func(c *Site) []keymodel.Arg {
		v, ok := c.FieldOfParam(param, name)
		if !ok {
			return nil
		}
		if ssaread.IsString(v.Value.Type()) {
			if k, ok := v.Value.(*ssa.Const); ok && (k.Value == nil || constant.StringVal(k.Value) == "") {
				return nil // an unset optional key such as GeoRadiusQuery.StoreDist
			}
			return []keymodel.Arg{c.KeyArg(v.Value, v.At)}
		}
		if elems, ok := ssaread.SliceElements(v.Value); ok {
			return c.keysAt(elems, v.At)
		}
		j, _, _ := c.Param(param)
		if elems, ok := c.Eval.ElementsOf(v.Value, 0, map[ssa.Value]bool{}); ok {
			return c.KeyArgs(atArg(elems, c.ArgPos(j)))
		}
		return c.sliceKeys(j, v.Value, false) // a loop's family, the caller's slice
	}
}

// notFollowed marks a multi-key method whose keys the analyzer cannot read
// yet; it finds no keys, so the method is never reported.
func notFollowed(*Site) []keymodel.Arg { return nil }

func all(rules ...KeyRule) KeyRule {
	return func(c *Site) []keymodel.Arg {
		var out []keymodel.Arg
		for _, r := range rules {
			out = append(out, r(c)...)
		}
		return out
	}
}

// xreadStreams reads XReadArgs/XReadGroupArgs.Streams: keys then IDs, or all
// keys when XReadArgs.ID is set.
func xreadStreams(c *Site) []keymodel.Arg {
	v, ok := c.FieldOfParam("a", "Streams")
	if !ok {
		return nil
	}
	elems, ok := ssaread.SliceElements(v.Value)
	if !ok {
		if id, ok := c.FieldOfParam("a", "ID"); ok {
			if s, isConst := ssaread.ConstString(id.Value); !isConst || s != "" {
				return nil // every stream after one ID, or a layout set at run time
			}
		}
		// streams appended in one loop, their IDs in another
		_, each, of, ok := c.Eval.FamilyThenOnePerElement(v.Value)
		if !ok {
			return nil
		}
		return []keymodel.Arg{{Alts: each, Family: of, At: v.At}}
	}
	keys := elems
	if id, ok := c.FieldOfParam("a", "ID"); !ok {
		if len(elems)%2 != 0 {
			return nil
		}
		keys = elems[:len(elems)/2]
	} else if s, ok := ssaread.ConstString(id.Value); !ok {
		return nil // ID set to an unknown value: the layout is unknown
	} else if s == "" {
		keys = elems[:len(elems)/2]
	}
	return c.keysAt(keys, v.At)
}

// tupleFamily reads a list of n-tuples a loop appends one tuple to per
// iteration, the key first (see eval.TupleFamily).
func (c *Site) tupleFamily(n int, name string) []keymodel.Arg {
	j, v, ok := c.Param(name)
	if !ok {
		return nil
	}
	init, each, of, ok := c.Eval.TupleFamily(v, n)
	if !ok {
		return nil
	}
	return append(c.KeyArgs(atArg(init, c.ArgPos(j))), keymodel.Arg{Alts: each, Family: of, At: c.ArgPos(j)})
}
