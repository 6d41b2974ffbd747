package eval

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A string variable assigned on some paths only is "" on the others:
//
//	var dedup string
//	if token != "" { dedup = "dedup:{" + ch + "}:" + token }
//	script.Run(ctx, rdb, []string{"log:{" + ch + "}", dedup})
//
// SSA merges the paths in a φ with a "" edge, and the evaluator reads the
// key as either alternative. Which one reaches a call depends on the tests
// on the way to it: a test that the key is not empty (if dedup != "")
// leaves "" out; a test of what decided the assignment (token again) may
// leave it out or keep it alone; a call that nothing tests on the way
// runs with "" whenever the assignment is skipped.

// ZeroReach is how a variable's "" on some path reaches a call.
type ZeroReach int

const (
	NoZero      ZeroReach = iota // no "" path, or the tests on the way are not read
	ZeroOpen                     // the call runs with "" on the paths that skip the assignment
	ZeroGuarded                  // a test on the way leaves "" out: if k != "" { call }
)

// ZeroOnPath says how a key value v, read at the call at, may be a
// variable's "" on some path, and names the variable.
func (e *Evaluator) ZeroOnPath(v ssa.Value, at ssa.Instruction) (ZeroReach, string) {
	phi, ok := e.resolve(v).(*ssa.Phi)
	if !ok || at == nil || at.Block() == nil || !hasZeroEdge(phi) || isLoopHeader(phi.Block()) {
		return NoZero, ""
	}
	merge, call := phi.Block(), at.Block()
	if !merge.Dominates(call) {
		return NoZero, ""
	}
	deciders := map[ssa.Value]bool{phi: true}
	for i, edge := range phi.Edges {
		if isZeroString(edge) {
			if test := decidingTest(merge.Preds[i], merge); test != nil {
				operandsOf(test.Cond, 3, deciders)
			}
		}
	}
	reach := ZeroOpen
	for b := call; b != merge; b = b.Idom() {
		test, branch, ok := guardOf(b.Idom(), call)
		switch {
		case !ok:
		case nonEmptyTest(test.Cond, phi, branch):
			return ZeroGuarded, phi.Comment
		case dependsOn(test.Cond, deciders):
			reach = NoZero
		}
	}
	return reach, phi.Comment
}

// guardOf is the test at the end of block d when one of its successors
// leads only to the call: that successor has d as its one predecessor and
// dominates the call's block. branch is the test's outcome on the way to
// the call.
func guardOf(d, call *ssa.BasicBlock) (test *ssa.If, branch bool, ok bool) {
	if d == nil || len(d.Instrs) == 0 {
		return nil, false, false
	}
	test, ok = d.Instrs[len(d.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false, false
	}
	for i, s := range d.Succs {
		if len(s.Preds) == 1 && s.Dominates(call) {
			return test, i == 0, true
		}
	}
	return nil, false, false
}

// decidingTest is the test whose outcome sends control along the edge from
// pred into merge: the test that ends pred or the nearest block above it.
func decidingTest(pred, merge *ssa.BasicBlock) *ssa.If {
	for b := pred; b != nil && b != merge; b = b.Idom() {
		if len(b.Instrs) > 0 {
			if test, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
				return test
			}
		}
		if b.Dominates(merge) {
			break
		}
	}
	return nil
}

// nonEmptyTest reports a test that, with the given outcome, says phi is not
// "": phi != "", !(phi == ""), len(phi) > 0, len(phi) != 0.
func nonEmptyTest(cond ssa.Value, phi *ssa.Phi, branch bool) bool {
	v, empty, ok := emptinessTest(cond, branch)
	return ok && v == ssa.Value(phi) && !empty
}

func isLenOf(v ssa.Value, of ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 || call.Call.Args[0] != of {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "len"
}

// dependsOn reports whether a test reads any of the values (through up to
// three operations).
func dependsOn(cond ssa.Value, values map[ssa.Value]bool) bool {
	read := map[ssa.Value]bool{}
	operandsOf(cond, 3, read)
	for v := range read {
		if values[v] {
			return true
		}
	}
	return false
}

// operandsOf adds v and the values it is computed from, to depth levels,
// constants left out.
func operandsOf(v ssa.Value, depth int, into map[ssa.Value]bool) {
	if v == nil || depth < 0 {
		return
	}
	if _, ok := v.(*ssa.Const); ok {
		return
	}
	into[v] = true
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return
	}
	for _, op := range instr.Operands(nil) {
		operandsOf(*op, depth-1, into)
	}
}

func hasZeroEdge(phi *ssa.Phi) bool {
	zero, other := false, false
	for _, edge := range phi.Edges {
		if isZeroString(edge) {
			zero = true
		} else {
			other = true
		}
	}
	return zero && other
}

