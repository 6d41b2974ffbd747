package clients

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A Site is one call of a client method or of a wrapper, with what the
// rules need. Arguments are numbered as SSA passes them (j): a static method
// call passes its receiver first; signature parameters (i) are not.
type Site struct {
	Library Library
	Method  string  // the client method (or command) for rules and messages; "" for a wrapper
	Rule    KeyRule // where the keys are, when the call can carry two or more; nil for one
	// CommandLine: the call sends a command line whose name is method
	// (redigo's Do and Send).
	CommandLine bool
	// Fate ends a crossslot message with what the client does, if it does
	// something of its own (rueidis's builder panics).
	Fate string
	// Builder is the Builder a rueidis or valkey-go command is built from.
	Builder ssa.Value
	// built is that command's chain; line reads a command line (go-redis
	// Do, redigo Do and Send, the builder's Arbitrary), name first. Both
	// serve the readiness checks.
	built  *builtCommand
	line   func() ([]eval.Element, bool)
	Call   ssa.CallInstruction // nil for a call read as part of another (a builder's chain, a callee's sink)
	Common *ssa.CallCommon
	Sig    *types.Signature
	Expr   *ast.CallExpr // nil when the source call was not found
	Eval   *eval.Evaluator
}

// NewSite is a call as the rules see it, sig the callee's signature.
func NewSite(ev *eval.Evaluator, common *ssa.CallCommon, sig *types.Signature) *Site {
	return &Site{Common: common, Sig: sig, Expr: ev.Source.Calls[common.Pos()], Eval: ev}
}

// SiteOf is a call as the rules see it.
func SiteOf(ev *eval.Evaluator, common *ssa.CallCommon) *Site {
	sig := common.Signature()
	if fn := common.StaticCallee(); fn != nil {
		sig = fn.Signature
	}
	return NewSite(ev, common, sig)
}

// A KeyRule finds the key arguments of one call.
type KeyRule func(c *Site) []keymodel.Arg

// RecvArgs is how many receivers common.Args holds before the parameters.
func (c *Site) RecvArgs() int {
	if _, bound := ssaread.BoundReceiver(c.Common); !c.Common.IsInvoke() && !bound && c.Sig.Recv() != nil {
		return 1
	}
	return 0
}

// Receiver is the value a method is called on.
func (c *Site) Receiver() ssa.Value {
	if c.Sig.Recv() == nil {
		return nil
	}
	return ssaread.ReceiverValue(c.Common)
}

// Param finds the named parameter: its argument index j and the SSA
// argument passed for it.
func (c *Site) Param(name string) (int, ssa.Value, bool) {
	params := c.Sig.Params()
	for i := range params.Len() {
		if params.At(i).Name() != name {
			continue
		}
		j := i + c.RecvArgs()
		if j >= len(c.Common.Args) {
			return 0, nil, false
		}
		return j, c.Common.Args[j], true
	}
	return 0, nil, false
}

// CallPos is the whole call.
func (c *Site) CallPos() keymodel.Range {
	if c.Expr != nil {
		return keymodel.RangeOf(c.Expr)
	}
	return keymodel.Range{Pos: c.Common.Pos(), End: c.Common.Pos()}
}

// ArgPos is where the source writes argument j: the receiver, a parameter,
// or the first element of a variadic list; else the whole call.
func (c *Site) ArgPos(j int) keymodel.Range {
	if c.Expr == nil {
		return c.CallPos()
	}
	i := j - c.RecvArgs()
	if i < 0 {
		if sel, ok := ast.Unparen(c.Expr.Fun).(*ast.SelectorExpr); ok {
			return keymodel.RangeOf(sel.X)
		}
		return c.CallPos()
	}
	if i < len(c.Expr.Args) {
		return keymodel.RangeOf(c.Expr.Args[i])
	}
	return c.CallPos()
}

// ArgText is argument j as the source writes it, for messages.
func (c *Site) ArgText(j int, v ssa.Value) string {
	if i := j - c.RecvArgs(); c.Expr != nil && i >= 0 && i < len(c.Expr.Args) {
		return types.ExprString(c.Expr.Args[i])
	}
	return c.Eval.Show(v)
}

// ArgExpr is argument j as written, or nil.
func (c *Site) ArgExpr(j int) ast.Expr {
	if i := j - c.RecvArgs(); c.Expr != nil && i >= 0 && i < len(c.Expr.Args) {
		return c.Expr.Args[i]
	}
	return nil
}

