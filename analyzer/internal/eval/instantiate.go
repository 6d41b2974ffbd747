package eval

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// returns is what the function a call calls statically returns (see
// Callees), nothing for a call of a function value.
func (e *Evaluator) returns(call *ssa.Call) Returned {
	if fn := call.Call.StaticCallee(); fn != nil {
		return e.callees.Returns(fn)
	}
	return Returned{}
}

// CalledFamily reads a call of a helper that builds one key per element of
// a slice it is given (see Returned): with the caller's slice fixed, its
// keys, one per element; else a family over that slice. ok is false for
// any other value.
func (e *Evaluator) CalledFamily(v ssa.Value) (elems []Element, each []keymodel.Key, of string, ok bool) {
	call, isCall := v.(*ssa.Call)
	if !isCall {
		return nil, nil, "", false
	}
	ret := e.returns(call)
	if ret.EachOf == 0 || ret.EachOf > len(call.Call.Args) {
		return nil, nil, "", false
	}
	if ret.MapBy > 0 {
		return e.mappedFamily(call, ret)
	}
	slice := call.Call.Args[ret.EachOf-1]
	fresh := e.id(call)
	if fixed, ok := e.ElementsOf(slice, 0, map[ssa.Value]bool{}); ok {
		for _, el := range fixed {
			var ks []keymodel.Key
			for _, tmpl := range ret.Each {
				ks = append(ks, e.instantiateEach(tmpl, call.Call.Args, fresh, e.ElementKeys(el, 0, map[ssa.Value]bool{}))...)
			}
			elems = append(elems, Element{Keys: ks})
		}
		return elems, nil, "", true
	}
	element := keymodel.UnknownKey(keymodel.ElementPart(e.elementOf(slice, fresh), e.id(slice)))
	for _, tmpl := range ret.Each {
		each = append(each, e.instantiateEach(tmpl, call.Call.Args, fresh, []keymodel.Key{element})...)
	}
	return nil, each, e.elementsOf(slice), true
}

// mappedFamily reads a call of a helper that maps each element of a slice
// it is given by a function it is given (see ParamMap) to a key, the
// function one the analysis summarizes:
//
//	rdb.MGet(ctx, Map(ids, userKey)...)
//	rdb.MGet(ctx, Map(ids, func(id int64) string { return "order:" + strconv.FormatInt(id, 10) })...)
//
// The function's values other than its parameter are the same for every
// element (one closure, its captured values).
func (e *Evaluator) mappedFamily(call *ssa.Call, ret Returned) (elems []Element, each []keymodel.Key, of string, ok bool) {
	args := call.Call.Args
	if ret.MapBy > len(args) {
		return nil, nil, "", false
	}
	fn := e.funcOf(args[ret.MapBy-1])
	if fn == nil || fn.Signature.Recv() != nil || fn.Signature.Params().Len() != 1 {
		return nil, nil, "", false
	}
	tmpl := e.callees.Returns(fn).Result
	if tmpl == nil {
		return nil, nil, "", false
	}
	slice := args[ret.EachOf-1]
	fresh := e.id(call)
	if fixed, ok := e.ElementsOf(slice, 0, map[ssa.Value]bool{}); ok {
		for _, el := range fixed {
			if el.Value == nil {
				return nil, nil, "", false
			}
			var ks []keymodel.Key
			for _, t := range tmpl {
				ks = append(ks, e.Instantiate(t, []ssa.Value{el.Value}, fresh, 0, map[ssa.Value]bool{})...)
			}
			if len(ks) > keymodel.MaxAlternatives {
				return nil, nil, "", false
			}
			elems = append(elems, Element{Keys: ks})
		}
		return elems, nil, "", true
	}
	for _, t := range tmpl {
		ks, ok := e.mapEach(t, fresh, e.elementOf(slice, fresh), e.id(slice))
		if !ok {
			return nil, nil, "", false
		}
		each = append(each, ks...)
	}
	if len(each) > keymodel.MaxAlternatives {
		return nil, nil, "", false
	}
	return nil, each, e.elementsOf(slice), true
}

