package eval

import (
	"go/constant"
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A rangeLoop is `for _, x := range s { ... }` as SSA builds it: a header
// block with an index φ from -1, the test index+1 < len(s), and loads of
// s[index+1] in the body.
type rangeLoop struct {
	slice ssa.Value
	loads []*ssa.UnOp // the reads of the current element
	entry int         // which edge of the header's φs comes from before the loop
}

// headerTest is the comparison that ends a loop header holding phi: a
// block entered from before the loop and from its body, that branches on
// the comparison.
func headerTest(phi *ssa.Phi) (*ssa.BinOp, bool) {
	b := phi.Block()
	if len(b.Preds) != 2 || len(phi.Edges) != 2 {
		return nil, false
	}
	return endTest(b)
}

// rangeLoopOf recognizes the loop whose header holds phi.
func rangeLoopOf(phi *ssa.Phi) (*rangeLoop, bool) {
	b := phi.Block()
	less, ok := headerTest(phi)
	if !ok || less.Op != token.LSS {
		return nil, false
	}
	next, ok := less.X.(*ssa.BinOp)
	if !ok || next.Op != token.ADD || !ssaread.IsConstInt(next.Y, 1) {
		return nil, false
	}
	index, ok := next.X.(*ssa.Phi)
	if !ok || index.Block() != b || len(index.Edges) != 2 {
		return nil, false
	}
	entry := -1
	for i, edge := range index.Edges {
		if ssaread.IsConstInt(edge, -1) && index.Edges[1-i] == next {
			entry = i
		}
	}
	lenCall, ok := less.Y.(*ssa.Call)
	if entry < 0 || !ok || !ssaread.IsBuiltin(lenCall.Call, "len") {
		return nil, false
	}
	loop := &rangeLoop{slice: lenCall.Call.Args[0], entry: entry}
	for _, ref := range *next.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok || ia.X != loop.slice {
			continue // not a read of the element: another slice at the same index
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

// A countedLoop is `for i := a; i < b; i++ { ... }` (or i <= b) as SSA
// builds it: a header block with an index φ from the constant a, the test
// against the bound b, and i+1 on the way around. With a constant bound
// the evaluator unrolls it; with a bound the code does not fix (an open
// loop) it cannot, but i differs from one iteration to the next.
type countedLoop struct {
	index    *ssa.Phi
	entry    int // which edge of the header's φs comes from before the loop
	from, to int64
	bound    ssa.Value // the bound as written, constant or not
	fixed    bool      // the bound is a constant: to is b (b+1 for <=)
	op       token.Token
}

// countedHeader recognizes the counted loop whose header holds phi.
func countedHeader(phi *ssa.Phi) (*countedLoop, bool) {
	test, ok := headerTest(phi)
	if !ok || (test.Op != token.LSS && test.Op != token.LEQ) {
		return nil, false
	}
	index, ok := test.X.(*ssa.Phi)
	if !ok || index.Block() != phi.Block() || len(index.Edges) != 2 {
		return nil, false
	}
	bound, fixed := ssaread.ConstInt(test.Y)
	if fixed && test.Op == token.LEQ {
		bound++
	}
	for entry, edge := range index.Edges {
		from, isConst := ssaread.ConstInt(edge)
		next, isAdd := index.Edges[1-entry].(*ssa.BinOp)
		if !isAdd || next.Op != token.ADD || next.X != ssa.Value(index) || !ssaread.IsConstInt(next.Y, 1) {
			continue
		}
		if !isConst {
			// for d := last - 6; d <= last; d++: a start the code does not
			// fix, a loop the evaluator cannot unroll (fixed false)
			fixed = false
		}
		return &countedLoop{index: index, entry: entry, from: from, to: bound, bound: test.Y, fixed: fixed, op: test.Op}, true
	}
	return nil, false
}

// rangeIntOf recognizes the index of `for i := range n { ... }` as SSA
// builds it: no header, the test 0 < n before the loop, and at the end of
// each iteration i+1 < n, back to the body, whose first block holds the
// index φ from 0 and i+1.
func rangeIntOf(phi *ssa.Phi) (*countedLoop, bool) {
	if len(phi.Edges) != 2 || len(phi.Block().Preds) != 2 {
		return nil, false
	}
	for entry, edge := range phi.Edges {
		next, isAdd := phi.Edges[1-entry].(*ssa.BinOp)
		if !ssaread.IsConstInt(edge, 0) || !isAdd || next.Op != token.ADD || next.X != ssa.Value(phi) || !ssaread.IsConstInt(next.Y, 1) {
			continue
		}
		first, ok := endTest(phi.Block().Preds[entry])
		if !ok || first.Op != token.LSS || !ssaread.IsConstInt(first.X, 0) {
			return nil, false
		}
		again, ok := endTest(phi.Block().Preds[1-entry])
		if !ok || again.Op != token.LSS || again.X != ssa.Value(next) || again.Y != first.Y {
			return nil, false
		}
		to, fixed := ssaread.ConstInt(first.Y)
		return &countedLoop{index: phi, entry: entry, to: to, bound: first.Y, fixed: fixed, op: token.LSS}, true
	}
	return nil, false
}

// endTest is the comparison a block branches on, if it ends in one.
func endTest(b *ssa.BasicBlock) (*ssa.BinOp, bool) {
	if len(b.Instrs) == 0 {
		return nil, false
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	test, ok := cond.Cond.(*ssa.BinOp)
	return test, ok
}

// openIndexOf recognizes the index of a counted loop, or of a range over
// an integer, whose bound the code does not fix: it differs from one
// iteration to the next.
func openIndexOf(phi *ssa.Phi) (*countedLoop, bool) {
	if loop, ok := openLoopOf(phi); ok && loop.index == phi {
		return loop, true
	}
	if loop, ok := rangeIntOf(phi); ok && !loop.fixed {
		return loop, true
	}
	return nil, false
}

// countedLoopOf recognizes the counted loop of constant bounds whose
// header holds phi.
func countedLoopOf(phi *ssa.Phi) (*countedLoop, bool) {
	loop, ok := countedHeader(phi)
	return loop, ok && loop.fixed
}

// openLoopOf recognizes the counted loop with a bound the code does not fix
// whose header holds phi.
func openLoopOf(phi *ssa.Phi) (*countedLoop, bool) {
	loop, ok := countedHeader(phi)
	return loop, ok && !loop.fixed
}

// loopEntry says whether phi is in the header of a loop the evaluator can
// unroll, and which of its edges comes from before the loop.
func loopEntry(phi *ssa.Phi) (int, bool) {
	if loop, ok := rangeLoopOf(phi); ok {
		return loop.entry, true
	}
	if loop, ok := countedLoopOf(phi); ok {
		return loop.entry, true
	}
	return 0, false
}

// unroll runs a loop one iteration at a time: a range loop over a slice the
// code fixes, each iteration reading as its element, or a counted loop of
// constant bounds, each reading its index as a constant; acc (the loop's
// accumulator φ) reads as what the iterations before it made. step
// evaluates the back edge.
func (e *Evaluator) unroll(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool, step func(back ssa.Value, i int) bool) bool {
	if counted, ok := countedLoopOf(phi); ok {
		n := counted.to - counted.from
		if n < 0 || n > MaxElements {
			return false
		}
		back := phi.Edges[1-counted.entry]
		defer delete(e.valueEnv, counted.index)
		for k := range n {
			e.valueEnv[counted.index] = ssa.NewConst(constant.MakeInt64(counted.from+k), counted.index.Type())
			if !step(back, int(k)) {
				return false
			}
		}
		return true
	}
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
	entry, ok := loopEntry(phi)
	if !ok {
		return nil, false
	}
	acc, ok := e.ElementsOf(phi.Edges[entry], depth, visiting)
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
func (e *Evaluator) unrollString(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	entry, ok := loopEntry(phi)
	if !ok {
		return nil, false
	}
	acc := e.eval(phi.Edges[entry], depth, visiting)
	if loop, ok := rangeLoopOf(phi); ok {
		if p, ok := loop.slice.(*ssa.Parameter); ok {
			add, ok := phi.Edges[1-loop.entry].(*ssa.BinOp)
			if !ok || add.Op != token.ADD || add.X != phi || len(loop.loads) != 1 {
				return nil, false
			}
			if add.Y == loop.loads[0] {
				return keymodel.Product(acc, []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: "join(" + e.id(p) + ")", Show: p.Name(), Param: ssaread.ParamIndex(p), Join: true})}), true
			}
			// k += sep + p: each element after sep.
			each, ok := add.Y.(*ssa.BinOp)
			if !ok || each.Op != token.ADD || each.Y != loop.loads[0] {
				return nil, false
			}
			sep, isConst := ssaread.ConstString(each.X)
			if !isConst {
				return nil, false
			}
			return keymodel.Product(acc, []keymodel.Key{leadJoin(e.id(p), p, sep)}), true
		}
	}
	defer delete(e.keyEnv, phi)
	ok = e.unroll(phi, depth, visiting, func(back ssa.Value, _ int) bool {
		e.keyEnv[phi] = acc
		acc = e.eval(back, depth, visiting)
		return len(acc) <= keymodel.MaxAlternatives
	})
	return acc, ok
}

// Family reads a slice that a loop the code does not fix the length of
// adds one key to per iteration:
//
//	for _, t := range tags { ks = append(ks, "tag:"+t) }          // an input's elements
//	ks := make([]string, 0, len(tags)); for ... { ks = append(...) } // made empty first
//	args := make([]any, len(names)); for i, n := range names { args[i] = "flag:" + n } // stored by index
//	for i := 0; i < days; i++ { ks = append(ks, dayKey(i)) }          // a bound the code does not fix
//
// It returns the elements the slice has before the loop, the key each
// iteration adds (the element, or the loop's index, in it a part that
// differs from one iteration to the next, keymodel.ElementPart), and what
// the iterations range over, for messages ("elements of tags"). ok is false
// for any other slice.
func (e *Evaluator) Family(v ssa.Value) (init []Element, each []keymodel.Key, of string, ok bool) {
	init, each, of, _, ok = e.family(v)
	return init, each, of, ok
}

// EachAdded reads a slice a loop adds one value per iteration to, as
// Family does, for values that are not keys (a rueidis command a loop
// builds): the values added before and after the loop, what the loop
// ranges over, and each called with the value one iteration adds while it
// reads as the loop's element (its keys hold an element part).
func (e *Evaluator) EachAdded(v ssa.Value, each func(added ssa.Value)) (init []Element, of string, ok bool) {
	f, ok := e.familyOf(v)
	if !ok || f.added == nil {
		return nil, "", false
	}
	defer e.enter(f)()
	for _, load := range f.loads[min(1, len(f.loads)):] {
		e.valueEnv[load] = f.loads[0]
		defer delete(e.valueEnv, load)
	}
	each(ssaread.UnwrapInterface(f.added))
	return f.init, f.of, true
}

// family is Family, and the slice the loop ranges over (nil for a loop
// with a bound).
func (e *Evaluator) family(v ssa.Value) (init []Element, each []keymodel.Key, of string, slice ssa.Value, ok bool) {
	f, ok := e.familyOf(v)
	if !ok {
		return nil, nil, "", nil, false
	}
	if f.each != nil {
		return f.init, f.each, f.of, f.slice, true
	}
	defer e.enter(f)()
	slice = f.slice
	if slice == nil {
		slice = f.iterator // a range over a function: its values are the elements
	}
	return f.init, e.elementKeys(f.loads, f.added), f.of, slice, true
}

// enter reads the loop's element as the family says (a range over a map's
// keys, a range-over-func body's parameters) until the returned leave.
func (e *Evaluator) enter(f loopFamily) (leave func()) {
	if f.elem != nil {
		e.keyEnv[f.elem] = f.elemKeys
	}
	if f.elem2 != nil {
		e.keyEnv[f.elem2] = f.elemKeys2
	}
	return func() {
		if f.elem != nil {
			delete(e.keyEnv, f.elem)
		}
		if f.elem2 != nil {
			delete(e.keyEnv, f.elem2)
		}
	}
}

// A loopFamily is how a loop adds one value per iteration to a slice.
type loopFamily struct {
	init  []Element   // the elements before the loop
	loads []*ssa.UnOp // the reads of a range loop's element
	added ssa.Value   // the value one iteration adds
	of    string      // what the iterations range over, for messages
	slice ssa.Value   // the slice a range loop ranges over, else nil
	// each is the key each iteration adds, when known without added (a
	// map's keys collected); elem, when set, reads as elemKeys in added
	// (a range over a map's keys).
	each     []keymodel.Key
	elem     ssa.Value
	elemKeys []keymodel.Key
	// elem2 is a second value read so, a range-over-func body's second
	// parameter (iter.Seq2).
	elem2     ssa.Value
	elemKeys2 []keymodel.Key
	// iterator is what a range-over-func loop calls, body its yield
	// closure (see yieldFamily).
	iterator ssa.Value
	body     *ssa.MakeClosure
}

func (e *Evaluator) familyOf(v ssa.Value) (loopFamily, bool) {
	if !e.work.Enter() {
		return loopFamily{}, false
	}
	defer e.work.Leave()
	switch v := v.(type) {
	case *ssa.Phi:
		if f, ok := e.appendedFamily(v); ok {
			return f, true
		}
		return e.mapRangeFamily(v)
	case *ssa.MakeSlice:
		return e.storedFamily(v)
	case *ssa.Call:
		if f, ok := e.fieldAppendFamily(v); ok {
			return f, true
		}
		if ssaread.IsAppend(v.Call) && len(v.Call.Args) == 2 && appendedOnce(v.Call.Args[0], v) {
			// The family, then keys appended after the loop.
			f, ok := e.familyOf(v.Call.Args[0])
			if !ok {
				return loopFamily{}, false
			}
			tail, ok := e.ElementsOf(v.Call.Args[1], 0, map[ssa.Value]bool{})
			if !ok || len(f.init)+len(tail) > MaxElements {
				return loopFamily{}, false
			}
			f.init = append(slices.Clone(f.init), tail...)
			return f, true
		}
		return e.collectedMapFamily(v)
	case *ssa.UnOp:
		if f, ok := e.yieldFamily(v); ok {
			return f, true
		}
		return e.capturedFamily(v)
	case *ssa.ChangeType:
		return e.familyOf(v.X) // redigo's Args given as ...interface{}
	}
	return loopFamily{}, false
}

// appendedFamily reads a slice appended to in a loop over an input, or a
// loop with a bound the code does not fix.
func (e *Evaluator) appendedFamily(phi *ssa.Phi) (loopFamily, bool) {
	return e.appendedTuples(phi, 1)
}

// TupleFamily reads a slice a loop appends n values to per iteration, a
// key first (MSET's key, value pairs): the keys before the loop (every
// n-th element from the first), and the key each iteration adds.
func (e *Evaluator) TupleFamily(v ssa.Value, n int) (init []Element, each []keymodel.Key, of string, ok bool) {
	if ct, isChange := v.(*ssa.ChangeType); isChange {
		v = ct.X
	}
	phi, isPhi := v.(*ssa.Phi)
	if !isPhi || n < 2 {
		return nil, nil, "", false
	}
	f, ok := e.appendedTuples(phi, n)
	if !ok || len(f.init)%n != 0 {
		return nil, nil, "", false
	}
	for i := 0; i < len(f.init); i += n {
		init = append(init, f.init[i])
	}
	return init, e.elementKeys(f.loads, f.added), f.of, true
}

// appendedTuples is appendedFamily for n values appended per iteration,
// the first of them added.
func (e *Evaluator) appendedTuples(phi *ssa.Phi, n int) (loopFamily, bool) {
	var f loopFamily
	var entry int
	if loop, isLoop := rangeLoopOf(phi); isLoop {
		if _, fixed := e.ElementsOf(loop.slice, 0, map[ssa.Value]bool{}); fixed {
			return loopFamily{}, false // unrolled instead
		}
		entry, f.loads, f.of, f.slice = loop.entry, loop.loads, "elements of "+e.Show(loop.slice), loop.slice
		if len(f.loads) == 0 {
			return loopFamily{}, false
		}
	} else if loop, isOpen := openLoopOf(phi); isOpen {
		entry, f.of = loop.entry, "iterations of the loop on "+e.Show(loop.index)+" < "+e.Show(loop.bound)
	} else if acc, loop, isRange := rangeIntExit(phi); isRange {
		phi, entry, f.of = acc, loop.entry, "iterations of the loop on "+e.Show(loop.index)+" < "+e.Show(loop.bound)
	} else {
		return loopFamily{}, false
	}
	init, added, ok := e.appendsTuple(phi, entry, n)
	if !ok {
		return loopFamily{}, false
	}
	f.init, f.added = init, added
	return f, true
}

// rangeIntExit reads the slice a range over an integer the code does not
// fix leaves, a φ after the loop of what it started with (no iteration)
// and what the last iteration made: the accumulator's φ at the start of
// the body, and the loop.
func rangeIntExit(exit *ssa.Phi) (*ssa.Phi, *countedLoop, bool) {
	if len(exit.Edges) != 2 {
		return nil, nil, false
	}
	for k, edge := range exit.Edges {
		add, isCall := edge.(*ssa.Call)
		if !isCall || !ssaread.IsAppend(add.Call) || len(add.Call.Args) == 0 {
			continue
		}
		acc, isPhi := add.Call.Args[0].(*ssa.Phi)
		if !isPhi || len(acc.Edges) != 2 {
			continue
		}
		for _, instr := range acc.Block().Instrs {
			index, isPhi := instr.(*ssa.Phi)
			if !isPhi {
				break
			}
			loop, ok := rangeIntOf(index)
			if !ok || loop.fixed {
				continue
			}
			preds := acc.Block().Preds
			if acc.Edges[1-loop.entry] == edge && acc.Edges[loop.entry] == exit.Edges[1-k] &&
				exit.Block().Preds[k] == preds[1-loop.entry] && exit.Block().Preds[1-k] == preds[loop.entry] {
				return acc, loop, true
			}
		}
	}
	return nil, nil, false
}

// storedFamily reads a slice made with the length of an input and filled
// by index in a range loop over that input.
func (e *Evaluator) storedFamily(mk *ssa.MakeSlice) (loopFamily, bool) {
	if !writtenByIndexOnly(mk) {
		return loopFamily{}, false
	}
	var store *ssa.Store
	var loop *rangeLoop
	for _, ref := range *mk.Referrers() {
		ia, isIndex := ref.(*ssa.IndexAddr)
		if !isIndex {
			continue
		}
		if phi, isPhi := ia.Index.(*ssa.Phi); isPhi {
			return e.storedByIndex(mk, phi)
		}
		next, isNext := ia.Index.(*ssa.BinOp)
		if !isNext || store != nil {
			return loopFamily{}, false // stored at another index, or twice
		}
		index, isPhi := next.X.(*ssa.Phi)
		if !isPhi {
			return loopFamily{}, false
		}
		l, isLoop := rangeLoopOf(index)
		if !isLoop || !sameLen(mk.Len, l.slice) {
			return loopFamily{}, false // some elements would stay ""
		}
		for _, use := range *ia.Referrers() {
			st, isStore := use.(*ssa.Store)
			if !isStore || st.Addr != ia || store != nil {
				return loopFamily{}, false
			}
			store = st
		}
		loop = l
	}
	if store == nil {
		return loopFamily{}, false
	}
	if _, fixed := e.ElementsOf(loop.slice, 0, map[ssa.Value]bool{}); fixed {
		return loopFamily{}, false
	}
	return loopFamily{loads: loop.loads, added: store.Val, of: "elements of " + e.Show(loop.slice), slice: loop.slice}, true
}

// MapFamily reads a map a range loop fills, one key per element, in the
// loop's one-block body:
//
//	kv := make(map[string]string, len(ms)); for _, m := range ms { kv["hold:"+m] = why }
//
// It returns the key each iteration writes (the element in it, a part
// that differs from one iteration to the next) and what the loop ranges
// over, for messages; ok is false for any other map, and for a loop over
// elements the code fixes.
func (e *Evaluator) MapFamily(update *ssa.MapUpdate) (each []keymodel.Key, of string, ok bool) {
	blk := update.Block()
	if len(blk.Succs) != 1 {
		return nil, "", false
	}
	loop, ok := rangeBodyOf(blk, blk.Succs[0])
	if !ok {
		return nil, "", false
	}
	if _, fixed := e.ElementsOf(loop.slice, 0, map[ssa.Value]bool{}); fixed {
		return nil, "", false
	}
	return e.elementKeys(loop.loads, update.Key), "elements of " + e.Show(loop.slice), true
}

// storedByIndex reads a slice made with the bound of a loop the code does
// not fix and filled at the loop's index, from 0:
//
//	keys := make([]string, n)
//	for i := range n { keys[i] = "b:" + strconv.Itoa(i) }
func (e *Evaluator) storedByIndex(mk *ssa.MakeSlice, index *ssa.Phi) (loopFamily, bool) {
	loop, isOpen := openIndexOf(index)
	if !isOpen || loop.from != 0 || loop.op != token.LSS || !sameValue(loop.bound, mk.Len) {
		return loopFamily{}, false // some elements would stay ""
	}
	var store *ssa.Store
	for _, ref := range *mk.Referrers() {
		ia, isIndex := ref.(*ssa.IndexAddr)
		if !isIndex {
			continue
		}
		if ia.Index != ssa.Value(index) {
			return loopFamily{}, false // stored at another index
		}
		for _, use := range *ia.Referrers() {
			st, isStore := use.(*ssa.Store)
			if !isStore || st.Addr != ia || store != nil {
				return loopFamily{}, false
			}
			store = st
		}
	}
	if store == nil {
		return loopFamily{}, false
	}
	return loopFamily{added: store.Val, of: "iterations of the loop on " + e.Show(index) + " < " + e.Show(loop.bound)}, true
}

// writtenByIndexOnly: nothing writes into the slice but its stores by
// index, no copy into it nor into a slice of it, and it is kept nowhere.
func writtenByIndexOnly(mk *ssa.MakeSlice) bool {
	for _, ref := range *mk.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if fa, ok := ref.Addr.(*ssa.FieldAddr); ok && ref.Val == ssa.Value(mk) {
				if _, local := fa.X.(*ssa.Alloc); local {
					continue // the field of an options literal: &redis.ZStore{Keys: srcs}
				}
			}
			return false
		case *ssa.Slice:
			return false
		case *ssa.Call:
			if ssaread.IsBuiltin(ref.Call, "copy") {
				return false
			}
		}
	}
	return true
}