// ElementsOfArg returns the elements of slice argument j, variadic or not,
// when they are fixed by a literal or by the call's argument list.
func (c *Site) ElementsOfArg(j int) ([]eval.Element, bool) {
	if j >= len(c.Common.Args) {
		return nil, false
	}
	values, ok := c.Eval.ElementsOf(c.Common.Args[j], 0, map[ssa.Value]bool{})
	if !ok {
		return nil, false
	}
	i := j - c.RecvArgs()
	out := make([]eval.Element, len(values))
	variadicList := c.Sig.Variadic() && i == c.Sig.Params().Len()-1 && c.Expr != nil && c.Expr.Ellipsis == token.NoPos
	for k, val := range values {
		switch {
		case variadicList && i+k < len(c.Expr.Args):
			out[k] = eval.Element{Value: val.Value, Keys: val.Keys, At: keymodel.RangeOf(c.Expr.Args[i+k])}
		default:
			at := c.ArgPos(j)
			if c.Expr != nil && i >= 0 && i < len(c.Expr.Args) {
				if lit, ok := ast.Unparen(c.Expr.Args[i]).(*ast.CompositeLit); ok && len(lit.Elts) == len(values) {
					at = keymodel.RangeOf(lit.Elts[k])
				}
			}
			out[k] = eval.Element{Value: val.Value, Keys: val.Keys, At: at}
		}
	}
	return out, true
}

// leadingElementsOfArg is the elements slice argument j surely starts with,
// and whether they are all of them (see eval.LeadingElements).
func (c *Site) leadingElementsOfArg(j int) ([]eval.Element, bool) {
	if els, ok := c.ElementsOfArg(j); ok {
		return els, true
	}
	if j >= len(c.Common.Args) {
		return nil, false
	}
	els, whole := c.Eval.LeadingElements(c.Common.Args[j])
	out := make([]eval.Element, len(els))
	for i, el := range els {
		out[i] = eval.Element{Value: el.Value, Keys: el.Keys, At: c.ArgPos(j)}
	}
	return out, whole
}

// ElementsOfParam is ElementsOfArg for a named parameter.
func (c *Site) ElementsOfParam(name string) ([]eval.Element, bool) {
	j, _, ok := c.Param(name)
	if !ok {
		return nil, false
	}
	return c.ElementsOfArg(j)
}

// KeysOfParam reads a key parameter: one string, or a []string's elements.
// A slice that is a parameter of the calling function is a spread: a
// wrapper's callers fill it in.
func (c *Site) KeysOfParam(name string) []keymodel.Arg {
	j, v, ok := c.Param(name)
	if !ok {
		return nil
	}
	if ssaread.IsString(v.Type()) {
		return []keymodel.Arg{c.KeyArg(v, c.ArgPos(j))}
	}
	return c.keysOfSlice(j)
}

// keysOfSlice reads the keys of slice argument j: its elements when the
// code fixes them, else a loop's family of keys (see eval.Family), else
// the calling function's slice parameter (a spread its callers fill), else
// a list the analyzer cannot read.
func (c *Site) keysOfSlice(j int) []keymodel.Arg {
	elems, ok := c.ElementsOfArg(j)
	if ok {
		return c.KeyArgs(elems)
	}
	return c.sliceKeys(j, c.Common.Args[j], true)
}

// sliceKeys reads the keys of slice v at argument j whose elements the
// code does not fix (see keysOfSlice); with alternatives, those of each
// slice a φ merges.
func (c *Site) sliceKeys(j int, v ssa.Value, alternatives bool) []keymodel.Arg {
	if p, ok := v.(*ssa.Parameter); ok {
		return []keymodel.Arg{{Spread: ssaread.ParamIndex(p), Unread: p.Name(), At: c.ArgPos(j)}}
	}
	if init, each, of, ok := c.Eval.Family(v); ok {
		return append(c.KeyArgs(init), keymodel.Arg{Alts: each, Family: of, At: c.ArgPos(j)})
	}
	if elems, each, of, ok := c.Eval.CalledFamily(v); ok {
		if each == nil {
			return c.KeyArgs(atArg(elems, c.ArgPos(j)))
		}
		return []keymodel.Arg{{Alts: each, Family: of, At: c.ArgPos(j)}}
	}
	if each, of, ok := serverKeys(c.Eval, v); ok {
		return []keymodel.Arg{{Alts: each, Family: of, At: c.ArgPos(j)}}
	}
	if phi, ok := v.(*ssa.Phi); ok && alternatives {
		if keys, ok := c.alternatives(j, phi); ok {
			return keys
		}
	}
	return []keymodel.Arg{{Unread: c.ArgText(j, v), At: c.ArgPos(j)}}
}

