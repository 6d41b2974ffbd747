package analyzer

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// maxElements bounds the slices the evaluator reads, literal or unrolled.
const MaxElements = 16

// elementsOf returns a slice's elements when the code fixes them:
//
//	keys := []string{"a:1", "a:2"}                     // a literal
//	keys = append(keys, "a:3")                         // appended in straight-line code
//	for _, id := range []int{1, 2} { keys = append(keys, itemKey(id)) } // in a loop over a literal
//	keys := keysFor(7)                                 // a builder's result
//
// An element is an SSA value, or the keys it evaluates to where it has no
// value of its own (an iteration of a loop, a builder's template).
func (e *Evaluator) ElementsOf(v ssa.Value, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	if depth > maxDepth {
		return nil, false
	}
	depth++
	if els, ok := e.sliceEnv[v]; ok {
		return els, true
	}
	if values, ok := SliceElements(v); ok {
		out := make([]Element, len(values))
		for i, val := range values {
			out[i] = Element{Value: val}
		}
		return out, true
	}
	switch v := v.(type) {
	case *ssa.Call:
		if IsBuiltin(v.Call, "append") && len(v.Call.Args) == 2 && appendedOnce(v.Call.Args[0], v) {
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

// elementKeys evaluates one element.
func (e *Evaluator) ElementKeys(el Element, depth int, visiting map[ssa.Value]bool) []Key {
	if el.Value == nil {
		return el.Keys
	}
	return e.eval(UnwrapInterface(el.Value), depth, visiting)
}

// appendedOnce: a slice appended to twice may share its array between the
// two results, each append overwriting the other's element.
func appendedOnce(s ssa.Value, by *ssa.Call) bool {
	refs := s.Referrers()
	if refs == nil {
		return true // a constant: nil
	}
	for _, ref := range *refs {
		if call, ok := ref.(*ssa.Call); ok && ref != by && IsBuiltin(call.Call, "append") {
			return false
		}
		if _, ok := ref.(*ssa.Store); ok {
			return false
		}
	}
	return true
}

func IsBuiltin(c ssa.CallCommon, name string) bool {
	b, ok := c.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}

// summarizedElements reads the slice a builder returns.
func (e *Evaluator) summarizedElements(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return nil, false
	}
	_, elems := e.callees.returns(fn)
	if elems == nil {
		return nil, false
	}
	out := make([]Element, len(elems))
	fresh := e.id(call)
	for i, alts := range elems {
		var ks []Key
		for _, tmpl := range alts {
			ks = append(ks, e.Instantiate(tmpl, call.Call.Args, fresh, depth, visiting)...)
		}
		if len(ks) > MaxAlternatives {
			ks = []Key{UnknownKey(Part{ID: fresh + "/too-many", Show: "…"})}
		}
		out[i] = Element{Keys: ks}
	}
	return out, true
}

// A rangeLoop is `for _, x := range s { ... }` as SSA builds it: a header
// block with an index φ from -1, the test index+1 < len(s), and loads of
// s[index+1] in the body.
type rangeLoop struct {
	slice ssa.Value
	loads []*ssa.UnOp // the reads of the current element
	entry int         // which edge of the header's φs comes from before the loop
}

// rangeLoopOf recognizes the loop whose header holds phi.
func rangeLoopOf(phi *ssa.Phi) (*rangeLoop, bool) {
	b := phi.Block()
	if len(b.Preds) != 2 || len(phi.Edges) != 2 {
		return nil, false
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	less, ok := cond.Cond.(*ssa.BinOp)
	if !ok || less.Op != token.LSS {
		return nil, false
	}
	next, ok := less.X.(*ssa.BinOp)
	if !ok || next.Op != token.ADD || !IsConstInt(next.Y, 1) {
		return nil, false
	}
	index, ok := next.X.(*ssa.Phi)
	if !ok || index.Block() != b || len(index.Edges) != 2 {
		return nil, false
	}
	entry := -1
	for i, edge := range index.Edges {
		if IsConstInt(edge, -1) && index.Edges[1-i] == next {
			entry = i
		}
	}
	lenCall, ok := less.Y.(*ssa.Call)
	if entry < 0 || !ok || !IsBuiltin(lenCall.Call, "len") {
		return nil, false
	}
	loop := &rangeLoop{slice: lenCall.Call.Args[0], entry: entry}
	for _, ref := range *next.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		if ia.X != loop.slice {
			return nil, false
		}
		for _, use := range *ia.Referrers() {
			load, ok := use.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				return nil, false
			}
			loop.loads = append(loop.loads, load)
		}
	}
	return loop, true
}

func IsConstInt(v ssa.Value, n int64) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	got, exact := constant.Int64Val(c.Value)
	return exact && got == n
}