// sameValue: a and b are one value, or the lengths of one slice.
func sameValue(a, b ssa.Value) bool {
	if call, ok := a.(*ssa.Call); ok && ssaread.IsBuiltin(call.Call, "len") {
		return a == b || sameLen(b, call.Call.Args[0])
	}
	return a == b
}

// sameLen: n is len(s).
func sameLen(n, s ssa.Value) bool {
	call, ok := n.(*ssa.Call)
	return ok && ssaread.IsBuiltin(call.Call, "len") && call.Call.Args[0] == s
}

// elementKeys evaluates what one iteration adds, every read of the
// element one value, shown as the input's element; its parts are marked
// where they are read (loopElement).
func (e *Evaluator) elementKeys(loads []*ssa.UnOp, added ssa.Value) []keymodel.Key {
	if len(loads) > 0 {
		for _, load := range loads[1:] {
			e.valueEnv[load] = loads[0]
		}
		defer func() {
			for _, load := range loads[1:] {
				delete(e.valueEnv, load)
			}
		}()
	}
	return e.Keys(ssaread.UnwrapInterface(added))
}

// appendsOne reads a loop's accumulator φ that each iteration appends one
// element to, once (acc = append(acc, x)): the elements it starts with, and
// the value appended.
func (e *Evaluator) appendsOne(phi *ssa.Phi, entry int) (init []Element, added ssa.Value, ok bool) {
	return e.appendsTuple(phi, entry, 1)
}

