package eval

import (
	"go/types"
	"golang.org/x/tools/go/ssa"
	"slices"
	"strings"

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
	if !e.work.Enter() {
		return nil, false
	}
	defer e.work.Leave()
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
	case *ssa.MakeSlice:
		return nil, emptyUntilAppended(v)
	case *ssa.Call:
		if ssaread.IsAppend(v.Call) && len(v.Call.Args) == 2 && appendedOnce(v.Call.Args[0], v) {
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
		if flat, ok := ssaread.FlatArg(v.Call); ok && appendedOnce(v.Call.Args[0], v) {
			// redigo's args.AddFlat(keys): args' elements, then keys', or
			// a map's keys and values, pair by pair.
			head, ok := e.ElementsOf(v.Call.Args[0], depth, visiting)
			if !ok {
				return nil, false
			}
			tail, ok := e.ElementsOf(flat, depth, visiting)
			if _, isMap := flat.Type().Underlying().(*types.Map); isMap {
				tail, ok = mapPairs(flat)
			}
			if !ok || len(head)+len(tail) > MaxElements {
				return nil, false
			}
			return append(append([]Element(nil), head...), tail...), true
		}
		if els, ok := splitConstant(v); ok {
			return els, true
		}
		return e.summarizedElements(v, depth, visiting)
	case *ssa.Phi:
		if _, loop := loopEntry(v); !loop {
			return e.appendedOnSomePath(v, depth, visiting)
		}
		return e.unrollSlice(v, depth, visiting)
	case *ssa.ChangeType:
		return e.ElementsOf(v.X, depth, visiting) // a named slice type: redigo's Args given as ...interface{}
	case *ssa.UnOp:
		return e.capturedAppends(v, depth, visiting)
	}
	return nil, false
}

// capturedAppends reads a slice variable a closure appends to, read after
// the closure's calls in straight-line code: each call's element, with the
// closure's parameters its arguments.
//
//	var ks []string
//	add := func(id, f string) { ks = append(ks, key(id, f)) }
//	add(a, "x")
//	add(b, "y")
//	rdb.MGet(ctx, ks...) // key(a, "x"), key(b, "y")
//
// The variable is the function's own, written only by that closure, which
// only appends to it; the calls and the read are in one block, so each call
// runs once before the read.
func (e *Evaluator) capturedAppends(load *ssa.UnOp, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || !alloc.Heap || alloc.Parent() != load.Parent() || load.Block() == nil {
		return nil, false
	}
	var closure *ssa.MakeClosure
	var free *ssa.FreeVar
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			fn, ok := ref.Fn.(*ssa.Function)
			i := slices.Index(ref.Bindings, ssa.Value(alloc))
			if closure != nil || !ok || i < 0 || i >= len(fn.FreeVars) {
				return nil, false
			}
			closure, free = ref, fn.FreeVars[i]
		default:
			return nil, false // stored to here, or its address given away
		}
	}
	if closure == nil {
		return nil, false
	}
	body := closure.Fn.(*ssa.Function)
	var appended []ssa.Value
	for _, ref := range *free.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.Store:
			call, ok := ref.Val.(*ssa.Call)
			if appended != nil || !ok || !ssaread.IsAppend(call.Call) || len(call.Call.Args) != 2 {
				return nil, false
			}
			if head, ok := call.Call.Args[0].(*ssa.UnOp); !ok || head.X != ssa.Value(free) {
				return nil, false
			}
			if appended, ok = ssaread.SliceElements(call.Call.Args[1]); !ok || len(appended) == 0 {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if appended == nil {
		return nil, false
	}
	var calls []*ssa.Call
	for _, ref := range *closure.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if ref.Call.Value != ssa.Value(closure) || ref.Block() != load.Block() {
				return nil, false
			}
			if slices.Index(load.Block().Instrs, ssa.Instruction(ref)) < slices.Index(load.Block().Instrs, ssa.Instruction(load)) {
				calls = append(calls, ref)
			}
		default:
			return nil, false // the closure is passed on, or kept
		}
	}
	if len(calls)*len(appended) > MaxElements {
		return nil, false
	}
	slices.SortFunc(calls, func(a, b *ssa.Call) int {
		return slices.Index(load.Block().Instrs, ssa.Instruction(a)) - slices.Index(load.Block().Instrs, ssa.Instruction(b))
	})
	var out []Element
	for _, call := range calls {
		for i, p := range body.Params {
			e.valueEnv[p] = call.Call.Args[i]
		}
		for _, v := range appended {
			out = append(out, Element{Keys: e.eval(ssaread.UnwrapInterface(v), depth, visiting)})
		}
		for _, p := range body.Params {
			delete(e.valueEnv, p)
		}
	}
	return out, true
}

