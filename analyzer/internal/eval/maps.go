package eval

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A map used as a set of keys is filled in a loop and read as a list:
//
//	set := map[string]bool{}
//	for _, id := range ids { set["sess:"+id] = true }
//	rdb.Del(ctx, slices.Collect(maps.Keys(set))...)      // or slices.Sorted(maps.Keys(set))
//	for k := range set { ks = append(ks, k) }             // or by hand
//
// Its keys are a family (see Family): one key per iteration of the loop
// that sets them, the same keys however many times one is set.

// mapFamily reads a map made in the function whose keys are set at one
// place only, in a loop over an input or with a bound the code does not
// fix, and which nothing but reads (lookups, ranges, maps.Keys, len) uses:
// the key set there, for each iteration, and what the iterations range
// over.
func (e *Evaluator) mapFamily(m ssa.Value) (each []keymodel.Key, of string, ok bool) {
	m, _ = e.underlying(m)
	mk, ok := m.(*ssa.MakeMap)
	if !ok || !ssaread.IsString(mk.Type().Underlying().(*types.Map).Key()) {
		return nil, "", false
	}
	var update *ssa.MapUpdate
	for _, ref := range *mk.Referrers() {
		switch ref := ref.(type) {
		case *ssa.MapUpdate:
			if update != nil || ref.Map != ssa.Value(mk) {
				return nil, "", false // set at two places: not one family
			}
			update = ref
		case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
		case *ssa.Call:
			if !ssaread.IsBuiltin(ref.Call, "len") && !isMapsKeys(ref) {
				return nil, "", false
			}
		default:
			return nil, "", false // kept or passed on, where anything may set it
		}
	}
	if update == nil {
		return nil, "", false
	}
	loop, ok := e.loopAround(update, e.Keys(update.Key))
	if !ok {
		return nil, "", false
	}
	return e.elementKeys(loop.loads, update.Key), loop.of, true
}

// isMapsKeys: call is maps.Keys(m), of the standard library or of
// golang.org/x/exp/maps (whose Keys returned a slice until it returned an
// iterator).
func isMapsKeys(call *ssa.Call) bool {
	fn := ssaread.CalledFunc(&call.Call)
	if fn == nil || fn.Pkg() == nil || fn.Name() != "Keys" || len(call.Call.Args) != 1 {
		return false
	}
	return fn.Pkg().Path() == "maps" || fn.Pkg().Path() == "golang.org/x/exp/maps"
}

// An openLoop is a loop whose iterations the code does not fix: a range
// over an input, or a loop with a bound it does not fix.
type openLoop struct {
	body  *ssa.BasicBlock // the first block of every iteration
	loads []*ssa.UnOp     // a range loop's reads of its element
	of    string          // what the iterations range over, for messages
	id    string          // the slice or index its element parts name
}

// loopAround finds the innermost open loop whose body holds instr and
// whose element (or index) is in one of the keys.
func (e *Evaluator) loopAround(instr ssa.Instruction, keys []keymodel.Key) (openLoop, bool) {
	var found openLoop
	for _, b := range instr.Parent().Blocks {
		for _, in := range b.Instrs {
			phi, isPhi := in.(*ssa.Phi)
			if !isPhi {
				break
			}
			loop, ok := e.openLoopAt(phi)
			if !ok || !loop.body.Dominates(instr.Block()) || !hasElementOf(keys, loop.id) {
				continue
			}
			if found.body == nil || found.body.Dominates(loop.body) {
				found = loop
			}
		}
	}
	return found, found.body != nil
}

// openLoopAt recognizes the open loop whose index is phi.
func (e *Evaluator) openLoopAt(phi *ssa.Phi) (openLoop, bool) {
	if loop, ok := rangeLoopOf(phi); ok {
		if _, fixed := e.ElementsOf(loop.slice, 0, map[ssa.Value]bool{}); fixed || !isIndexOf(phi, loop) {
			return openLoop{}, false
		}
		return openLoop{body: bodyOf(phi), loads: loop.loads, of: "elements of " + e.Show(loop.slice), id: e.id(loop.slice)}, bodyOf(phi) != nil
	}
	loop, ok := openIndexOf(phi)
	if !ok {
		return openLoop{}, false
	}
	body := phi.Block() // a range over an integer: its φs start the body
	if _, header := openLoopOf(phi); header {
		body = bodyOf(phi)
	}
	return openLoop{body: body, of: "iterations of the loop on " + e.Show(loop.index) + " < " + e.Show(loop.bound), id: e.id(phi)}, body != nil
}

// hasElementOf: some key has a part that is the element of the loop over
// the slice (or with the index) of the given id.
func hasElementOf(keys []keymodel.Key, id string) bool {
	base := keymodel.ElementPart(keymodel.Part{}, id).Base
	for _, k := range keys {
		for _, p := range k {
			if p.Unknown && p.Base == base {
				return true
			}
		}
	}
	return false
}

// isIndexOf: phi is the index of the range loop, not another φ of its header.
func isIndexOf(phi *ssa.Phi, loop *rangeLoop) bool {
	for _, edge := range phi.Edges {
		if ssaread.IsConstInt(edge, -1) {
			return len(loop.loads) > 0
		}
	}
	return false
}

// bodyOf is the block a loop header holding phi enters its body by.
func bodyOf(phi *ssa.Phi) *ssa.BasicBlock {
	succs := phi.Block().Succs
	if len(succs) != 2 || succs[0] == phi.Block() {
		return nil
	}
	return succs[0]
}