// appendsTuple is appendsOne for n values appended at once, the first
// of them added.
func (e *Evaluator) appendsTuple(phi *ssa.Phi, entry, n int) (init []Element, added ssa.Value, ok bool) {
	add, isCall := phi.Edges[1-entry].(*ssa.Call)
	if !isCall || !ssaread.IsAppend(add.Call) || len(add.Call.Args) != 2 || add.Call.Args[0] != ssa.Value(phi) || !appendedOnce(phi, add) {
		return nil, nil, false
	}
	list, isList := ssaread.SliceElements(add.Call.Args[1])
	if !isList || len(list) != n {
		return nil, nil, false
	}
	init, ok = e.ElementsOf(phi.Edges[entry], 0, map[ssa.Value]bool{})
	if !ok {
		return nil, nil, false
	}
	return init, list[0], true
}

// leadJoin is every element of the slice parameter p, each after sep.
func leadJoin(id string, p *ssa.Parameter, sep string) keymodel.Key {
	return keymodel.UnknownKey(keymodel.Part{ID: "each(" + id + "," + sep + ")", Show: p.Name(), Param: ssaread.ParamIndex(p), Verb: sep, Join: true, Lead: true})
}

// FamilyThenOnePerElement reads a slice filled by two range loops over one
// input, each appending one value per element: the first loop's family,
// then as many values again (XREAD's streams, then an ID for each). It
// returns the first loop's family, with what was in the slice before it.
func (e *Evaluator) FamilyThenOnePerElement(v ssa.Value) (init []Element, each []keymodel.Key, of string, ok bool) {
	second, isPhi := v.(*ssa.Phi)
	if !isPhi {
		return nil, nil, "", false
	}
	loop2, isLoop := rangeLoopOf(second)
	if !isLoop {
		return nil, nil, "", false
	}
	add, isCall := second.Edges[1-loop2.entry].(*ssa.Call)
	if !isCall || !ssaread.IsAppend(add.Call) || add.Call.Args[0] != ssa.Value(second) {
		return nil, nil, "", false
	}
	if list, isList := ssaread.SliceElements(add.Call.Args[1]); !isList || len(list) != 1 {
		return nil, nil, "", false
	}
	first, isPhi := second.Edges[loop2.entry].(*ssa.Phi)
	if !isPhi {
		return nil, nil, "", false
	}
	loop1, isLoop := rangeLoopOf(first)
	if !isLoop || loop1.slice != loop2.slice {
		return nil, nil, "", false
	}
	f, ok := e.appendedFamily(first)
	if !ok || len(f.init) != 0 {
		return nil, nil, "", false // the halves split only from an empty start
	}
	return nil, e.elementKeys(f.loads, f.added), f.of, true
}