// oneToOne are the verbs that write different values as different text.
var oneToOne = map[string]bool{"": true, "%d": true, "%x": true, "%s": true, "%v": true, "%q": true}

// mapEach puts an element of the slice of the given id into a template of
// a function of one parameter: written one to one, a part that differs
// from one element to the next (keymodel.ElementPart); written otherwise,
// a value the same for every element, which only ever makes the analysis
// quieter. The function's own values are the call's (fresh).
func (e *Evaluator) mapEach(tmpl keymodel.Key, fresh string, elem keymodel.Part, slice string) ([]keymodel.Key, bool) {
	out := []keymodel.Key{{}}
	for _, p := range tmpl {
		if !p.Unknown || p.Param != 1 {
			out = keymodel.Product(out, e.Instantiate(keymodel.Key{p}, nil, fresh, 0, map[ssa.Value]bool{}))
			continue
		}
		if p.Join {
			return nil, false
		}
		q := elem
		q.ID += "/" + p.Verb
		q.NoBrace, q.NonEmpty, q.Braces = p.NoBrace, p.NonEmpty, p.Braces
		if oneToOne[p.Verb] {
			q = keymodel.ElementPart(q, slice)
		}
		out = keymodel.Product(out, []keymodel.Key{keymodel.UnknownKey(q)})
	}
	return out, true
}

// funcOf is the function a function value calls: a declared function or
// a function literal, with or without captured values.
func (e *Evaluator) funcOf(v ssa.Value) *ssa.Function {
	v, _ = e.underlying(v)
	for range maxDepth {
		switch f := v.(type) {
		case *ssa.Function:
			return f
		case *ssa.MakeClosure:
			fn, _ := f.Fn.(*ssa.Function)
			return fn
		case *ssa.ChangeType:
			v = f.X
			continue
		}
		return nil
	}
	return nil
}

// ParamMap reads a slice result built by calling the function's function
// parameter with each element of its slice parameter, in order, one
// result per element:
//
//	func Map[T, U any](xs []T, f func(T) U) []U {
//		out := make([]U, 0, len(xs))
//		for _, x := range xs { out = append(out, f(x)) }
//		return out
//	}
//
// the slice parameter's number and the function parameter's.
func (e *Evaluator) ParamMap(v ssa.Value) (of, by int, ok bool) {
	f, ok := e.familyOf(v)
	if ok && f.iterator != nil {
		return yieldParamMap(f)
	}
	p, isParam := f.slice.(*ssa.Parameter)
	if !ok || len(f.init) > 0 || !isParam || len(f.loads) == 0 {
		return 0, 0, false
	}
	call, isCall := ssaread.UnwrapInterface(f.added).(*ssa.Call)
	if !isCall || call.Call.IsInvoke() || len(call.Call.Args) != 1 {
		return 0, 0, false
	}
	fp, isParam := call.Call.Value.(*ssa.Parameter)
	load, isLoad := call.Call.Args[0].(*ssa.UnOp)
	if !isParam || fp.Parent() != p.Parent() || !isLoad || !slices.Contains(f.loads, load) {
		return 0, 0, false
	}
	return ssaread.ParamIndex(p), ssaread.ParamIndex(fp), true
}

// instantiateEach instantiates a key template whose Elem parts stand for
// each element of a slice: elem is the keys one element is.
func (e *Evaluator) instantiateEach(tmpl keymodel.Key, args []ssa.Value, fresh string, elem []keymodel.Key) []keymodel.Key {
	out := []keymodel.Key{{}}
	for _, p := range tmpl {
		if p.Elem > 0 {
			out = keymodel.Product(out, elem)
			continue
		}
		out = keymodel.Product(out, e.Instantiate(keymodel.Key{p}, args, fresh, 0, map[ssa.Value]bool{}))
	}
	return out
}

