package eval

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// A worker pool feeds keys through a channel the function makes:
//
//	ch := make(chan string)
//	go func() { for k := range ch { rdb.Del(ctx, k, "audit:"+k) } }()
//	for _, id := range ids { ch <- "item:" + id }
//
// A value received from such a channel is one of the values sent on it,
// when the channel is only sent on, received from and closed, in the
// function that makes it and in the closures it gives the channel to.

// received reads a value received from a channel (<-ch, or the value of a
// range over it or of v, ok := <-ch): the alternatives of every value sent
// on it. ok is false when some use of the channel is not followed.
func (e *Evaluator) received(recv *ssa.UnOp, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	mk, ok := e.madeChan(recv.X)
	if !ok {
		return nil, false
	}
	sends, ok := sendsOn(mk)
	if !ok || len(sends) == 0 {
		return nil, false
	}
	var out []keymodel.Key
	for _, s := range sends {
		ks := e.eval(s.X, depth, visiting)
		if s.Parent() != recv.Parent() {
			ks = notParams(ks) // another function's values: the same for identity, no holes here
		}
		out = append(out, ks...)
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	return out, true
}

// madeChan follows a channel value to the make that made it, through the
// variable a closure captures it in.
func (e *Evaluator) madeChan(v ssa.Value) (*ssa.MakeChan, bool) {
	for range maxDepth {
		u, _ := e.underlying(v)
		switch x := u.(type) {
		case *ssa.MakeChan:
			return x, true
		case *ssa.ChangeType: // chan T to <-chan T
			v = x.X
		default:
			return nil, false
		}
	}
	return nil, false
}

// sendsOn lists every send on the channel mk makes, following it through
// the variable it is kept in into the closures that capture it; ok is false
// when it is used in another way (given to a function, stored elsewhere,
// selected on).
func sendsOn(mk *ssa.MakeChan) (sends []*ssa.Send, ok bool) {
	channels := []ssa.Value{mk} // values that are the channel
	var cells []ssa.Value       // variables that hold it: its Alloc, closures' free variables
	for i, j := 0, 0; i < len(channels) || j < len(cells); {
		if j < len(cells) {
			cell := cells[j]
			j++
			for _, ref := range *cell.Referrers() {
				switch ref := ref.(type) {
				case *ssa.UnOp:
					if ref.Op != token.MUL {
						return nil, false
					}
					channels = append(channels, ref)
				case *ssa.Store:
					if ref.Addr != cell || ref.Val != ssa.Value(mk) {
						return nil, false // set to another channel too
					}
				case *ssa.MakeClosure:
					if !captured(ref, cell, &cells) {
						return nil, false
					}
				case *ssa.DebugRef:
				default:
					return nil, false
				}
			}
			continue
		}
		v := channels[i]
		i++
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Send:
				if ref.Chan != v {
					return nil, false // the channel itself sent on another
				}
				sends = append(sends, ref)
			case *ssa.UnOp:
				if ref.Op != token.ARROW {
					return nil, false
				}
			case *ssa.ChangeType:
				channels = append(channels, ref)
			case *ssa.Store:
				alloc, isAlloc := ref.Addr.(*ssa.Alloc)
				if !isAlloc || ref.Val != v || v != ssa.Value(mk) || slices.Contains(cells, ssa.Value(alloc)) {
					return nil, false
				}
				cells = append(cells, alloc)
			case *ssa.MakeClosure:
				if !captured(ref, v, &channels) {
					return nil, false
				}
			case *ssa.Call:
				if b, isBuiltin := ref.Call.Value.(*ssa.Builtin); !isBuiltin || (b.Name() != "close" && b.Name() != "len" && b.Name() != "cap") {
					return nil, false
				}
			case *ssa.DebugRef:
			default:
				return nil, false
			}
		}
	}
	return sends, true
}

// captured adds to list the free variables of the closure mc that bind v;
// false when v is used by the closure in another way.
func captured(mc *ssa.MakeClosure, v ssa.Value, list *[]ssa.Value) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	found := false
	for i, b := range mc.Bindings {
		if b == v && i < len(fn.FreeVars) {
			if !slices.Contains(*list, ssa.Value(fn.FreeVars[i])) {
				*list = append(*list, fn.FreeVars[i])
			}
			found = true
		}
	}
	return found
}