// fieldAppendFamily reads a slice a range loop appends to in a field of a
// local struct, the field's one write:
//
//	z := &redis.ZStore{Aggregate: "SUM"}
//	for _, c := range cs { z.Keys = append(z.Keys, "views:"+c) }
//
// a family over the slice's elements, the field empty before the loop.
func (e *Evaluator) fieldAppendFamily(add *ssa.Call) (loopFamily, bool) {
	if !ssaread.IsAppend(add.Call) || len(add.Call.Args) != 2 {
		return loopFamily{}, false
	}
	load, ok := add.Call.Args[0].(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return loopFamily{}, false
	}
	from, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return loopFamily{}, false
	}
	alloc, ok := from.X.(*ssa.Alloc)
	if !ok {
		return loopFamily{}, false
	}
	writes := 0
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.Field != from.Field {
			continue
		}
		for _, use := range *fa.Referrers() {
			switch use := use.(type) {
			case *ssa.Store:
				if use.Addr != ssa.Value(fa) || use.Val != ssa.Value(add) {
					return loopFamily{}, false // written otherwise too, or its address passed on
				}
				writes++
			case *ssa.UnOp, *ssa.DebugRef:
			default:
				return loopFamily{}, false
			}
		}
	}
	if writes != 1 {
		return loopFamily{}, false
	}
	return e.appendedInRangeLoop(add)
}

