package eval

import (
	"golang.org/x/tools/go/ssa"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// returns is what the function a call calls statically returns (see
// Callees), nothing for a call of a function value.
func (e *Evaluator) returns(call *ssa.Call) Returned {
	if fn := call.Call.StaticCallee(); fn != nil {
		return e.callees.Returns(fn)
	}
	return Returned{}
}

// CalledFamily reads a call of a helper that builds one key per element of
// a slice it is given (see Returned): with the caller's slice fixed, its
// keys, one per element; else a family over that slice. ok is false for
// any other value.
func (e *Evaluator) CalledFamily(v ssa.Value) (elems []Element, each []keymodel.Key, of string, ok bool) {
	call, isCall := v.(*ssa.Call)
	if !isCall {
		return nil, nil, "", false
	}
	ret := e.returns(call)
	if ret.EachOf == 0 || ret.EachOf > len(call.Call.Args) {
		return nil, nil, "", false
	}
	slice := call.Call.Args[ret.EachOf-1]
	fresh := e.id(call)
	if fixed, ok := e.ElementsOf(slice, 0, map[ssa.Value]bool{}); ok {
		for _, el := range fixed {
			var ks []keymodel.Key
			for _, tmpl := range ret.Each {
				ks = append(ks, e.instantiateEach(tmpl, call.Call.Args, fresh, e.ElementKeys(el, 0, map[ssa.Value]bool{}))...)
			}
			elems = append(elems, Element{Keys: ks})
		}
		return elems, nil, "", true
	}
	element := keymodel.UnknownKey(keymodel.ElementPart(keymodel.Part{ID: fresh + "/elem", Show: e.Show(slice) + "[i]"}, e.id(slice)))
	for _, tmpl := range ret.Each {
		each = append(each, e.instantiateEach(tmpl, call.Call.Args, fresh, []keymodel.Key{element})...)
	}
	return nil, each, "elements of " + e.Show(slice), true
}

// instantiateEach instantiates a key template whose Elem parts stand for
// each element of a slice: elem is the keys one element is.
func (e *Evaluator) instantiateEach(tmpl keymodel.Key, args []ssa.Value, fresh string, elem []keymodel.Key) []keymodel.Key {
	out := []keymodel.Key{{}}
	for _, p := range tmpl {
		if p.Elem > 0 {
			out = keymodel.Product(out, elem)
			continue
		}
		out = keymodel.Product(out, e.Instantiate(keymodel.Key{p}, args, fresh, 0, map[ssa.Value]bool{}))
	}
	return out
}

// ParamFamily reads a []string result built one key per element of the
// function's own slice parameter (see Family): the parameter's number, and
// the key, its element parts marked Elem.
func (e *Evaluator) ParamFamily(v ssa.Value) (param int, each []keymodel.Key, ok bool) {
	init, each, _, slice, ok := e.family(v)
	p, isParam := slice.(*ssa.Parameter)
	if !ok || len(init) > 0 || !isParam {
		return 0, nil, false
	}
	param = ssaread.ParamIndex(p)
	base := keymodel.ElementPart(keymodel.Part{}, e.id(p)).Base
	out := make([]keymodel.Key, len(each))
	for i, k := range each {
		out[i] = append(keymodel.Key(nil), k...)
		for j := range out[i] {
			if out[i][j].Unknown && out[i][j].Base == base {
				out[i][j].Elem, out[i][j].Base = param, ""
			}
		}
	}
	return param, out, true
}

// summarizedElements reads the slice a builder returns.
func (e *Evaluator) summarizedElements(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	elems := e.returns(call).Elems
	if elems == nil {
		return nil, false
	}
	out := make([]Element, len(elems))
	fresh := e.id(call)
	for i, alts := range elems {
		var ks []keymodel.Key
		for _, tmpl := range alts {
			ks = append(ks, e.Instantiate(tmpl, call.Call.Args, fresh, depth, visiting)...)
		}
		if len(ks) > keymodel.MaxAlternatives {
			ks = []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fresh + "/too-many", Show: "…"})}
		}
		out[i] = Element{Keys: ks}
	}
	return out, true
}

// evalSummarized evaluates a call of a key builder: its summary's result
// with the call's arguments put in.
func (e *Evaluator) evalSummarized(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	returned := e.returns(call)
	result := returned.Result
	if result == nil {
		return nil, false
	}
	if returned.Option != "" {
		e.met = append(e.met, choice{option: returned.Option})
		if e.world.Defaults {
			result = returned.ByDefault
		}
	}
	var out []keymodel.Key
	for _, tmpl := range result {
		out = append(out, e.Instantiate(tmpl, call.Call.Args, e.id(call), depth, visiting)...)
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	return out, true
}

// Instantiate puts a call's arguments into a key template. Unknown parts
// that are not parameters are the callee's own values: each call has its
// own, so they are renamed after the call (fresh).
func (e *Evaluator) Instantiate(tmpl keymodel.Key, args []ssa.Value, fresh string, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	out := []keymodel.Key{{}}
	for _, p := range tmpl {
		switch {
		case !p.Unknown:
			out = keymodel.Product(out, []keymodel.Key{{p}})
		case p.Param > 0 && p.Param <= len(args) && p.Join:
			if elems, ok := e.ElementsOf(args[p.Param-1], depth, visiting); ok && len(elems) <= MaxElements {
				out = keymodel.Product(out, e.joined(elems, p.Verb, depth, visiting))
			} else {
				out = keymodel.Product(out, []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fresh + "/" + p.ID, Show: p.Show})})
			}
		case p.Param > 0 && p.Param <= len(args):
			arg := args[p.Param-1]
			if layout, isTime := strings.CutPrefix(p.Verb, timeVerb); isTime {
				out = keymodel.Product(out, []keymodel.Key{e.timeKey(arg, layout, e.Show(arg))})
			} else if p.Verb == "" {
				out = keymodel.Product(out, e.eval(arg, depth, visiting))
			} else {
				out = keymodel.Product(out, []keymodel.Key{e.formatted(p.Verb, arg, "", traits{noBrace: p.NoBrace, nonEmpty: p.NonEmpty, braces: p.Braces})})
			}
		case p.Of > 0 && p.Of <= len(args):
			// A value of the object the argument points to: the caller's
			// object's, shared with every other read of it.
			root, path, foreign := e.objectOf(args[p.Of-1])
			q := p
			q.ID, q.Sub, q.Of = e.id(root)+path+p.Sub, path+p.Sub, 0
			if param, ok := root.(*ssa.Parameter); ok && !foreign {
				q.Of = ssaread.ParamIndex(param)
			}
			out = keymodel.Product(out, []keymodel.Key{{q}})
		default:
			q := p
			q.ID, q.Param, q.Verb, q.Of = fresh+"/"+p.ID, 0, "", 0
			out = keymodel.Product(out, []keymodel.Key{{q}})
		}
	}
	return out
}