// ParamFamily reads a []string result built one key per element of the
// function's own slice parameter (see Family): the parameter's number, and
// the key, its element parts marked Elem.
func (e *Evaluator) ParamFamily(v ssa.Value) (param int, each []keymodel.Key, ok bool) {
	init, each, _, slice, ok := e.family(v)
	p, isParam := slice.(*ssa.Parameter)
	if !ok || len(init) > 0 || !isParam {
		return 0, nil, false
	}
	param = ssaread.ParamIndex(p)
	base := keymodel.ElementPart(keymodel.Part{}, e.id(p)).Base
	out := make([]keymodel.Key, len(each))
	for i, k := range each {
		out[i] = append(keymodel.Key(nil), k...)
		for j := range out[i] {
			if out[i][j].Unknown && out[i][j].Base == base {
				out[i][j].Elem, out[i][j].Base = param, ""
			}
		}
	}
	return param, out, true
}

// summarizedElements reads the slice a builder returns.
func (e *Evaluator) summarizedElements(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]Element, bool) {
	elems := e.returns(call).Elems
	if elems == nil {
		return nil, false
	}
	out := make([]Element, len(elems))
	fresh := e.id(call)
	for i, alts := range elems {
		var ks []keymodel.Key
		for _, tmpl := range alts {
			ks = append(ks, e.Instantiate(tmpl, call.Call.Args, fresh, depth, visiting)...)
		}
		if len(ks) > keymodel.MaxAlternatives {
			ks = []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fresh + "/too-many", Show: "…"})}
		}
		out[i] = Element{Keys: ks}
	}
	return out, true
}