// appendedInRangeLoop is the family a range loop over a slice makes by
// appending add's one element to a variable in memory (a struct's field,
// a local a closure captures) on each iteration, the variable empty before
// the loop.
func (e *Evaluator) appendedInRangeLoop(add *ssa.Call) (loopFamily, bool) {
	list, isList := ssaread.SliceElements(add.Call.Args[1])
	if !isList || len(list) != 1 {
		return loopFamily{}, false
	}
	return e.inRangeLoop(add.Block(), list[0])
}

// inRangeLoop is the family of the value added in block at, once per
// iteration of the range loop over a slice that the block is in.
func (e *Evaluator) inRangeLoop(at *ssa.BasicBlock, added ssa.Value) (loopFamily, bool) {
	for b := at; b != nil; b = b.Idom() {
		for _, instr := range b.Instrs {
			phi, isPhi := instr.(*ssa.Phi)
			if !isPhi {
				break // a block's φs come first
			}
			loop, isLoop := rangeLoopOf(phi)
			if !isLoop || len(b.Succs) != 2 || !b.Succs[0].Dominates(at) || len(loop.loads) == 0 {
				continue
			}
			if _, fixed := e.ElementsOf(loop.slice, 0, map[ssa.Value]bool{}); fixed {
				return loopFamily{}, false
			}
			return loopFamily{loads: loop.loads, added: added, of: "elements of " + e.Show(loop.slice), slice: loop.slice}, true
		}
	}
	return loopFamily{}, false
}