// maxLists bounds the slices a φ merges that alternatives reads.
const maxLists = 4

// alternatives reads a slice that is one of several the code assigns on
// different paths, a φ outside loops, as the keys of each (see
// keymodel.Arg.Apart): the command runs with one of them, whose keys
// never meet another's.
//
//	ks := keys                          // the caller's
//	if c.prefix != "" {
//		ks = make([]string, 0, len(keys))
//		for _, k := range keys { ks = append(ks, c.prefix+k) }
//	}
//	c.rdb.MGet(ctx, ks...)
func (c *Site) alternatives(j int, phi *ssa.Phi) ([]keymodel.Arg, bool) {
	if !c.Eval.Work().Enter() {
		return nil, false
	}
	defer c.Eval.Work().Leave()
	if len(phi.Edges) > maxLists {
		return nil, false
	}
	for _, pred := range phi.Block().Preds {
		if phi.Block().Dominates(pred) {
			return nil, false // a loop's: its edges are earlier iterations' values
		}
	}
	var out []keymodel.Arg
	for i, edge := range phi.Edges {
		var keys []keymodel.Arg
		if elems, ok := c.Eval.ElementsOf(edge, 0, map[ssa.Value]bool{}); ok {
			keys = c.KeyArgs(atArg(elems, c.ArgPos(j)))
			if len(keys) != len(elems) {
				return nil, false // an element that is no string
			}
		} else {
			keys = c.sliceKeys(j, edge, false)
		}
		for k := range keys {
			keys[k].Apart = keymodel.Alternative{Of: fmt.Sprintf("alt%p", phi), Is: i + 1}
		}
		out = append(out, keys...)
	}
	return out, true
}

func (c *Site) KeyArgs(elems []eval.Element) []keymodel.Arg {
	out := make([]keymodel.Arg, 0, len(elems))
	for _, el := range elems {
		if el.Value == nil {
			out = append(out, keymodel.Arg{Alts: el.Keys, At: el.At})
			continue
		}
		v := ssaread.UnwrapInterface(el.Value)
		if !ssaread.IsString(v.Type()) {
			return nil
		}
		out = append(out, c.KeyArg(v, el.At))
	}
	return out
}

// KeyArg reads one key value of the call. A variable assigned on some
// paths only is "" on the others (see eval.ZeroOnPath): that "" is left
// out where a test on the way to the call excludes it, and marked where
// the call runs with it.
func (c *Site) KeyArg(v ssa.Value, at keymodel.Range) keymodel.Arg {
	arg := keymodel.Arg{Alts: c.Eval.Keys(v), At: at}
	if c.Call == nil {
		return arg
	}
	reach, name := c.Eval.ZeroOnPath(v, c.Call)
	if reach == eval.NoZero {
		return arg
	}
	var set []keymodel.Key
	for _, k := range arg.Alts {
		if len(k) > 0 {
			set = append(set, k)
		}
	}
	if len(set) == 0 || len(set) == len(arg.Alts) {
		return arg
	}
	if reach == eval.ZeroOpen {
		set = append(set, keymodel.Key{})
		arg.ZeroOnPath = name
	}
	arg.Alts = set
	return arg
}

// atArg places elements at an argument.
func atArg(elems []eval.Element, at keymodel.Range) []eval.Element {
	out := make([]eval.Element, len(elems))
	for i, el := range elems {
		out[i] = eval.Element{Value: el.Value, Keys: el.Keys, At: at}
	}
	return out
}

// keysAt reads values of a struct field's slice, all reported at one place.
func (c *Site) keysAt(values []ssa.Value, at keymodel.Range) []keymodel.Arg {
	out := make([]keymodel.Arg, 0, len(values))
	for _, v := range values {
		out = append(out, c.KeyArg(v, at))
	}
	return out
}

