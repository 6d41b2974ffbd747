package eval

import (
	"golang.org/x/tools/go/ssa"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// returns is what the function a call calls statically returns (see
// Callees), nil for a call of a function value.
func (e *Evaluator) returns(call *ssa.Call) (result []keymodel.Key, elems [][]keymodel.Key) {
	if fn := call.Call.StaticCallee(); fn != nil {
		return e.callees.Returns(fn)
	}
	return nil, nil
}

// summarizedElements reads the slice a builder returns.
func (e *Evaluator) summarizedElements(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	_, elems := e.returns(call)
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
	result, _ := e.returns(call)
	if result == nil {
		return nil, false
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