// splitConstant reads strings.Split, strings.Fields and strings.SplitN of
// constants: keys written as one list, "a:1 a:2".
func splitConstant(call *ssa.Call) ([]Element, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "strings" {
		return nil, false
	}
	args := call.Call.Args
	s, ok := ssaread.ConstString(args[0])
	if !ok {
		return nil, false
	}
	var parts []string
	switch fn.Name() {
	case "Fields":
		parts = strings.Fields(s)
	case "Split":
		sep, ok := ssaread.ConstString(args[1])
		if !ok {
			return nil, false
		}
		parts = strings.Split(s, sep)
	default:
		return nil, false
	}
	if len(parts) > MaxElements {
		return nil, false
	}
	out := make([]Element, len(parts))
	for i, p := range parts {
		out[i] = Element{Keys: []keymodel.Key{keymodel.TextKey(p)}}
	}
	return out, true
}

// ElementKeys evaluates one element.
func (e *Evaluator) ElementKeys(el Element, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	if el.Value == nil {
		return el.Keys
	}
	return e.eval(ssaread.UnwrapInterface(el.Value), depth, visiting)
}

// appendedOnSomePath reads a slice appended to under a condition, the φ of
// the slice and the slice with more appended:
//
//	keys := []string{a}
//	if withB { keys = append(keys, b) }
//
// as all its elements: the command meets every pair of them on the path
// that appends. Branches that append to it each (if/else) are not read: their
// elements never meet.
func (e *Evaluator) appendedOnSomePath(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	if len(phi.Edges) != 2 || visiting[phi] {
		return nil, false
	}
	for i, edge := range phi.Edges {
		base := phi.Edges[1-i]
		if appendsTo(edge, base) {
			visiting[phi] = true
			defer delete(visiting, phi)
			return e.ElementsOf(edge, depth, visiting)
		}
	}
	return nil, false
}

