package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// positioned is a source range to report at.
type positioned struct{ pos, end token.Pos }

func rangeOf(n ast.Node) positioned { return positioned{n.Pos(), n.End()} }

// A callSite is one call of a go-redis method, with what the rules need.
type callSite struct {
	method string
	common *ssa.CallCommon
	sig    *types.Signature
	expr   *ast.CallExpr // nil when the source call was not found
	eval   *evaluator
}

// element is one value of a slice argument and where it is written.
type element struct {
	value ssa.Value
	at    positioned
}

// param finds the named parameter: its index in the signature and the SSA
// argument passed for it.
func (c *callSite) param(name string) (int, ssa.Value, bool) {
	params := c.sig.Params()
	for i := range params.Len() {
		if params.At(i).Name() != name {
			continue
		}
		args := c.common.Args
		if !c.common.IsInvoke() && c.sig.Recv() != nil {
			args = args[1:] // a static method call passes the receiver first
		}
		if i >= len(args) {
			return 0, nil, false
		}
		return i, args[i], true
	}
	return 0, nil, false
}

// argPos is where the source writes argument i, or the whole call.
func (c *callSite) argPos(i int) positioned {
	if c.expr != nil && i < len(c.expr.Args) {
		return rangeOf(c.expr.Args[i])
	}
	if c.expr != nil {
		return rangeOf(c.expr)
	}
	return positioned{c.common.Pos(), c.common.Pos()}
}

// elementsOfParam returns the elements of a slice parameter, variadic or
// not, when they are fixed by a literal or by the call's argument list.
func (c *callSite) elementsOfParam(name string) ([]element, bool) {
	i, v, ok := c.param(name)
	if !ok {
		return nil, false
	}
	values, ok := sliceElements(v)
	if !ok {
		return nil, false
	}
	out := make([]element, len(values))
	variadicList := c.sig.Variadic() && i == c.sig.Params().Len()-1 && c.expr != nil && c.expr.Ellipsis == token.NoPos
	for j, val := range values {
		switch {
		case variadicList && i+j < len(c.expr.Args):
			out[j] = element{val, rangeOf(c.expr.Args[i+j])}
		default:
			at := c.argPos(i)
			if c.expr != nil && i < len(c.expr.Args) {
				if lit, ok := ast.Unparen(c.expr.Args[i]).(*ast.CompositeLit); ok && len(lit.Elts) == len(values) {
					at = rangeOf(lit.Elts[j])
				}
			}
			out[j] = element{val, at}
		}
	}
	return out, true
}

// keysOfParam reads a key parameter: one string, or a []string's elements.
func (c *callSite) keysOfParam(name string) []keyArg {
	i, v, ok := c.param(name)
	if !ok {
		return nil
	}
	if isString(v.Type()) {
		return []keyArg{{alts: c.eval.keys(v), at: c.argPos(i)}}
	}
	elems, ok := c.elementsOfParam(name)
	if !ok {
		return nil
	}
	return c.keyArgs(elems)
}

func (c *callSite) keyArgs(elems []element) []keyArg {
	out := make([]keyArg, 0, len(elems))
	for _, el := range elems {
		v := unwrapInterface(el.value)
		if !isString(v.Type()) {
			return nil
		}
		out = append(out, keyArg{alts: c.eval.keys(v), at: el.at})
	}
	return out
}

// keysAt reads values of a struct field's slice, all reported at one place.
func (c *callSite) keysAt(values []ssa.Value, at positioned) []keyArg {
	out := make([]keyArg, 0, len(values))
	for _, v := range values {
		out = append(out, keyArg{alts: c.eval.keys(v), at: at})
	}
	return out
}

// fieldOfParam finds the value stored into field name of a struct parameter
// built from a composite literal in the calling function: &T{F: v} or T{F: v}.
// An unset field of a literal is its zero value.
func (c *callSite) fieldOfParam(param, name string) (element, bool) {
	i, v, ok := c.param(param)
	if !ok {
		return element{}, false
	}
	at := c.argPos(i)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X // a struct passed by value is loaded from its literal
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return element{}, false
	}
	st, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return element{}, false
	}
	fieldIdx := -1
	for f := range st.NumFields() {
		if st.Field(f).Name() == name {
			fieldIdx = f
		}
	}
	if fieldIdx < 0 {
		return element{}, false
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			if call, isCall := ref.(ssa.CallInstruction); isCall && call.Common() != c.common {
				return element{}, false // another call may fill it in
			}
			continue
		}
		if fa.Field != fieldIdx {
			continue
		}
		for _, use := range *fa.Referrers() {
			if s, ok := use.(*ssa.Store); ok && s.Addr == fa {
				if stored != nil {
					return element{}, false // written twice: which one reaches the call is flow-dependent
				}
				stored = s.Val
			}
		}
	}
	if stored == nil {
		stored = ssa.NewConst(nil, st.Field(fieldIdx).Type()) // a literal leaves unset fields zero
	}
	return element{stored, at}, true
}
