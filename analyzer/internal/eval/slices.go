package eval

import (
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// MaxElements bounds the slices the evaluator reads, literal or unrolled.
const MaxElements = 16

// Element is one element of a slice: its value, or the keys it evaluates
// to when it has no SSA value of its own (see ElementsOf), and where the
// source writes it.
type Element struct {
	Value ssa.Value
	Keys  []keymodel.Key
	At    keymodel.Range
}

// ElementsOf returns a slice's elements when the code fixes them:
//
//	keys := []string{"a:1", "a:2"}                     // a literal
//	keys = append(keys, "a:3")                         // appended in straight-line code
//	for _, id := range []int{1, 2} { keys = append(keys, itemKey(id)) } // in a loop over a literal
//	keys := keysFor(7)                                 // a builder's result
//
// An element is an SSA value, or the keys it evaluates to where it has no
// Value of its own (an iteration of a loop, a builder's template).
func (e *Evaluator) ElementsOf(v ssa.Value, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	if depth > maxDepth {
		return nil, false
	}
	depth++
	if els, ok := e.sliceEnv[v]; ok {
		return els, true
	}
	if values, ok := ssaread.SliceElements(v); ok {
		out := make([]Element, len(values))
		for i, val := range values {
			out[i] = Element{Value: val}
		}
		return out, true
	}
	switch v := v.(type) {
	case *ssa.Call:
		if ssaread.IsBuiltin(v.Call, "append") && len(v.Call.Args) == 2 && appendedOnce(v.Call.Args[0], v) {
			head, ok := e.ElementsOf(v.Call.Args[0], depth, visiting)
			if !ok {
				return nil, false
			}
			tail, ok := e.ElementsOf(v.Call.Args[1], depth, visiting)
			if !ok || len(head)+len(tail) > MaxElements {
				return nil, false
			}
			return append(append([]Element(nil), head...), tail...), true
		}
		return e.summarizedElements(v, depth, visiting)
	case *ssa.Phi:
		return e.unrollSlice(v, depth, visiting)
	}
	return nil, false
}

// ElementKeys evaluates one element.
func (e *Evaluator) ElementKeys(el Element, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	if el.Value == nil {
		return el.Keys
	}
	return e.eval(ssaread.UnwrapInterface(el.Value), depth, visiting)
}

// appendedOnce: a slice appended to twice may share its array between the
// two results, each append overwriting the other's element.
func appendedOnce(s ssa.Value, by *ssa.Call) bool {
	refs := s.Referrers()
	if refs == nil {
		return true // a constant: nil
	}
	for _, ref := range *refs {
		if call, ok := ref.(*ssa.Call); ok && ref != by && ssaread.IsBuiltin(call.Call, "append") {
			return false
		}
		if _, ok := ref.(*ssa.Store); ok {
			return false
		}
	}
	return true
}