// emptyUntilAppended: make([]T, 0, n) whose only use is being appended to,
// here or as a loop's accumulator (a φ).
func emptyUntilAppended(mk *ssa.MakeSlice) bool {
	if !ssaread.IsConstInt(mk.Len, 0) {
		return false
	}
	for _, ref := range *mk.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Call:
			if !ssaread.IsBuiltin(ref.Call, "append") || ref.Call.Args[0] != ssa.Value(mk) {
				return false
			}
		case *ssa.Phi, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// LeadingElements returns the elements a slice surely starts with, and
// whether they are all of its elements: a slice the code fixes (see
// ElementsOf), or one whose first appends the code fixes while later ones,
// in a loop over input, it does not:
//
//	args := make([]any, 0, 1+len(ids))
//	args = append(args, queueKey)         // the slice starts with queueKey
//	for _, id := range ids { args = append(args, id) }
func (e *Evaluator) LeadingElements(v ssa.Value) ([]Element, bool) {
	return e.leading(v, 0, map[ssa.Value]bool{})
}

func (e *Evaluator) leading(v ssa.Value, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	if !e.work.Enter() {
		return nil, false
	}
	defer e.work.Leave()
	if els, ok := e.ElementsOf(v, depth, visiting); ok {
		return els, true
	}
	if depth > maxDepth || visiting[v] {
		return nil, false
	}
	visiting[v] = true
	defer delete(visiting, v)
	depth++
	switch v := v.(type) {
	case *ssa.Call:
		if !ssaread.IsAppend(v.Call) || len(v.Call.Args) != 2 || !appendedOnce(v.Call.Args[0], v) {
			return nil, false
		}
		head, whole := e.leading(v.Call.Args[0], depth, visiting)
		if !whole {
			return head, false
		}
		tail, whole := e.leading(v.Call.Args[1], depth, visiting)
		return append(append([]Element(nil), head...), tail...), whole
	case *ssa.Phi:
		// A slice appended to in a loop: what every way into the loop
		// starts with; the way around only appends to it.
		var lead []Element
		entries := 0
		for _, edge := range v.Edges {
			if appendsTo(edge, v) {
				continue
			}
			els, _ := e.leading(edge, depth, visiting)
			if entries == 0 {
				lead = els
			} else {
				lead = commonPrefix(lead, els)
			}
			entries++
		}
		return lead, false
	}
	return nil, false
}

// appendsTo: v is the slice s with elements appended, s used by nothing
// else that appends.
func appendsTo(v, s ssa.Value) bool {
	for range maxDepth {
		call, ok := v.(*ssa.Call)
		if !ok || !ssaread.IsAppend(call.Call) || !appendedOnce(call.Call.Args[0], call) {
			return false
		}
		if v = call.Call.Args[0]; v == s {
			return true
		}
	}
	return false
}

// commonPrefix is the elements a and b both start with, the same values.
func commonPrefix(a, b []Element) []Element {
	n := 0
	for n < len(a) && n < len(b) && a[n].Value != nil && a[n].Value == b[n].Value {
		n++
	}
	return a[:n]
}

// feedsOnly reports an append whose result goes only back into the loop's
// accumulator φ s (acc = append(acc, x) in a loop, then one append after
// it): it is dead once the loop is left, so it shares no element with an
// append after the loop.
func feedsOnly(call *ssa.Call, s ssa.Value) bool {
	phi, ok := s.(*ssa.Phi)
	if !ok {
		return false
	}
	for _, ref := range *call.Referrers() {
		if _, debug := ref.(*ssa.DebugRef); debug {
			continue
		}
		if ref != ssa.Instruction(phi) {
			return false
		}
	}
	return true
}

// appendedOnce: a slice appended to twice may share its array between the
// two results, each append overwriting the other's element.
func appendedOnce(s ssa.Value, by *ssa.Call) bool {
	refs := s.Referrers()
	if refs == nil {
		return true // a constant: nil
	}
	for _, ref := range *refs {
		if call, ok := ref.(*ssa.Call); ok && ref != by && ssaread.IsAppend(call.Call) && !feedsOnly(call, s) && (by == nil || !feedsOnly(by, s)) {
			return false
		}
		if st, ok := ref.(*ssa.Store); ok && !intoLiteral(st) {
			return false
		}
	}
	return true
}

// intoLiteral: a store of a slice into a field of a struct the function
// makes (&redis.ZStore{Keys: ks}): the struct's readers see that field's
// one value, and a second write of it is theirs to refuse.
func intoLiteral(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	_, ok = fa.X.(*ssa.Alloc)
	return ok
}

// mapPairs reads a map the function makes and fills where it is made,
// with nothing else done to it but handing it on once (redigo's AddFlat):
// each key and its value, in the order set. The order a map is ranged in
// differs, but a key stays before its value, which is what a command of
// pairs (MSET, HSET) reads.
func mapPairs(m ssa.Value) ([]Element, bool) {
	mk, ok := m.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	var out []Element
	var updates []*ssa.MapUpdate
	var handed *ssa.MakeInterface
	for _, ref := range *mk.Referrers() {
		switch ref := ref.(type) {
		case *ssa.MapUpdate:
			if ref.Block() != mk.Block() {
				return nil, false // set on some path only
			}
			updates = append(updates, ref)
			out = append(out, Element{Value: ref.Key}, Element{Value: ref.Value})
		case *ssa.MakeInterface:
			if handed != nil {
				return nil, false
			}
			handed = ref
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	if handed == nil || len(out) > MaxElements {
		return nil, false
	}
	for _, u := range updates {
		if !ssaread.Dominates(u, handed) {
			return nil, false // set after it was handed on
		}
	}
	return out, true
}