func isZeroString(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	if !ok || !ssaread.IsString(c.Type()) {
		return false
	}
	return c.Value == nil || constant.StringVal(c.Value) == ""
}

func isZeroInt(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
}

// isLoopHeader reports a block entered again from below: a φ there carries
// a value around a loop, not a choice between paths.
func isLoopHeader(b *ssa.BasicBlock) bool {
	for _, p := range b.Preds {
		if b.Dominates(p) {
			return true
		}
	}
	return false
}

// A value tested for "" on the way to a block: the function takes that
// way only when the value is empty (Empty) or only when it is not.
type emptyTest struct {
	value ssa.Value
	empty bool
}

// emptyTestsTo are the tests for "" that decide whether block b runs:
// if s == "" { return a }; return s + ":" + a.
func emptyTestsTo(b *ssa.BasicBlock) []emptyTest {
	var out []emptyTest
	for x := b; x != nil && x.Idom() != nil; x = x.Idom() {
		test, branch, ok := guardOf(x.Idom(), b)
		if !ok {
			continue
		}
		if v, empty, ok := emptinessTest(test.Cond, branch); ok {
			out = append(out, emptyTest{value: v, empty: empty})
		}
	}
	return out
}

// emptyTestsOnEdge are the tests for "" that decide whether control goes
// from pred into merge: the test ending pred, when merge is one of its
// ways, and the tests on the way to pred.
func emptyTestsOnEdge(pred, merge *ssa.BasicBlock) []emptyTest {
	out := emptyTestsTo(pred)
	if n := len(pred.Instrs); n > 0 && len(pred.Succs) == 2 && pred.Succs[0] != pred.Succs[1] {
		if test, ok := pred.Instrs[n-1].(*ssa.If); ok {
			if v, empty, ok := emptinessTest(test.Cond, pred.Succs[0] == merge); ok {
				out = append(out, emptyTest{value: v, empty: empty})
			}
		}
	}
	return out
}

// emptinessTest reads a test of a string value against "" (v == "",
// v != "", len(v) == 0, len(v) > 0, negated): the value, and whether the
// outcome branch says it is empty.
func emptinessTest(cond ssa.Value, branch bool) (v ssa.Value, empty bool, ok bool) {
	if not, isNot := cond.(*ssa.UnOp); isNot && not.Op == token.NOT {
		return emptinessTest(not.X, !branch)
	}
	op, isOp := cond.(*ssa.BinOp)
	if !isOp {
		return nil, false, false
	}
	x, y := op.X, op.Y
	if isZeroString(x) || isZeroInt(x) {
		x, y = y, x
	}
	switch {
	case isZeroString(y) && ssaread.IsString(x.Type()):
		v = x
	case isZeroInt(y):
		call, isCall := x.(*ssa.Call)
		if !isCall || len(call.Call.Args) != 1 || !isLenOf(x, call.Call.Args[0]) || !ssaread.IsString(call.Call.Args[0].Type()) {
			return nil, false, false
		}
		v = call.Call.Args[0]
	default:
		return nil, false, false
	}
	switch op.Op {
	case token.EQL:
		return v, branch, true
	case token.NEQ, token.GTR:
		return v, !branch, true
	}
	return nil, false, false
}

// UnderTests is the keys a return in block b gives, with what the tests
// for "" on the way to it say: a value tested empty guards them (see
// keymodel.Guard), a value tested not empty is never empty in them.
// Values that are not one unknown value are left alone.
func (e *Evaluator) UnderTests(keys []keymodel.Key, b *ssa.BasicBlock) []keymodel.Key {
	return e.underTests(keys, emptyTestsTo(b), 0, map[ssa.Value]bool{})
}

// underTests is UnderTests for the given tests, the tested values read
// within the evaluation under way (depth, visiting): a test of the value
// being read itself (if k != "" { k = "{" + k + "}" }) is not read again.
func (e *Evaluator) underTests(keys []keymodel.Key, tests []emptyTest, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	for _, t := range tests {
		vk := e.eval(t.value, depth, visiting)
		if len(vk) != 1 || len(vk[0]) != 1 || !vk[0][0].Unknown {
			continue
		}
		p := vk[0][0]
		out := make([]keymodel.Key, len(keys))
		for i, k := range keys {
			if t.empty {
				out[i] = k.Guarded(keymodel.Guard{ID: p.ID, Param: p.Param, Of: p.Of, Sub: p.Sub})
			} else {
				out[i] = k.NonEmptyValue(p.ID)
			}
		}
		keys = out
	}
	return keys
}