// evalSummarized evaluates a call of a key builder: its summary's result
// with the call's arguments put in.
func (e *Evaluator) evalSummarized(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	returned := e.returns(call)
	result := returned.Result
	if result == nil && call.Call.StaticCallee() == nil {
		return e.evalFieldCall(call, depth, visiting)
	}
	if result == nil {
		return nil, false
	}
	if returned.Option != "" {
		e.met = append(e.met, choice{option: returned.Option})
		if e.world.Defaults {
			result = returned.ByDefault
		}
	}
	var out []keymodel.Key
	for _, tmpl := range result {
		out = append(out, e.Instantiate(tmpl, call.Call.Args, e.id(call), depth, visiting)...)
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	return out, len(out) > 0
}

// Instantiate puts a call's arguments into a key template. Unknown parts
// that are not parameters are the callee's own values: each call has its
// own, so they are renamed after the call (fresh).
func (e *Evaluator) Instantiate(tmpl keymodel.Key, args []ssa.Value, fresh string, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	if !e.work.Enter() {
		return []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fresh + "/unread", Show: "a value past the analysis's bound"})}
	}
	defer e.work.Leave()
	if g := tmpl.Guard(); !g.IsZero() {
		return e.instantiateGuarded(tmpl.Unguarded(), g, args, fresh, depth, visiting)
	}
	out := []keymodel.Key{{}}
	for _, p := range tmpl {
		switch {
		case !p.Unknown:
			out = keymodel.Product(out, []keymodel.Key{{p}})
		case p.Param > 0 && p.Param <= len(args) && p.Join:
			if elems, ok := e.ElementsOf(args[p.Param-1], depth, visiting); ok && len(elems) <= MaxElements {
				if p.Lead && len(elems) > 0 {
					out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(p.Verb)})
				}
				out = keymodel.Product(out, e.joined(elems, p.Verb, depth, visiting))
			} else {
				out = keymodel.Product(out, []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fresh + "/" + p.ID, Show: p.Show})})
			}
		case p.Param > 0 && p.Param <= len(args):
			arg := args[p.Param-1]
			if name, f, rest, ok := stringFuncOf(p.Verb); ok {
				out = keymodel.Product(out, e.applied(name, f, e.eval(arg, depth, visiting), rest, nil))
			} else if layout, isTime := strings.CutPrefix(p.Verb, timeVerb); isTime {
				out = keymodel.Product(out, []keymodel.Key{e.timeKey(arg, layout, e.Show(arg))})
			} else if p.Verb == "" && p.NonEmpty {
				// The callee takes this way only when the argument is not "".
				out = keymodel.Product(out, nonEmptyAlternatives(e.eval(arg, depth, visiting)))
			} else if p.Verb == "" {
				out = keymodel.Product(out, e.eval(arg, depth, visiting))
			} else if ks, ok := e.printedUnlessBare(p, arg, depth, visiting); ok {
				out = keymodel.Product(out, ks)
			} else {
				out = keymodel.Product(out, []keymodel.Key{e.formatted(p.Verb, arg, "", traits{noBrace: p.NoBrace, nonEmpty: p.NonEmpty, braces: p.Braces})})
			}
		case p.Of > 0 && p.Of <= len(args):
			// A value of the object the argument points to: the caller's
			// object's, shared with every other read of it.
			if value, ok := literalField(args[p.Of-1], p.Sub); ok {
				// A struct the caller writes out (Ref{ID: id}.String()):
				// the value its literal gives the field.
				out = keymodel.Product(out, e.eval(value, depth, visiting))
				continue
			}
			root, path, foreign := e.objectOf(args[p.Of-1])
			if arg, param, ok := e.madeFromArg(root, path+p.Sub); ok {
				// A struct a call made from its arguments: the value is
				// the caller's argument, an element of its loop among them.
				q := p
				q.Of, q.Sub, q.Param = 0, "", param
				out = keymodel.Product(out, e.Instantiate(keymodel.Key{q}, []ssa.Value{arg}, fresh, depth, visiting))
				continue
			}
			q := p
			q.ID, q.Sub, q.Of = e.id(root)+path+p.Sub, path+p.Sub, 0
			if dot := strings.IndexByte(p.Show, '.'); dot > 0 {
				// Shown as the caller writes the object (hk(a).m, not the
				// method's h.m): two objects are two values, and one
				// written the same way twice is most likely one.
				q.Show = e.Show(args[p.Of-1]) + p.Show[dot:]
			}
			if param, ok := root.(*ssa.Parameter); ok && !foreign {
				q.Of = ssaread.ParamIndex(param)
			}
			out = keymodel.Product(out, []keymodel.Key{{q}})
		default:
			q := p
			q.ID, q.Param, q.Verb, q.Of = fresh+"/"+p.ID, 0, "", 0
			out = keymodel.Product(out, []keymodel.Key{{q}})
		}
	}
	return out
}

// printedUnlessBare is a parameter's part formatted from the caller's
// argument by the String method of its type, unless the callee formats it
// as the basic value it converted it to.
func (e *Evaluator) printedUnlessBare(p keymodel.Part, arg ssa.Value, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	if p.Bare {
		return nil, false
	}
	return e.printedByMethod(p.Verb, arg, depth, visiting)
}

// literalField is, for a struct value arg copied from a private struct
// variable (see privateStruct), the value of its field at sub (".f0"),
// the one value stored there before the copy.
func literalField(arg ssa.Value, sub string) (ssa.Value, bool) {
	index, err := strconv.Atoi(strings.TrimPrefix(sub, ".f"))
	if err != nil || !strings.HasPrefix(sub, ".f") {
		return nil, false
	}
	return copiedField(ssaread.UnwrapInterface(arg), index)
}