// unroll runs a range loop over a slice the code fixes, one iteration per
// element: each reads as that element, and acc (the loop's accumulator φ)
// as what the iterations before it made. step evaluates the back edge.
func (e *Evaluator) unroll(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool, step func(back ssa.Value, i int) bool) bool {
	loop, ok := rangeLoopOf(phi)
	if !ok {
		return false
	}
	elems, ok := e.ElementsOf(loop.slice, depth, visiting)
	if !ok || len(elems) > MaxElements {
		return false
	}
	back := phi.Edges[1-loop.entry]
	for i, el := range elems {
		if el.Value == nil {
			return false // a loop over a template's elements: not followed
		}
		for _, load := range loop.loads {
			e.valueEnv[load] = el.Value
		}
		ok := step(back, i)
		for _, load := range loop.loads {
			delete(e.valueEnv, load)
		}
		if !ok {
			return false
		}
	}
	return true
}

// unrollSlice reads a slice appended to in a range loop over a fixed slice.
func (e *Evaluator) unrollSlice(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	if visiting[phi] {
		return nil, false
	}
	visiting[phi] = true
	defer delete(visiting, phi)
	loop, ok := rangeLoopOf(phi)
	if !ok {
		return nil, false
	}
	acc, ok := e.ElementsOf(phi.Edges[loop.entry], depth, visiting)
	if !ok {
		return nil, false
	}
	defer delete(e.sliceEnv, phi)
	ok = e.unroll(phi, depth, visiting, func(back ssa.Value, _ int) bool {
		e.sliceEnv[phi] = acc
		next, ok := e.ElementsOf(back, depth, visiting)
		if !ok || len(next) > MaxElements {
			return false
		}
		// Each element's keys now, while the loop variable reads as this
		// iteration's element.
		acc = make([]Element, len(next))
		for i, el := range next {
			acc[i] = Element{Keys: e.ElementKeys(el, depth, visiting)}
		}
		return true
	})
	return acc, ok
}

// unrollString reads a string built up in a range loop, k += x: over a
// fixed slice, iteration by iteration; over a slice parameter, as the
// parameter's elements joined (a variadic builder).
func (e *Evaluator) unrollString(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool) ([]Key, bool) {
	loop, ok := rangeLoopOf(phi)
	if !ok {
		return nil, false
	}
	acc := e.eval(phi.Edges[loop.entry], depth, visiting)
	if p, ok := loop.slice.(*ssa.Parameter); ok {
		add, ok := phi.Edges[1-loop.entry].(*ssa.BinOp)
		if !ok || add.Op != token.ADD || add.X != phi || len(loop.loads) != 1 || add.Y != loop.loads[0] {
			return nil, false
		}
		return Product(acc, []Key{UnknownKey(Part{ID: "join(" + e.id(p) + ")", Show: p.Name(), Param: ParamIndex(p), Join: true})}), true
	}
	defer delete(e.keyEnv, phi)
	ok = e.unroll(phi, depth, visiting, func(back ssa.Value, _ int) bool {
		e.keyEnv[phi] = acc
		acc = e.eval(back, depth, visiting)
		return len(acc) <= MaxAlternatives
	})
	return acc, ok
}

// sliceElements returns the elements of a slice built from a literal (or a
// variadic argument list): an array allocated in the function whose every
// element is stored exactly once, and which is otherwise only read.
func SliceElements(v ssa.Value) ([]ssa.Value, bool) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return nil, true
	}
	s, ok := v.(*ssa.Slice)
	if !ok || s.Low != nil || s.High != nil || s.Max != nil {
		return nil, false
	}
	alloc, ok := s.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	elems := make([]ssa.Value, arr.Len())
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Slice:
			if ref != s {
				return nil, false // sliced twice: may be changed through the other
			}
		case *ssa.IndexAddr:
			idx, ok := ref.Index.(*ssa.Const)
			if !ok {
				return nil, false
			}
			i, exact := constant.Int64Val(idx.Value)
			if !exact || i < 0 || int(i) >= len(elems) {
				return nil, false
			}
			for _, use := range *ref.Referrers() {
				st, ok := use.(*ssa.Store)
				if !ok || st.Addr != ref || elems[i] != nil {
					return nil, false
				}
				elems[i] = st.Val
			}
		default:
			return nil, false
		}
	}
	// The slice itself may be read (indexed and loaded, ranged over, passed
	// on), not written through: a store into it, or a sub-slice that may be
	// written, makes the literal's contents a guess.
	for _, ref := range *s.Referrers() {
		switch ref := ref.(type) {
		case *ssa.IndexAddr:
			for _, use := range *ref.Referrers() {
				if load, ok := use.(*ssa.UnOp); !ok || load.Op != token.MUL {
					return nil, false
				}
			}
		case *ssa.Slice:
			return nil, false
		case *ssa.Call:
			if IsBuiltin(ref.Call, "copy") && ref.Call.Args[0] == s {
				return nil, false
			}
		}
	}
	for _, el := range elems {
		if el == nil {
			return nil, false
		}
	}
	return elems, true
}