// FieldOfParam finds the value stored into field name of a struct parameter
// built from a composite literal in the calling function: &T{F: v} or T{F: v}.
// An unset field of a literal is its zero value.
func (c *Site) FieldOfParam(param, name string) (eval.Element, bool) {
	j, v, ok := c.Param(param)
	if !ok {
		return eval.Element{}, false
	}
	at := c.ArgPos(j)
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X // a struct given as an interface (GLIDE's KeysOrWeightedKeys)
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X // a struct passed by value is loaded from its literal
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return eval.Element{}, false
	}
	st, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return eval.Element{}, false
	}
	fieldIdx := -1
	for f := range st.NumFields() {
		if st.Field(f).Name() == name {
			fieldIdx = f
		}
	}
	if fieldIdx < 0 {
		return eval.Element{}, false
	}
	for _, ref := range *alloc.Referrers() {
		if call, isCall := ref.(ssa.CallInstruction); isCall && call.Common() != c.Common {
			return eval.Element{}, false // another call may fill it in
		}
	}
	var stored ssa.Value
	switch stores := ssaread.FieldStores(alloc, fieldIdx); len(stores) {
	case 0:
		stored = ssa.NewConst(nil, st.Field(fieldIdx).Type()) // a literal leaves unset fields zero
	case 1:
		stored = stores[0].Val
	default:
		return eval.Element{}, false // written twice: which one reaches the call is flow-dependent
	}
	return eval.Element{Value: stored, At: at}, true
}

// InstantiateKeys puts the call's arguments into each key of a callee's
// sink (see InstantiateKey).
func (c *Site) InstantiateKeys(keys []keymodel.Arg) []keymodel.Arg {
	var out []keymodel.Arg
	for _, k := range keys {
		out = append(out, c.InstantiateKey(k)...)
	}
	return out
}

// InstantiateKey puts the call's arguments into one key of a callee's sink.
// A key that came from the callee's parameters is placed at the argument it
// came from and marked ViaCall; the callee's own keys are placed at the call.
func (c *Site) InstantiateKey(k keymodel.Arg) []keymodel.Arg {
	out := c.instantiateKey(k)
	if k.Apart.Of != "" {
		// The alternatives of the callee's φ, this call's.
		for i := range out {
			out[i].Apart = keymodel.Alternative{Of: fmt.Sprintf("%s@%p", k.Apart.Of, c.Common), Is: k.Apart.Is}
		}
	}
	return out
}

func (c *Site) instantiateKey(k keymodel.Arg) []keymodel.Arg {
	args := c.Common.Args
	if k.Spread > 0 {
		if k.Spread > len(args) {
			return nil
		}
		elems, ok := c.ElementsOfArg(k.Spread - 1)
		if !ok {
			if p, ok := args[k.Spread-1].(*ssa.Parameter); ok {
				return []keymodel.Arg{{Spread: ssaread.ParamIndex(p), At: c.ArgPos(k.Spread - 1), ViaCall: true}}
			}
			// A batch the caller builds in a loop (a family of keys),
			// as the command itself would read it; nothing it cannot read.
			out := c.keysOfSlice(k.Spread - 1)
			for i := range out {
				if out[i].Unread != "" || out[i].Spread > 0 {
					return nil
				}
				out[i].ViaCall = true
			}
			return out
		}
		out := c.KeyArgs(elems)
		for i := range out {
			out[i].ViaCall = true
		}
		return out
	}
	at := c.CallPos()
	fromParams := false
	var alts []keymodel.Key
	for _, alt := range k.Alts {
		if p := alt.FirstParam(); p > 0 && !fromParams {
			fromParams, at = true, c.ArgPos(p-1)
		}
		alts = append(alts, c.Eval.Instantiate(alt, args, fmt.Sprintf("call%p", c.Common), 0, map[ssa.Value]bool{})...)
	}
	if len(alts) > keymodel.MaxAlternatives {
		alts = []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: "too-many", Show: "…"})}
	}
	return []keymodel.Arg{{Alts: alts, At: at, ViaCall: fromParams}}
}

// maxRootDepth bounds the conversions and embedded fields ClientRoot looks
// through.
const maxRootDepth = 8

// ClientRoot is the value a client value comes from, through interface
// conversions and embedded fields (go-redis's commands are methods of an
// embedded cmdable): the parameter, the TxPipeline() call, and so on.
func ClientRoot(v ssa.Value) ssa.Value {
	for depth := 0; depth < maxRootDepth; depth++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			if !ok || x.Op != token.MUL || !ssaread.IsEmbedded(fa.X.Type(), fa.Field) {
				return v
			}
			v = fa.X
		case *ssa.Field:
			if !ssaread.IsEmbedded(x.X.Type(), x.Field) {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
	return v
}

// ClientParam is the 1-based index of the parameter a client value is
// (see ClientRoot), 0 if it is not a parameter.
func ClientParam(v ssa.Value) int {
	if p, ok := ClientRoot(v).(*ssa.Parameter); ok {
		return ssaread.ParamIndex(p)
	}
	return 0
}

// A Library is the client library a call site belongs to.
type Library int

const (
	GoRedis Library = iota
	Redigo
	Rueidis // rueidis and valkey-go
	Glide   // Valkey GLIDE
)
