package ssaread

import (
	"go/types"
	"iter"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// FuncPackage is the package that declares fn. (SSA leaves Pkg nil for the
// functions of packages imported only indirectly, as the builder's are.)
func FuncPackage(fn *ssa.Function) *types.Package {
	if fn == nil {
		return nil
	}
	if obj := fn.Object(); obj != nil {
		return obj.Pkg()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg
	}
	return nil
}

// CallsIn yields fn's calls (and go and defer statements), in block order.
func CallsIn(fn *ssa.Function) iter.Seq[ssa.CallInstruction] {
	return func(yield func(ssa.CallInstruction) bool) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok && !yield(call) {
					return
				}
			}
		}
	}
}

// CalledFunc is the function or method a call calls: an interface's method
// for a call through an interface, else the static callee's; nil for calls
// of function values and builtins.
func CalledFunc(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if fn := common.StaticCallee(); fn != nil {
		m, _ := fn.Object().(*types.Func)
		return m
	}
	return nil
}

// ReceiverValue is the value a method call is called on: the receiver
// argument, or what a method value was bound to.
func ReceiverValue(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	if recv, ok := BoundReceiver(common); ok {
		return recv
	}
	if len(common.Args) > 0 {
		return common.Args[0]
	}
	return nil
}

// CallbackArg is the function a call passes as its callback: a function
// literal or a named function.
func CallbackArg(common *ssa.CallCommon) *ssa.Function {
	for _, arg := range common.Args {
		switch arg := arg.(type) {
		case *ssa.MakeClosure:
			return arg.Fn.(*ssa.Function)
		case *ssa.Function:
			return arg
		}
	}
	return nil
}

func IsFunc(v ssa.Value, fn *ssa.Function) bool {
	if mc, ok := v.(*ssa.MakeClosure); ok {
		return mc.Fn == fn
	}
	return v == fn
}

func Dominates(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// OnOnePath reports whether one run of the function can execute both a and
// b: one's block reaches the other's (in one block, always).
func OnOnePath(a, b ssa.Instruction) bool {
	return a.Block() == b.Block() || reaches(a.Block(), b.Block()) || reaches(b.Block(), a.Block())
}

func reaches(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if s == to {
				return true
			}
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// BoundReceiver is the receiver of a call of a method value, the value the
// method was bound to (unlink := rdb.Unlink; unlink(ctx, a, b) calls
// rdb.Unlink): its arguments then start with the method's first parameter.
func BoundReceiver(common *ssa.CallCommon) (ssa.Value, bool) {
	mc, ok := common.Value.(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return nil, false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || !strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		return nil, false
	}
	return mc.Bindings[0], true
}

// ClosureBindings are the values the enclosing function binds to a
// closure's free variable: the captured value, or the variable it lives in
// and what is stored there.
func ClosureBindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	index := slices.Index(fn.FreeVars, fv)
	if index < 0 || fn.Parent() == nil {
		return nil
	}
	var out []ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || index >= len(mc.Bindings) {
				continue
			}
			bound := mc.Bindings[index]
			out = append(out, bound)
			if alloc, ok := bound.(*ssa.Alloc); ok {
				for _, ref := range *alloc.Referrers() {
					if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
						out = append(out, st.Val)
					}
				}
			}
		}
	}
	return out
}