// collectedMapFamily reads the slice of a map's keys (see mapFamily):
// slices.Collect, slices.Sorted or slices.SortedFunc of maps.Keys(m), or
// the slice golang.org/x/exp/maps.Keys(m) returned.
func (e *Evaluator) collectedMapFamily(call *ssa.Call) (loopFamily, bool) {
	if _, slice := call.Type().Underlying().(*types.Slice); slice && isMapsKeys(call) {
		each, of, ok := e.mapFamily(call.Call.Args[0])
		return loopFamily{each: each, of: of}, ok
	}
	fn := ssaread.CalledFunc(&call.Call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "slices" || len(call.Call.Args) == 0 {
		return loopFamily{}, false
	}
	switch fn.Name() {
	case "Collect", "Sorted", "SortedFunc", "SortedStableFunc":
	default:
		return loopFamily{}, false
	}
	if lit := e.funcOf(call.Call.Args[0]); lit != nil && lit.Parent() != nil {
		return e.yieldedFamily(lit) // an iterator written in place
	}
	keys, ok := call.Call.Args[0].(*ssa.Call)
	if !ok || !isMapsKeys(keys) {
		return loopFamily{}, false
	}
	each, of, ok := e.mapFamily(keys.Call.Args[0])
	if !ok {
		return loopFamily{}, false
	}
	return loopFamily{each: each, of: of}, true
}

// mapRangeFamily reads a slice appended to in a range over a map's keys
// (see mapFamily): for k := range set { ks = append(ks, k) }.
func (e *Evaluator) mapRangeFamily(phi *ssa.Phi) (loopFamily, bool) {
	b := phi.Block()
	if len(phi.Edges) != 2 || len(b.Preds) != 2 || len(b.Instrs) == 0 {
		return loopFamily{}, false
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return loopFamily{}, false
	}
	more, ok := cond.Cond.(*ssa.Extract)
	if !ok || more.Index != 0 {
		return loopFamily{}, false
	}
	next, ok := more.Tuple.(*ssa.Next)
	if !ok || next.IsString || next.Block() != b {
		return loopFamily{}, false
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return loopFamily{}, false
	}
	var key *ssa.Extract
	for _, ref := range *next.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 1 {
			if key != nil {
				return loopFamily{}, false
			}
			key = ex
		}
	}
	if key == nil {
		return loopFamily{}, false
	}
	entry := -1
	for i, pred := range b.Preds {
		if !b.Dominates(pred) {
			entry = i // the way into the loop
		}
	}
	if entry < 0 || !b.Dominates(b.Preds[1-entry]) {
		return loopFamily{}, false
	}
	each, of, ok := e.mapFamily(rng.X)
	if !ok {
		if m, _ := e.underlying(rng.X); isMadeHere(m) {
			return loopFamily{}, false // a map the function fills: its keys may be few and fixed
		}
		// An input map's keys: another in each iteration (see loopElement).
		init, added, ok := e.appendsOne(phi, entry)
		if !ok {
			return loopFamily{}, false
		}
		return loopFamily{init: init, added: added, of: "keys of " + e.Show(rng.X)}, true
	}
	init, added, ok := e.appendsOne(phi, entry)
	if !ok {
		return loopFamily{}, false
	}
	return loopFamily{init: init, added: added, of: of, elem: key, elemKeys: each}, true
}

// isMadeHere reports a map the function makes (or a literal), whose keys
// it sets.
func isMadeHere(m ssa.Value) bool {
	_, ok := m.(*ssa.MakeMap)
	return ok
}

// yieldedFamily reads an iterator written as a function literal that
// yields one value per element of a slice it ranges over:
//
//	slices.Collect(func(yield func(string) bool) {
//		for _, r := range regions { if !yield("trending:" + r) { return } }
//	})
func (e *Evaluator) yieldedFamily(fn *ssa.Function) (loopFamily, bool) {
	if len(fn.Params) != 1 {
		return loopFamily{}, false
	}
	yield := fn.Params[0]
	var call *ssa.Call
	for _, ref := range *yield.Referrers() {
		c, ok := ref.(*ssa.Call)
		if !ok || c.Call.Value != ssa.Value(yield) || call != nil || len(c.Call.Args) != 1 {
			return loopFamily{}, false
		}
		call = c
	}
	if call == nil {
		return loopFamily{}, false
	}
	return e.inRangeLoop(call.Block(), call.Call.Args[0])
}

// literalMapValue reads m[k] of a map the function makes and only reads
// after setting it, with constant keys (m := map[string]string{"from": a,
// "to": b}; use(m["from"])): the value set for k where that setting comes
// before the lookup on every path, the zero value where k is never set.
func literalMapValue(lookup *ssa.Lookup) (ssa.Value, bool) {
	if lookup.CommaOk {
		return nil, false
	}
	mk, ok := lookup.X.(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	key, ok := lookup.Index.(*ssa.Const)
	if !ok || key.Value == nil {
		return nil, false
	}
	var found *ssa.MapUpdate
	for _, ref := range *mk.Referrers() {
		switch ref := ref.(type) {
		case *ssa.MapUpdate:
			k, ok := ref.Key.(*ssa.Const)
			if !ok || k.Value == nil || ref.Map != ssa.Value(mk) {
				return nil, false
			}
			if constant.Compare(k.Value, token.EQL, key.Value) {
				if found != nil {
					return nil, false // set twice
				}
				found = ref
			}
		case *ssa.Lookup, *ssa.DebugRef:
		default:
			return nil, false // the map goes elsewhere, or is ranged or deleted from
		}
	}
	if found == nil {
		return ssa.NewConst(constant.MakeString(""), lookup.Type()), ssaread.IsString(lookup.Type())
	}
	if !ssaread.Dominates(found, lookup) {
		return nil, false
	}
	return found.Value, true
}
