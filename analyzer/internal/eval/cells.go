package eval

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// storedOnce returns the only value stored into a local variable's cell
// when nothing else can write it: every other use is a load, or a closure
// that captures it and only loads it.
func storedOnce(alloc *ssa.Alloc) (ssa.Value, bool) { return storedWhole(alloc, false) }

// storedWhole is storedOnce for a variable whose fields may be read too
// (fieldsRead): a local struct given once, k := keys.Cart(u), then k.Items.
func storedWhole(alloc *ssa.Alloc, fieldsRead bool) (ssa.Value, bool) {
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc || stored != nil {
				return nil, false
			}
			stored = ref.Val
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil, false
			}
		case *ssa.MakeClosure:
			if !onlyLoaded(ref, alloc, 0) {
				return nil, false
			}
		case *ssa.FieldAddr:
			if !fieldsRead || !onlyFieldLoads(ref) {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return stored, stored != nil
}

// onlyFieldLoads: a field's address is only loaded (not written, not
// passed on).
func onlyFieldLoads(fa *ssa.FieldAddr) bool {
	for _, use := range *fa.Referrers() {
		if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL {
			continue
		}
		if _, debug := use.(*ssa.DebugRef); !debug {
			return false
		}
	}
	return true
}

// onlyLoaded: the closure made by mc (and the closures it makes in turn)
// only load the cell it captures, or read its fields.
func onlyLoaded(mc *ssa.MakeClosure, cell ssa.Value, depth int) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || depth > maxDepth {
		return false
	}
	for i, b := range mc.Bindings {
		if b != cell {
			continue
		}
		fv := fn.FreeVars[i]
		for _, ref := range *fv.Referrers() {
			switch ref := ref.(type) {
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
			case *ssa.MakeClosure:
				if !onlyLoaded(ref, fv, depth+1) {
					return false
				}
			case *ssa.FieldAddr: // k.Items of a captured struct, only read
				if !onlyFieldLoads(ref) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// binding is the value the enclosing function gave a closure's free
// variable, found at the closure's one MakeClosure.
func (e *Evaluator) binding(fv *ssa.FreeVar) ssa.Value {
	if b, ok := e.bindings[fv]; ok {
		return b
	}
	b := findBinding(fv)
	e.bindings[fv] = b
	return b
}

func findBinding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	idx := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			idx = i
		}
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && idx >= 0 && idx < len(mc.Bindings) {
				return mc.Bindings[idx]
			}
		}
	}
	return nil
}