// evalFieldCall evaluates a call of a function held in a struct field,
// r.key(id), that the package fills with functions it sees every one of
// (a constructor's literal, a setter): the keys of each, its summary with
// the call's arguments put in, a closure's captured values its own.
func (e *Evaluator) evalFieldCall(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	load, ok := call.Call.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	values, ok := e.FieldWrites(fa.X.Type(), fa.Field)
	if !ok {
		return nil, false
	}
	var out []keymodel.Key
	for i, v := range values {
		fn := e.funcOf(v)
		if fn == nil {
			return nil, false
		}
		result := e.callees.Returns(fn).Result
		if result == nil {
			return nil, false
		}
		for _, tmpl := range result {
			out = append(out, e.Instantiate(tmpl, call.Call.Args, fmt.Sprintf("%s/%d", e.id(call), i), depth, visiting)...)
		}
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	return out, len(out) > 0
}

// madeFromArg finds, in an object a static call made, the part sub (a
// field's template part, "|"+its id) that is one of the callee's
// parameters as it stored it (func key(c ID) campaignKey { return
// campaignKey{c} }): the call's argument, and 1 as the parameter number
// to put it in as.
func (e *Evaluator) madeFromArg(root ssa.Value, sub string) (ssa.Value, int, bool) {
	call, ok := root.(*ssa.Call)
	if !ok {
		return nil, 0, false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return nil, 0, false
	}
	var param *ssa.Parameter
	if in, id, ok := strings.Cut(sub, "|"); ok {
		if in != "" || strings.Contains(id, "|") {
			return nil, 0, false
		}
		for _, p := range callee.Params {
			if e.id(p) == id {
				param = p
			}
		}
	} else if field, err := strconv.Atoi(strings.TrimPrefix(sub, ".f")); err == nil && strings.HasPrefix(sub, ".f") {
		switch v := storedValue(callee, field).(type) {
		case *ssa.Parameter:
			param = v
		case *ssa.Const:
			return v, 1, true // the same for every call
		}
	}
	if param == nil {
		return nil, 0, false
	}
	i := ssaread.ParamIndex(param) - 1
	if i < 0 || i >= len(call.Call.Args) {
		return nil, 0, false
	}
	return call.Call.Args[i], 1, true
}

// storedValue is the parameter or constant fn stores into field of the
// struct it returns, when it returns one composite literal:
// func key(c ID) campaignKey { return campaignKey{c} }.
func storedValue(fn *ssa.Function, field int) ssa.Value {
	var lit *ssa.Alloc
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 || lit != nil {
			return nil
		}
		load, ok := ret.Results[0].(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return nil
		}
		if lit, ok = load.X.(*ssa.Alloc); !ok {
			return nil
		}
	}
	if lit == nil {
		return nil
	}
	stores := ssaread.FieldStores(lit, field)
	if len(stores) != 1 {
		return nil
	}
	v := stores[0].Val
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	switch v.(type) {
	case *ssa.Parameter, *ssa.Const:
		return v
	}
	return nil
}

// instantiateGuarded puts a call's arguments into a template the callee
// returns only when the value of g is "" (see keymodel.Guard): nothing
// when the caller's value is never empty, the keys alone when it is "",
// and else the keys guarded by the caller's value, when it is one.
func (e *Evaluator) instantiateGuarded(tmpl keymodel.Key, g keymodel.Guard, args []ssa.Value, fresh string, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	keys := e.Instantiate(tmpl, args, fresh, depth, visiting)
	value := e.Instantiate(keymodel.UnknownKey(keymodel.Part{ID: g.ID, Param: g.Param, Of: g.Of, Sub: g.Sub}), args, fresh, depth, visiting)
	if len(value) != 1 {
		return keys
	}
	if text, known := value[0].Known(); known {
		if text == "" {
			return keys
		}
		return nil
	}
	if len(value[0]) != 1 {
		return keys
	}
	p := value[0][0]
	if p.NonEmpty {
		return nil
	}
	out := make([]keymodel.Key, len(keys))
	for i, k := range keys {
		out[i] = k.Guarded(keymodel.Guard{ID: p.ID, Param: p.Param, Of: p.Of, Sub: p.Sub})
	}
	return out
}

