package eval

import (
	"go/token"

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
func (e *Evaluator) unrollString(phi *ssa.Phi, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
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
		return keymodel.Product(acc, []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: "join(" + e.id(p) + ")", Show: p.Name(), Param: ssaread.ParamIndex(p), Join: true})}), true
	}
	defer delete(e.keyEnv, phi)
	ok = e.unroll(phi, depth, visiting, func(back ssa.Value, _ int) bool {
		e.keyEnv[phi] = acc
		acc = e.eval(back, depth, visiting)
		return len(acc) <= keymodel.MaxAlternatives
	})
	return acc, ok
}
