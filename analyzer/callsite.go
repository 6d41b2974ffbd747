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

// A callSite is one call of a client method or of a wrapper, with what the
// rules need. Arguments are numbered as SSA passes them (j): a static method
// call passes its receiver first; signature parameters (i) are not.
type callSite struct {
	library library
	method  string  // the client method (or command) for rules and messages; "" for a wrapper
	rule    keyRule // the rule for a client other than go-redis, whose rules are by method
	// commandLine: the call sends a command line whose name is method
	// (redigo's Do and Send).
	commandLine bool
	// fate ends a crossslot message with what the client does, if it does
	// something of its own (rueidis's builder panics).
	fate string
	// builder is the Builder a rueidis or valkey-go command is built from.
	builder ssa.Value
	common  *ssa.CallCommon
	sig     *types.Signature
	expr    *ast.CallExpr // nil when the source call was not found
	eval    *evaluator
}

// The client libraries a call site can belong to.
type library int

const (
	goRedis library = iota
	redigo
	builderClient // rueidis and valkey-go
)

// recognize finds the client a call calls and where its keys are: a go-redis
// method, static or through an interface, a redigo command or script, or a
// rueidis or valkey-go built command or Lua script; nil for anything else.
func recognize(call ssa.CallInstruction, ev *evaluator) *callSite {
	common := call.Common()
	if m := methodOf(common); m != nil {
		site := newCallSite(ev, common, m.Signature())
		site.method = m.Name()
		return site
	}
	if site := redigoCall(common, ev); site != nil {
		return site
	}
	return builderCall(call, ev)
}

// newCallSite is a call as the rules see it, sig the callee's signature.
func newCallSite(ev *evaluator, common *ssa.CallCommon, sig *types.Signature) *callSite {
	return &callSite{common: common, sig: sig, expr: ev.src.calls[common.Pos()], eval: ev}
}

// element is one element of a slice: its value, or the keys it evaluates
// to when it has no SSA value of its own (see elementsOf), and where the
// source writes it.
type element struct {
	value ssa.Value
	keys  []key
	at    positioned
}

// recvArgs is how many receivers common.Args holds before the parameters.
func (c *callSite) recvArgs() int {
	if !c.common.IsInvoke() && c.sig.Recv() != nil {
		return 1
	}
	return 0
}

// receiver is the value a method is called on.
func (c *callSite) receiver() ssa.Value {
	if c.sig.Recv() == nil {
		return nil
	}
	return receiverValue(c.common)
}

// param finds the named parameter: its argument index j and the SSA
// argument passed for it.
func (c *callSite) param(name string) (int, ssa.Value, bool) {
	params := c.sig.Params()
	for i := range params.Len() {
		if params.At(i).Name() != name {
			continue
		}
		j := i + c.recvArgs()
		if j >= len(c.common.Args) {
			return 0, nil, false
		}
		return j, c.common.Args[j], true
	}
	return 0, nil, false
}

// callPos is the whole call.
func (c *callSite) callPos() positioned {
	if c.expr != nil {
		return rangeOf(c.expr)
	}
	return positioned{c.common.Pos(), c.common.Pos()}
}

// argPos is where the source writes argument j: the receiver, a parameter,
// or the first element of a variadic list; else the whole call.
func (c *callSite) argPos(j int) positioned {
	if c.expr == nil {
		return c.callPos()
	}
	i := j - c.recvArgs()
	if i < 0 {
		if sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); ok {
			return rangeOf(sel.X)
		}
		return c.callPos()
	}
	if i < len(c.expr.Args) {
		return rangeOf(c.expr.Args[i])
	}
	return c.callPos()
}

// argText is argument j as the source writes it, for messages.
func (c *callSite) argText(j int, v ssa.Value) string {
	if i := j - c.recvArgs(); c.expr != nil && i >= 0 && i < len(c.expr.Args) {
		return types.ExprString(c.expr.Args[i])
	}
	return c.eval.show(v)
}

// elementsOfArg returns the elements of slice argument j, variadic or not,
// when they are fixed by a literal or by the call's argument list.
func (c *callSite) elementsOfArg(j int) ([]element, bool) {
	if j >= len(c.common.Args) {
		return nil, false
	}
	values, ok := c.eval.elementsOf(c.common.Args[j], 0, map[ssa.Value]bool{})
	if !ok {
		return nil, false
	}
	i := j - c.recvArgs()
	out := make([]element, len(values))
	variadicList := c.sig.Variadic() && i == c.sig.Params().Len()-1 && c.expr != nil && c.expr.Ellipsis == token.NoPos
	for k, val := range values {
		switch {
		case variadicList && i+k < len(c.expr.Args):
			out[k] = element{val.value, val.keys, rangeOf(c.expr.Args[i+k])}
		default:
			at := c.argPos(j)
			if c.expr != nil && i >= 0 && i < len(c.expr.Args) {
				if lit, ok := ast.Unparen(c.expr.Args[i]).(*ast.CompositeLit); ok && len(lit.Elts) == len(values) {
					at = rangeOf(lit.Elts[k])
				}
			}
			out[k] = element{val.value, val.keys, at}
		}
	}
	return out, true
}

// elementsOfParam is elementsOfArg for a named parameter.
func (c *callSite) elementsOfParam(name string) ([]element, bool) {
	j, _, ok := c.param(name)
	if !ok {
		return nil, false
	}
	return c.elementsOfArg(j)
}

// keysOfParam reads a key parameter: one string, or a []string's elements.
// A slice that is a parameter of the calling function is a spread: a
// wrapper's callers fill it in.
func (c *callSite) keysOfParam(name string) []keyArg {
	j, v, ok := c.param(name)
	if !ok {
		return nil
	}
	if isString(v.Type()) {
		return []keyArg{{alts: c.eval.keys(v), at: c.argPos(j)}}
	}
	elems, ok := c.elementsOfArg(j)
	if !ok {
		if p, ok := v.(*ssa.Parameter); ok {
			return []keyArg{{spread: paramIndex(p), unread: p.Name(), at: c.argPos(j)}}
		}
		return []keyArg{{unread: c.argText(j, v), at: c.argPos(j)}}
	}
	return c.keyArgs(elems)
}

func (c *callSite) keyArgs(elems []element) []keyArg {
	out := make([]keyArg, 0, len(elems))
	for _, el := range elems {
		if el.value == nil {
			out = append(out, keyArg{alts: el.keys, at: el.at})
			continue
		}
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
	j, v, ok := c.param(param)
	if !ok {
		return element{}, false
	}
	at := c.argPos(j)
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
	return element{value: stored, at: at}, true
}