// nonEmptyAlternatives is the alternatives of a value that may be not "",
// a value of one unknown part marked so.
func nonEmptyAlternatives(keys []keymodel.Key) []keymodel.Key {
	var out []keymodel.Key
	for _, k := range keys {
		switch text, known := k.Known(); {
		case known && text == "":
		case len(k) == 1 && k[0].Unknown:
			out = append(out, k.NonEmptyValue(k[0].ID))
		default:
			out = append(out, k)
		}
	}
	return out
}

// elementOf is one element of a collection a call gives a helper, the
// call's own (fresh), shown as ids[i] or as a value of an iterator.
func (e *Evaluator) elementOf(collection ssa.Value, fresh string) keymodel.Part {
	show := e.Show(collection) + "[i]"
	if _, iterator := collection.Type().Underlying().(*types.Signature); iterator {
		show = "value of " + e.Show(collection)
	}
	return keymodel.Part{ID: fresh + "/elem", Show: show}
}

// elementsOf names a collection's elements in messages.
func (e *Evaluator) elementsOf(collection ssa.Value) string {
	if _, iterator := collection.Type().Underlying().(*types.Signature); iterator {
		return "values of " + e.Show(collection)
	}
	return "elements of " + e.Show(collection)
}

// ParamElements marks the parts of k that are each element of a slice
// parameter of fn in turn (a loop over it, a command sent per element):
// Elem, the parameter's number, as ParamFamily marks a result's. ok
// reports any.
func (e *Evaluator) ParamElements(fn *ssa.Function, k keymodel.Key) (keymodel.Key, bool) {
	var out keymodel.Key
	for _, param := range fn.Params {
		if _, ok := param.Type().Underlying().(*types.Slice); !ok {
			continue
		}
		base := keymodel.ElementPart(keymodel.Part{}, e.id(param)).Base
		for j, p := range k {
			if p.Unknown && p.Base == base {
				if out == nil {
					out = append(keymodel.Key(nil), k...)
				}
				out[j].Elem, out[j].Base = ssaread.ParamIndex(param), ""
			}
		}
	}
	return out, out != nil
}

// EachElementKeys puts a call's arguments into a key template whose Elem
// parts stand for each element of a slice the call gives (see
// ParamElements): with the caller's slice fixed, the keys of each element
// in turn; else the keys of one element of a family over it. ok is false
// for a template of no such part.
func (e *Evaluator) EachElementKeys(tmpl keymodel.Key, args []ssa.Value, fresh string) (each [][]keymodel.Key, family []keymodel.Key, ok bool) {
	param := 0
	for _, p := range tmpl {
		if p.Elem > 0 {
			param = p.Elem
		}
	}
	if param == 0 || param > len(args) {
		return nil, nil, false
	}
	slice := args[param-1]
	if fixed, ok := e.ElementsOf(slice, 0, map[ssa.Value]bool{}); ok {
		if len(fixed) > MaxElements {
			return nil, nil, false
		}
		for _, el := range fixed {
			each = append(each, e.instantiateEach(tmpl, args, fresh, e.ElementKeys(el, 0, map[ssa.Value]bool{})))
		}
		return each, nil, true
	}
	if init, keys, _, ok := e.Family(slice); ok && len(init) == 0 {
		return nil, e.instantiateEach(tmpl, args, fresh, keys), true // a slice built in a loop
	}
	element := keymodel.UnknownKey(keymodel.ElementPart(e.elementOf(slice, fresh), e.id(slice)))
	return nil, e.instantiateEach(tmpl, args, fresh, []keymodel.Key{element}), true
}

