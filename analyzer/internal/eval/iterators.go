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
						f, ok := e.yieldLoop(st, body, iterator, before)
						f.body = ref
						return f, ok
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
	f := loopFamily{init: init, added: list[0], of: "values of " + e.Show(iterator), iterator: iterator}
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

// yieldParamMap reads a family a range-over-func loop collects by calling
// the function's function parameter with each value of its iterator
// parameter, Collect[T any](seq iter.Seq[T], key func(T) string) []string
// (see ParamMap): the iterator parameter's number and the function
// parameter's.
func yieldParamMap(f loopFamily) (of, by int, ok bool) {
	it, isParam := f.iterator.(*ssa.Parameter)
	call, isCall := ssaread.UnwrapInterface(f.added).(*ssa.Call)
	if !isParam || !isCall || f.body == nil || len(f.init) > 0 || call.Call.IsInvoke() || len(call.Call.Args) != 1 || call.Call.Args[0] != f.elem {
		return 0, 0, false
	}
	callee, loaded := call.Call.Value, false
	if load, ok := callee.(*ssa.UnOp); ok && load.Op == token.MUL {
		callee, loaded = load.X, true // captured by address: *key
	}
	fv, isFree := callee.(*ssa.FreeVar)
	body, isFn := f.body.Fn.(*ssa.Function)
	if !isFree || !isFn {
		return 0, 0, false
	}
	for i, v := range body.FreeVars {
		if v != fv || i >= len(f.body.Bindings) {
			continue
		}
		bound := f.body.Bindings[i]
		if loaded {
			bound = onlyStored(bound)
		}
		if fp, isParam := bound.(*ssa.Parameter); isParam && fp.Parent() == it.Parent() {
			return ssaread.ParamIndex(it), ssaread.ParamIndex(fp), true
		}
	}
	return 0, 0, false
}

// onlyStored is the one value stored into a local variable that is
// otherwise only read (a parameter a closure captures by address), nil
// for anything else.
func onlyStored(v ssa.Value) ssa.Value {
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if stored != nil || ref.Addr != ssa.Value(alloc) {
				return nil
			}
			stored = ref.Val
		case *ssa.UnOp, *ssa.MakeClosure, *ssa.DebugRef:
		default:
			return nil
		}
	}
	return stored
}