// IterationsOf names what the loop whose header is b iterates over, for
// messages: a slice's elements, a map's keys, or the loop's iterations.
func (e *Evaluator) IterationsOf(b *ssa.BasicBlock) string {
	for _, instr := range b.Instrs {
		switch instr := instr.(type) {
		case *ssa.Phi:
			if loop, ok := rangeLoopOf(instr); ok {
				return "elements of " + e.Show(loop.slice)
			}
			continue
		case *ssa.Next:
			if rng, ok := instr.Iter.(*ssa.Range); ok && !instr.IsString {
				return "keys of " + e.Show(rng.X)
			}
		}
	}
	return "iterations of the loop"
}

// capturedFamily reads a slice variable a closure captures, read where it
// is captured or in the closure, that a range loop appends to (its one
// write, the variable empty before it):
//
//	var ks []string
//	for _, id := range ids { ks = append(ks, "bal:"+id) }
//	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error { p.Del(ctx, ks...); return nil })
func (e *Evaluator) capturedFamily(load *ssa.UnOp) (loopFamily, bool) {
	if load.Op != token.MUL {
		return loopFamily{}, false
	}
	cell := load.X
	for fv, ok := cell.(*ssa.FreeVar); ok; fv, ok = cell.(*ssa.FreeVar) {
		if cell = e.binding(fv); cell == nil {
			return loopFamily{}, false
		}
	}
	alloc, ok := cell.(*ssa.Alloc)
	if !ok || !alloc.Heap {
		return loopFamily{}, false
	}
	var add *ssa.Call
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			call, isCall := ref.Val.(*ssa.Call)
			if isCall && ssaread.IsAppend(call.Call) && len(call.Call.Args) == 2 && add == nil {
				if prev, ok := call.Call.Args[0].(*ssa.UnOp); ok && prev.Op == token.MUL && prev.X == ssa.Value(alloc) {
					add = call
					continue
				}
			}
			if !emptySlice(ref.Val) {
				return loopFamily{}, false // set otherwise than empty before the loop
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return loopFamily{}, false
			}
		case *ssa.MakeClosure:
			if !onlyLoaded(ref, alloc, 0) {
				return loopFamily{}, false
			}
		case *ssa.DebugRef:
		default:
			return loopFamily{}, false
		}
	}
	if add == nil {
		return loopFamily{}, false
	}
	return e.appendedInRangeLoop(add)
}