// Rehome gives back to fn's parameters the parts of keys read in a function
// literal inside fn (a TxPipelined or Dedicated callback) that hold them:
// there they are a closure's captured values, the same values but no holes
// for callers (see notParams); for fn's summary they are fn's parameters
// again, a part of one, or one formatted by a verb, as if read in fn.
func (e *Evaluator) Rehome(keys []keymodel.Key, fn *ssa.Function) []keymodel.Key {
	ids := map[string]int{}
	for _, p := range fn.Params {
		ids[e.id(p)] = ssaread.ParamIndex(p)
	}
	out := make([]keymodel.Key, len(keys))
	for i, k := range keys {
		out[i] = append(keymodel.Key(nil), k...)
		for j, p := range out[i] {
			if !p.Unknown || p.Param > 0 || p.Of > 0 {
				continue
			}
			if n, ok := ids[p.ID]; ok {
				p.Param = n
			} else if p.Sub != "" && strings.HasSuffix(p.ID, p.Sub) {
				if n, ok := ids[strings.TrimSuffix(p.ID, p.Sub)]; ok {
					p.Of = n
				}
			} else if verb, rest, ok := strings.Cut(p.ID, "("); ok && strings.HasPrefix(verb, "%") && strings.HasSuffix(rest, ")") {
				if n, ok := ids[strings.TrimSuffix(rest, ")")]; ok {
					p.Param, p.Verb = n, verb
				}
			}
			out[i][j] = p
		}
	}
	return out
}

// returnedField reads a field of the struct a call returns, keys.Cart(u).Items,
// from the callee's summary (Returned.Fields): its template with the call's
// arguments put in. path is the field's, directly on the call's result.
func (e *Evaluator) returnedField(root ssa.Value, path string) ([]keymodel.Key, bool) {
	for fv, ok := root.(*ssa.FreeVar); ok; fv, ok = root.(*ssa.FreeVar) {
		// k := keys.Cart(u) captured by a callback, k.Items read in it:
		// the variable the enclosing function binds.
		if root = e.binding(fv); root == nil {
			return nil, false
		}
	}
	if alloc, isAlloc := root.(*ssa.Alloc); isAlloc {
		if stored, once := storedWhole(alloc, true); once {
			root = stored // k := keys.Cart(u), then k.Items
		}
	}
	call, ok := root.(*ssa.Call)
	if !ok || !strings.HasPrefix(path, ".f") {
		return nil, false
	}
	i, err := strconv.Atoi(path[2:])
	if err != nil {
		return nil, false
	}
	fields := e.returns(call).Fields
	if i >= len(fields) || fields[i] == nil {
		return nil, false
	}
	var out []keymodel.Key
	for _, tmpl := range fields[i] {
		out = append(out, e.Instantiate(tmpl, call.Call.Args, e.id(call), 0, map[ssa.Value]bool{})...)
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	return out, len(out) > 0
}

// ReturnedFields reads fn's struct result when every return is one
// composite literal whose string fields it builds from its parameters (a
// set of an entity's keys, func Cart(u UserID) CartKeys): each field's
// alternatives, by index; nil when it returns no such struct.
func (e *Evaluator) ReturnedFields(fn *ssa.Function) [][]keymodel.Key {
	results := fn.Signature.Results()
	if results.Len() != 1 {
		return nil
	}
	st, ok := results.At(0).Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var lit *ssa.Alloc
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		load, ok := ret.Results[0].(*ssa.UnOp)
		if !ok || load.Op != token.MUL || lit != nil {
			return nil
		}
		if lit, ok = load.X.(*ssa.Alloc); !ok {
			return nil
		}
	}
	if lit == nil {
		return nil
	}
	out := make([][]keymodel.Key, st.NumFields())
	found := false
	for i := range st.NumFields() {
		if !ssaread.IsString(st.Field(i).Type()) {
			continue
		}
		stores := ssaread.FieldStores(lit, i)
		if len(stores) != 1 {
			continue
		}
		ks := e.Keys(stores[0].Val)
		for _, k := range ks {
			if len(k) > 1 || len(k) == 1 && (!k[0].Unknown || k[0].Param > 0) {
				out[i], found = ks, true // some text, or a parameter: a caller learns something
				break
			}
		}
	}
	if !found {
		return nil
	}
	return out
}
