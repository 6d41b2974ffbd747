package eval

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A range over a function (iter.Seq, iter.Seq2, maps.Keys, slices.Values,
// a function of the module's own that yields) is, in SSA, a call of the
// iterator with the loop's body as a synthetic "yield" closure; the slice
// the loop appends to is a variable the closure captures:
//
//	var ks []string
//	for id := range seq { ks = append(ks, "sku:"+id) }
//	rdb.MGet(ctx, ks...)
//
// reads as a family over the iterator's values, as a range over a slice
// does: the yield closure's parameters differ from one call to the next.

// yieldSynthetic is how SSA marks a range-over-func loop's body.
const yieldSynthetic = "range-over-func yield"

// yieldFamily reads a slice variable, captured by a range-over-func body
// that appends one element to it on each call, and set at most once
// before the loop.
func (e *Evaluator) yieldFamily(load *ssa.UnOp) (loopFamily, bool) {
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || load.Op != token.MUL || !alloc.Heap {
		return loopFamily{}, false
	}
	var body *ssa.Function
	var iterator ssa.Value
	var before ssa.Value // the value stored before the loop, nil for none
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.MakeClosure:
			fn, ok := ref.Fn.(*ssa.Function)
			if !ok || fn.Synthetic != yieldSynthetic || body != nil {
				return loopFamily{}, false
			}
			call, ok := iteratorCall(ref)
			if !ok {
				return loopFamily{}, false
			}
			body, iterator = fn, call.Call.Value
			for i, b := range ref.Bindings {
				if b == ssa.Value(alloc) {
					if st, ok := e.appendedIn(fn.FreeVars[i]); ok {
						return e.yieldLoop(st, body, iterator, before)
					}
					return loopFamily{}, false
				}
			}
			return loopFamily{}, false
		case *ssa.Store:
			if before != nil {
				return loopFamily{}, false
			}
			before = ref.Val
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return loopFamily{}, false
		}
	}
	return loopFamily{}, false
}

// iteratorCall is the call that gives the yield closure to the iterator.
func iteratorCall(mc *ssa.MakeClosure) (*ssa.Call, bool) {
	for _, ref := range *mc.Referrers() {
		if call, ok := ref.(*ssa.Call); ok && len(call.Call.Args) == 1 && call.Call.Args[0] == ssa.Value(mc) {
			return call, true
		}
	}
	return nil, false
}

// appendedIn finds the one store into the captured slice in the body, of
// one element appended to what it holds: *ks = append(*ks, x).
func (e *Evaluator) appendedIn(fv *ssa.FreeVar) (*ssa.Call, bool) {
	var add *ssa.Call
	for _, ref := range *fv.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			call, ok := ref.Val.(*ssa.Call)
			if add != nil || !ok || !ssaread.IsAppend(call.Call) || len(call.Call.Args) != 2 {
				return nil, false
			}
			prev, ok := call.Call.Args[0].(*ssa.UnOp)
			if !ok || prev.Op != token.MUL || prev.X != ssa.Value(fv) {
				return nil, false
			}
			add = call
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return nil, false // the slice is passed on
		}
	}
	return add, add != nil
}

// yieldLoop is the family a range-over-func body adds to: the elements
// before the loop, and the element each call appends, the body's
// parameters reading as values that differ from one call to the next.
func (e *Evaluator) yieldLoop(add *ssa.Call, body *ssa.Function, iterator ssa.Value, before ssa.Value) (loopFamily, bool) {
	list, ok := ssaread.SliceElements(add.Call.Args[1])
	if !ok || len(list) != 1 {
		return loopFamily{}, false
	}
	var init []Element
	if mk, isMake := before.(*ssa.MakeSlice); isMake && ssaread.IsConstInt(mk.Len, 0) && len(*mk.Referrers()) == 1 {
		before = nil // made empty, and only stored into the variable
	}
	if before != nil {
		if init, ok = e.ElementsOf(before, 0, map[ssa.Value]bool{}); !ok {
			return loopFamily{}, false
		}
	}
	of := e.id(iterator)
	f := loopFamily{init: init, added: list[0], of: "values of " + e.Show(iterator)}
	var names []ast.Expr // the range statement's key and value
	if rs, ok := body.Syntax().(*ast.RangeStmt); ok {
		names = []ast.Expr{rs.Key, rs.Value}
	}
	for i, p := range body.Params {
		if i > 1 {
			break
		}
		show := p.Name()
		if i < len(names) && names[i] != nil {
			show = types.ExprString(names[i])
		}
		k := []keymodel.Key{keymodel.UnknownKey(keymodel.ElementPart(keymodel.Part{ID: e.id(p), Show: show}, of))}
		if i == 0 {
			f.elem, f.elemKeys = p, k
		} else {
			f.elem2, f.elemKeys2 = p, k
		}
	}
	return f, true
}