// emptySlice reports a slice value with no element: nil, or made with
// length 0.
func emptySlice(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil()
	case *ssa.MakeSlice:
		return ssaread.IsConstInt(v.Len, 0)
	}
	return false
}

// EachIteration runs read once per iteration of the range loop over a
// slice the code fixes that encloses at (for _, k := range ks { p.Get(ctx,
// k) } with ks two known keys), each iteration reading the loop's element
// as that iteration's value: what a command in the loop sends, element by
// element. It reports false, and reads nothing, when no such loop encloses
// at or the slice is not fixed.
func (e *Evaluator) EachIteration(at ssa.Instruction, read func()) bool {
	fn := at.Parent()
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				continue
			}
			loop, ok := rangeLoopOf(phi)
			if !ok || len(loop.loads) == 0 || !loop.loads[0].Block().Dominates(at.Block()) {
				continue
			}
			// A callback's loop ranges over the slice it captured: the
			// enclosing function's.
			slice, _ := e.underlying(loop.slice)
			elems, ok := e.ElementsOf(slice, 0, map[ssa.Value]bool{})
			if !ok || len(elems) == 0 || len(elems) > MaxElements {
				return false
			}
			for _, el := range elems {
				if el.Value == nil {
					return false // a template's elements: not followed
				}
			}
			for _, el := range elems {
				for _, load := range loop.loads {
					e.valueEnv[load] = el.Value
				}
				read()
				for _, load := range loop.loads {
					delete(e.valueEnv, load)
				}
			}
			return true
		}
	}
	return false
}
