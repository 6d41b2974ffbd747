package eval

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/budget"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// evaluator turns SSA values into abstract keys.
// maxDepth bounds how deep evaluation follows a value: past it the value is
// unknown, which only ever makes the analyzer quieter.
const maxDepth = 24

type Evaluator struct {
	Source  Source // the syntax SSA points back to
	Info    *types.Info
	prog    *ssa.Program
	stores  *stores // what the package's variables and fields are set to
	callees Callees // what called functions return
	// bindings caches the value the enclosing function gives a closure's
	// free variable.
	bindings map[*ssa.FreeVar]ssa.Value

	// While a loop is unrolled (see unroll): the current element's value for
	// the loads of it, and the accumulators' values so far.
	valueEnv map[ssa.Value]ssa.Value
	keyEnv   map[ssa.Value][]keymodel.Key
	sliceEnv map[ssa.Value][]Element

	// world picks among alternatives (see World); met records what it
	// would pick among, for the reader to ask for worlds (Mark, Worlds);
	// defaults caches each function's paths at its options' defaults.
	world    World
	met      []choice
	defaults map[*ssa.Function]*defaultPaths

	// work bounds the reading of the package, shared by every evaluator
	// of it (see budget).
	work *budget.Work
}

// Callees tells the evaluator what a called function returns, in terms of
// its parameters, so that it can put a call's arguments in: the analysis
// summarizes the package's functions and reads other packages' facts.
type Callees interface {
	// Returns is what fn returns that the analysis can read.
	Returns(fn *ssa.Function) Returned
}

// Returned is what a function returns, in terms of its parameters: its
// string result's alternatives, its []string result's elements when they
// are a fixed list, or, when it builds one key per element of its slice
// parameter number EachOf, that key (its Elem parts the element), or,
// MapBy > 0, the result of its function parameter number MapBy called with
// the element (a generic Map). Nil and zero when the function builds no
// key the analysis can read.
type Returned struct {
	Result []keymodel.Key
	// ByDefault is Result at the options' defaults, when Option decides
	// which return runs (see World).
	ByDefault []keymodel.Key
	Option    string
	Elems     [][]keymodel.Key
	EachOf    int
	Each      []keymodel.Key
	MapBy     int
	// Fields are, for a struct result that every return builds as one
	// composite literal, each string field's alternatives (by index; nil
	// for a field it does not write as a key).
	Fields [][]keymodel.Key
}

// New evaluates the values of one package.
func New(pkg *ssa.Package, funcs []*ssa.Function, info *types.Info, src Source, embedded map[types.Object]string, c Callees) *Evaluator {
	return &Evaluator{
		Source: src, Info: info, prog: pkg.Prog, stores: indexStores(pkg, funcs, embedded), callees: c,
		bindings: map[*ssa.FreeVar]ssa.Value{},
		valueEnv: map[ssa.Value]ssa.Value{}, keyEnv: map[ssa.Value][]keymodel.Key{}, sliceEnv: map[ssa.Value][]Element{},
		defaults: map[*ssa.Function]*defaultPaths{}, work: &budget.Work{},
	}
}

// Work is the bound of the package's reading, which every reader of the
// package enters before it recurses.
func (e *Evaluator) Work() *budget.Work { return e.work }

// Keys returns the alternatives a string-valued SSA value can take. It never
// returns an empty slice: what it cannot follow is one unknown part.
func (e *Evaluator) Keys(v ssa.Value) []keymodel.Key {
	return e.eval(v, 0, map[ssa.Value]bool{})
}

func (e *Evaluator) eval(v ssa.Value, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	v = e.resolve(v)
	if ks, ok := e.keyEnv[v]; ok {
		return ks
	}
	if depth > maxDepth || visiting[v] || !e.work.Enter() {
		return []keymodel.Key{e.opaque(v)}
	}
	defer e.work.Leave()
	visiting[v] = true
	defer delete(visiting, v)
	depth++

	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return []keymodel.Key{keymodel.TextKey(constant.StringVal(v.Value))}
		}
		if v.Value == nil && ssaread.IsString(v.Type()) {
			return []keymodel.Key{keymodel.TextKey("")}
		}
	case *ssa.BinOp:
		if v.Op == token.ADD && ssaread.IsString(v.Type()) {
			return keymodel.Product(e.eval(v.X, depth, visiting), e.eval(v.Y, depth, visiting))
		}
	case *ssa.Phi:
		if _, loop := loopEntry(v); loop {
			if ks, ok := e.unrollString(v, depth, visiting); ok {
				return ks
			}
			break
		}
		var out []keymodel.Key
		live, option, chosen := e.optionEdges(v)
		if chosen {
			e.met = append(e.met, choice{option: option})
		}
		for i, edge := range v.Edges {
			if chosen && e.world.Defaults && !live[i] {
				continue // another way than the options' defaults
			}
			ks := e.eval(edge, depth, visiting)
			if tests := emptyTestsOnEdge(v.Block().Preds[i], v.Block()); len(tests) > 0 {
				ks = e.underTests(ks, tests, depth, visiting) // if ns != "" { k = ns + ":" + k }
			}
			out = append(out, ks...)
			if len(out) > keymodel.MaxAlternatives {
				return []keymodel.Key{e.tooMany(v, out)}
			}
		}
		return out
	case *ssa.MakeInterface:
		return e.eval(v.X, depth, visiting)
	case *ssa.ChangeType:
		return e.eval(v.X, depth, visiting)
	case *ssa.Convert:
		// string(b) where b is a named string type, or string([]byte(s)).
		if ssaread.IsString(v.Type()) && ssaread.IsString(v.X.Type()) {
			return e.eval(v.X, depth, visiting)
		}
		if ssaread.IsString(v.Type()) && depth < maxDepth {
			if ks, ok := e.bytesText(v.X, depth, visiting); ok {
				return ks // string(b) of a []byte built as text
			}
		}
	case *ssa.Parameter:
		return []keymodel.Key{e.paramKey(v)}
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			if ks, ok := e.received(v, depth, visiting); ok {
				return ks
			}
		}
		if v.Op == token.MUL {
			if u, foreign := e.underlying(v); u != ssa.Value(v) {
				ks := e.eval(u, depth, visiting)
				if foreign {
					ks = notParams(ks)
				}
				return ks
			}
			if ks, ok := e.load(v, depth, visiting); ok {
				return ks
			}
		}
	case *ssa.Field:
		if value, ok := privateFieldValue(v); ok {
			return e.eval(value, depth, visiting)
		}
		if ks, ok := e.fieldKeys(v); ok {
			return ks
		}
	case *ssa.Lookup:
		if value, ok := literalMapValue(v); ok {
			return e.eval(value, depth, visiting)
		}
	case *ssa.Extract:
		if recv, ok := v.Tuple.(*ssa.UnOp); ok && recv.Op == token.ARROW && v.Index == 0 {
			if ks, ok := e.received(recv, depth, visiting); ok {
				return ks // v, ok := <-ch, and a range over ch
			}
		}
	case *ssa.Call:
		if ks, ok := e.evalCall(v, depth, visiting); ok {
			return ks
		}
		if ks, ok := e.evalSummarized(v, depth, visiting); ok {
			return ks
		}
	}
	return []keymodel.Key{e.opaque(v)}
}

// load reads a package variable that the package only ever sets to one
// value, or a struct field (see fieldKeys).
func (e *Evaluator) load(load *ssa.UnOp, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	switch addr := load.X.(type) {
	case *ssa.Global:
		if init, ok := e.stores.global(addr); ok {
			if init == nil {
				return []keymodel.Key{keymodel.TextKey("")}, true // never set: the zero value
			}
			return e.eval(init, depth, visiting), true
		}
		if init := e.stores.ownInit(addr); init != nil && ssaread.IsString(addr.Type().(*types.Pointer).Elem()) {
			// An exported variable another package may set: unknown, but
			// one its own package sets to a brace (Prefix = "user:{") is
			// taken to hold a brace, so that no finding rests on it
			// holding none.
			for _, k := range e.eval(init, depth, visiting) {
				if slices.ContainsFunc(k, func(p keymodel.Part) bool { return !p.Unknown && strings.ContainsAny(p.Text, "{}") }) {
					opaque := e.opaque(load)
					opaque[0].Braces = true
					return []keymodel.Key{opaque}, true
				}
			}
		}
	case *ssa.FieldAddr:
		if value, ok := privateField(addr.X, addr.Field, load, 0); ok {
			return e.eval(value, depth, visiting), true
		}
		if e.storesInto(addr) {
			// The function changes it: the value it stored just before,
			// else each read its own value.
			if v, ok := e.storedBefore(load, addr); ok {
				return e.eval(v, depth, visiting), true
			}
			return nil, false
		}
		return e.fieldKeys(load)
	}
	return nil, false
}

// fieldKeys reads a string field of a value (read loads it, or takes it
// from a struct value). A field is one value for the whole life of the
// value it belongs to, wherever a function reads it, when the function does
// not store into it: two keys built from it compare as keys built from one
// variable. When the package sees every value stored into the field (an
// unexported field of its own type, set by a constructor, a composite
// literal, an option or a setter), the field holds those values' keys, the
// template it was given: its unknown parts, the values it was built from
// (the constructor's parameters), are values of the same object too, shared
// by every field built from them:
//
//	&Queue{pendingKey: "dq:" + name + ":pending", readyKey: "dq:" + name + ":ready"}
//
// makes q.pendingKey "dq:<name>:pending" and q.readyKey "dq:<name>:ready"
// for one name, q's. Read through a parameter, such a part says so
// (keymodel.Part.Of), so that a caller's call of a method puts its own
// value in.
func (e *Evaluator) fieldKeys(read ssa.Value) ([]keymodel.Key, bool) {
	if !ssaread.IsString(read.Type()) {
		return nil, false
	}
	root, path, foreign := e.objectOf(read)
	if path == "" {
		return nil, false
	}
	of := 0
	if p, isParam := root.(*ssa.Parameter); isParam && !foreign {
		of = ssaread.ParamIndex(p)
	}
	if ks, ok := e.returnedField(root, path); ok {
		return ks, true
	}
	object := e.id(root)
	base, index := fieldOf(read)
	if tmpl, ok := e.fieldTemplate(base.Type(), index); ok {
		// The values the field was built from belong to the object the
		// field is in: its path from the root, without the field.
		in := path[:strings.LastIndex(path, ".f")]
		out := make([]keymodel.Key, len(tmpl))
		for i, k := range tmpl {
			out[i] = append(keymodel.Key(nil), k...)
			for j, p := range out[i] {
				if p.Unknown {
					if name, ok := e.copiedInto(base.Type(), p.ID); ok {
						p.Show = e.Show(base) + "." + name // shown as the field that holds it
					}
					sub := in + "|" + p.ID
					p.ID, p.Of, p.Sub, p.Param, p.Verb, p.Join = object+sub, of, sub, 0, "", false
					p.Given = false // a value of the object now, whoever gave it to the constructor
					out[i][j] = p
				}
			}
		}
		return out, true
	}
	part := keymodel.Part{ID: object + path, Show: e.Show(read), Of: of, Sub: path}
	if ks, ok := configuredFieldKeys(base.Type(), index, part); ok {
		return ks, true
	}
	return []keymodel.Key{keymodel.UnknownKey(part)}, true
}

// copiedInto names the field of struct type t that holds exactly the value
// of id, as a constructor's name: name does.
func (e *Evaluator) copiedInto(t types.Type, id string) (string, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for i := range st.NumFields() {
		if !ssaread.IsString(st.Field(i).Type()) {
			continue
		}
		if tmpl, ok := e.fieldTemplate(t, i); ok && len(tmpl) == 1 && len(tmpl[0]) == 1 && tmpl[0][0].Unknown && tmpl[0][0].ID == id {
			return st.Field(i).Name(), true
		}
	}
	return "", false
}

// objectOf follows a value down to the object it is a field of (a field
// of a field of it, ...): that root, and the path of field indexes from it,
// ".f2.f0"; a value that is no field read is its own root, path "".
// foreign says the root belongs to an enclosing function (see underlying).
func (e *Evaluator) objectOf(v ssa.Value) (root ssa.Value, path string, foreign bool) {
	v, foreign = e.underlying(v)
	for range maxDepth {
		x, index := fieldOf(v)
		if x == nil {
			break
		}
		path = fmt.Sprintf(".f%d", index) + path
		var f bool
		v, f = e.underlying(x)
		foreign = foreign || f
	}
	// A value receiver read from the local copy SSA makes of it: its fields
	// (path set, the copy itself), or the copy passed on whole (a load).
	copied := v
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && path == "" {
		copied = load.X
	}
	if alloc, ok := copied.(*ssa.Alloc); ok && (path != "" || copied != v) {
		if p, ok := spilledCopy(alloc); ok {
			v = p
		}
	}
	return v, path, foreign
}

// spilledCopy is the parameter a local struct is a copy of, when the
// function only stores it there once and reads fields of it: SSA keeps a
// value receiver so, (b Board) String() reading b.Game.
func spilledCopy(alloc *ssa.Alloc) (*ssa.Parameter, bool) {
	if alloc.Heap {
		return nil, false
	}
	var param *ssa.Parameter
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			p, ok := ref.Val.(*ssa.Parameter)
			if !ok || ref.Addr != ssa.Value(alloc) || param != nil {
				return nil, false
			}
			param = p
		case *ssa.FieldAddr:
			for _, use := range *ref.Referrers() {
				if load, ok := use.(*ssa.UnOp); !ok || load.Op != token.MUL {
					if _, debug := use.(*ssa.DebugRef); !debug {
						return nil, false // written, or its address passed on
					}
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return param, param != nil
}

// fieldOf is the value a field read reads a field of, and the field's
// index; nil for anything else.
func fieldOf(v ssa.Value) (ssa.Value, int) {
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			return fa.X, fa.Field
		}
	case *ssa.Field:
		return v.X, v.Field
	case *ssa.FieldAddr:
		return v.X, v.Field // a struct field's address: s.opts in s.opts.Prefix
	}
	return nil, 0
}

// paramKey is a parameter of the function being evaluated: unknown here, a
// hole its callers fill (see instantiate).
func (e *Evaluator) paramKey(p *ssa.Parameter) keymodel.Key {
	return keymodel.UnknownKey(keymodel.Part{ID: e.id(p), Show: p.Name(), Param: ssaread.ParamIndex(p), Given: true})
}

// underlying is the value v stands for: through interfaces, the iteration
// being unrolled, and loads of a variable stored once and never written
// again, as a parameter or local captured by a closure is (SSA keeps it in a
// cell; every use is a load of its own). foreign says the value belongs to
// an enclosing function, reached from a closure's free variable: it is the
// same value for identity, but not a parameter of the closure.
func (e *Evaluator) underlying(v ssa.Value) (u ssa.Value, foreign bool) {
	for range maxDepth {
		v = ssaread.UnwrapInterface(e.resolve(ssaread.UnwrapInterface(v)))
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return v, foreign
		}
		cell := load.X
		for fv, ok := cell.(*ssa.FreeVar); ok; fv, ok = cell.(*ssa.FreeVar) {
			b := e.binding(fv) // a closure's closure binds its parent's free variable
			if b == nil {
				return v, foreign
			}
			cell, foreign = b, true
		}
		alloc, ok := cell.(*ssa.Alloc)
		if !ok {
			return v, foreign
		}
		stored, ok := storedOnce(alloc)
		if !ok {
			return v, foreign
		}
		v = stored
	}
	return v, foreign
}

// notParams makes a foreign function's parameters plain unknown parts: the
// same values for identity, but no holes for this function's callers.
func notParams(ks []keymodel.Key) []keymodel.Key {
	out := make([]keymodel.Key, len(ks))
	for i, k := range ks {
		out[i] = append(keymodel.Key(nil), k...)
		for j := range out[i] {
			if out[i][j].Param > 0 && !out[i][j].Join {
				out[i][j].Param, out[i][j].Verb = 0, ""
			}
			out[i][j].Of = 0
		}
	}
	return out
}

// resolve is what v stands for in the iteration being unrolled.
func (e *Evaluator) resolve(v ssa.Value) ssa.Value {
	for {
		r, ok := e.valueEnv[v]
		if !ok {
			return v
		}
		v = r
	}
}

// opaque is a value the evaluator does not follow: one unknown part that may
// be empty and may hold braces.
func (e *Evaluator) opaque(v ssa.Value) keymodel.Key {
	p := keymodel.Part{ID: e.id(v), Show: e.Show(v), Configured: configuredCall(v)}
	if slice, ok := e.loopElement(v); ok {
		p = keymodel.ElementPart(p, slice)
	}
	return keymodel.UnknownKey(p)
}

// tooMany is a value of more alternatives than are followed: one unknown
// part, which may hold a brace, and on which no claim is made, when one of
// them places a brace (keyPrefix = "{" + keyPrefix + "}" on one branch):
// the code tags the value on some path.
func (e *Evaluator) tooMany(v ssa.Value, alts []keymodel.Key) keymodel.Key {
	k := e.opaque(v)
	for _, alt := range alts {
		for _, p := range alt {
			if !p.Unknown && strings.ContainsAny(p.Text, "{}") {
				k[0].Braces, k[0].ID = true, k[0].ID+"/too-many"
				return k
			}
		}
	}
	return k
}

// loopElement says whether v is the element a range loop reads of a slice
// the code does not fix (an input), and names that slice: the element
// differs from one iteration to the next.
func (e *Evaluator) loopElement(v ssa.Value) (slice string, ok bool) {
	if phi, ok := variant(v, 0); ok {
		return e.id(phi), true // one to one with an open loop's index
	}
	if m, ok := rangedMap(v); ok {
		if u, _ := e.underlying(m); !isMadeHere(u) {
			return e.id(m), true // an input map's key: another in each iteration
		}
	}
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return "", false
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok {
		return "", false
	}
	if phi, ok := variant(ia.Index, 0); ok {
		return e.id(phi), true // an input's element at an open loop's index
	}
	next, ok := ia.Index.(*ssa.BinOp)
	if !ok {
		return "", false
	}
	index, ok := next.X.(*ssa.Phi)
	if !ok {
		return "", false
	}
	loop, ok := rangeLoopOf(index)
	if !ok || loop.slice != ia.X {
		return "", false
	}
	if _, fixed := e.ElementsOf(loop.slice, 0, map[ssa.Value]bool{}); fixed {
		return "", false
	}
	return e.id(loop.slice), true
}

// variant reports a value that differs from one iteration of an open loop
// (see openLoopOf) to the next: its index, or a value one to one with it
// (i+c, c-i, i*c for c ≠ 0, -i, a conversion, t.AddDate or t.Add of it on
// a time that does not vary), and the loop's index.
func variant(v ssa.Value, depth int) (*ssa.Phi, bool) {
	if depth > maxDepth {
		return nil, false
	}
	depth++
	switch v := v.(type) {
	case *ssa.Phi:
		if _, ok := openIndexOf(v); ok {
			return v, true
		}
	case *ssa.BinOp:
		x, okX := variant(v.X, depth)
		y, okY := variant(v.Y, depth)
		switch {
		case okX == okY:
			return nil, false // neither varies, or both do: not one to one
		case v.Op == token.ADD || v.Op == token.SUB:
			return firstOf(x, y), true
		case v.Op == token.MUL:
			c, isConst := ssaread.ConstInt(v.Y)
			if !okX {
				c, isConst = ssaread.ConstInt(v.X)
			}
			if isConst && c != 0 {
				return firstOf(x, y), true
			}
		}
	case *ssa.UnOp:
		if v.Op == token.SUB {
			return variant(v.X, depth)
		}
	case *ssa.Convert:
		return variant(v.X, depth)
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || fn.Signature.Recv() == nil || !isTime(fn.Signature.Recv().Type()) || (fn.Name() != "AddDate" && fn.Name() != "Add") {
			return nil, false
		}
		if _, varies := variant(v.Call.Args[0], depth); varies {
			return nil, false
		}
		for _, arg := range v.Call.Args[1:] {
			if phi, ok := variant(arg, depth); ok {
				return phi, true
			}
		}
	}
	return nil, false
}

func firstOf(x, y *ssa.Phi) *ssa.Phi {
	if x != nil {
		return x
	}
	return y
}

// id names a value for identity: a constant by its value, anything else by
// the SSA value itself (interfaces unwrapped), so two reads of one value match.
// ID is the id parts of value v carry (see keymodel.Part.ID).
func (e *Evaluator) ID(v ssa.Value) string { return e.id(v) }

func (e *Evaluator) id(v ssa.Value) string {
	if !e.work.Enter() {
		return fmt.Sprintf("v%p", v)
	}
	defer e.work.Leave()
	switch v := v.(type) {
	case *ssa.Const:
		return "const:" + v.String()
	case *ssa.MakeInterface:
		return e.id(v.X)
	case *ssa.Field:
		return fmt.Sprintf("%s.f%d", e.id(v.X), v.Field) // a field of a struct value never changes
	case *ssa.FieldAddr:
		base, _ := e.underlying(v.X) // a captured receiver is loaded from its cell at each use
		return fmt.Sprintf("&%s.f%d", e.id(base), v.Field)
	case *ssa.Call:
		// A struct value a function makes from its arguments, hk(m) in
		// hk(m).hold(): made twice from one value, it is one value.
		if id, ok := e.valueCallID(v); ok {
			return id
		}
	case *ssa.UnOp:
		// A field read through a pointer, q.name, is one value wherever the
		// function reads it, when the function never stores into it: two
		// keys built from it compare like keys built from one variable.
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL && !e.storesInto(fa) {
			return "*" + e.id(fa)
		}
	}
	return fmt.Sprintf("v%p", v)
}

// valueCallID is the id of a struct value made by a static call, from
// its callee and its arguments' ids; ok is false for other calls (a
// pointer is an object of its own each time).
func (e *Evaluator) valueCallID(call *ssa.Call) (string, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || len(call.Call.Args) == 0 {
		return "", false
	}
	if _, isStruct := call.Type().Underlying().(*types.Struct); !isStruct {
		return "", false
	}
	ids := make([]string, len(call.Call.Args))
	for i, a := range call.Call.Args {
		ids[i] = e.id(a)
	}
	return "call:" + callee.String() + "(" + strings.Join(ids, ",") + ")", true
}

// storedBefore finds the value the function stored into the field that
// load reads, earlier in the load's block, with no call in between that
// could store into it again: s.ch = x; ...; read(s.ch).
func (e *Evaluator) storedBefore(load *ssa.UnOp, fa *ssa.FieldAddr) (ssa.Value, bool) {
	base, _ := e.underlying(fa.X)
	instrs := load.Block().Instrs
	at := -1
	for i, instr := range instrs {
		if instr == ssa.Instruction(load) {
			at = i
		}
	}
	for i := at - 1; i >= 0; i-- {
		switch instr := instrs[i].(type) {
		case *ssa.Store:
			other, ok := instr.Addr.(*ssa.FieldAddr)
			if !ok || other.Field != fa.Field {
				continue
			}
			if b, _ := e.underlying(other.X); b == base {
				return instr.Val, true
			}
			return nil, false // another value's field, which may be this one
		case ssa.CallInstruction:
			if _, builtin := instr.Common().Value.(*ssa.Builtin); !builtin {
				return nil, false
			}
		}
	}
	return nil, false
}

// privateFieldValue reads a field of a copy of a private struct variable
// (see privateStruct): pair{From: a, To: b}.From is a.
func privateFieldValue(f *ssa.Field) (ssa.Value, bool) { return copiedField(f.X, f.Field) }

// copiedField is field number field of v, a copy of a private struct
// variable (*p), as it was when copied.
func copiedField(v ssa.Value, field int) (ssa.Value, bool) {
	copied, ok := v.(*ssa.UnOp)
	if !ok || copied.Op != token.MUL {
		return nil, false
	}
	return privateField(copied.X, field, copied, 0)
}

// privateField is the value field number field of the private struct
// variable v holds at instruction at: the one value stored into that field,
// or the field of the one whole value stored into v (p := pair{...} copies
// the literal's variable into p's), before at on every path.
func privateField(v ssa.Value, field int, at ssa.Instruction, depth int) (ssa.Value, bool) {
	if depth > maxDepth || !privateStruct(v) {
		return nil, false
	}
	stores := ssaread.FieldStores(v.(*ssa.Alloc), field)
	whole := false
	for _, ref := range *v.Referrers() {
		if st, ok := ref.(*ssa.Store); ok {
			stores, whole = append(stores, st), true
		}
	}
	if len(stores) != 1 || !ssaread.Dominates(stores[0], at) {
		return nil, false // set twice, or not before at
	}
	stored := stores[0]
	if !whole {
		return stored.Val, true
	}
	copied, ok := stored.Val.(*ssa.UnOp)
	if !ok || copied.Op != token.MUL {
		return nil, false
	}
	return privateField(copied.X, field, copied, depth+1)
}

// privateStruct reports a struct variable of the function whose address
// never leaves it (p := pair{From: a, To: b}; use(p.From)): only its
// fields' addresses are taken, and only to load or store them, so no call
// can write it.
func privateStruct(v ssa.Value) bool {
	alloc, ok := v.(*ssa.Alloc)
	if !ok || alloc.Heap {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp: // a copy of the whole value
		case *ssa.Store:
			if ref.Addr != ssa.Value(alloc) {
				return false // the address itself is stored
			}
		case *ssa.FieldAddr:
			for _, use := range *ref.Referrers() {
				switch use := use.(type) {
				case *ssa.UnOp, *ssa.DebugRef:
				case *ssa.Store:
					if use.Addr != ssa.Value(ref) {
						return false // the address itself is stored
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// storesInto reports whether the function that reads a field through fa
// also stores into that field of that value.
func (e *Evaluator) storesInto(fa *ssa.FieldAddr) bool {
	base, _ := e.underlying(fa.X)
	for _, b := range fa.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if other, ok := st.Addr.(*ssa.FieldAddr); ok && other.Field == fa.Field {
				if b, _ := e.underlying(other.X); b == base {
					return true
				}
			}
		}
	}
	return false
}

// Show gives the source expression of a value for messages.
func (e *Evaluator) Show(v ssa.Value) string {
	if !e.work.Enter() {
		return "a value"
	}
	defer e.work.Leave()
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Alloc:
		if v.Comment != "" && !strings.Contains(v.Comment, " ") {
			return v.Comment // a local variable, or a parameter kept in one
		}
	case *ssa.Phi:
		if loop, ok := rangeIntOf(v); ok {
			return e.rangeKey(v, e.Show(loop.bound))
		}
		if v.Comment != "" && !strings.Contains(v.Comment, " ") {
			return v.Comment // a variable assigned on several paths, a loop's index
		}
	case *ssa.Global:
		return v.Name()
	case *ssa.MakeInterface:
		return e.Show(v.X)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return e.Show(v.X)
		}
	case *ssa.FieldAddr:
		return e.Show(v.X) + "." + ssaread.FieldName(v.X.Type(), v.Field)
	case *ssa.IndexAddr:
		return e.Show(v.X) + "[i]" // a loop's element
	case *ssa.Field:
		return e.Show(v.X) + "." + ssaread.FieldName(v.X.Type(), v.Field)
	case *ssa.Lookup, *ssa.Index:
		if name, ok := e.Source.Assigned[v.Pos()]; ok {
			return name // shown by the variable that holds it
		}
		x, index := v.(ssa.Instruction).Operands(nil)[0], v.(ssa.Instruction).Operands(nil)[1]
		if c, ok := (*index).(*ssa.Const); ok {
			return e.Show(*x) + "[" + c.Value.ExactString() + "]"
		}
		return e.Show(*x) + "[" + e.Show(*index) + "]"
	case *ssa.Extract:
		if name, ok := e.Source.Assigned[v.Tuple.Pos()]; ok && v.Index == 0 && v.Tuple.Pos().IsValid() {
			return name // the first of a call's results, by the variable that holds it
		}
		if m, ok := rangedMap(v); ok {
			return e.rangeKeyOf(e.Show(m)) // a map's key, by the range statement's name
		}
	case *ssa.Call:
		if name, ok := e.Source.Assigned[v.Pos()]; ok {
			return name // a call's result is shown by the variable that holds it
		}
		if ce := e.Source.Calls[v.Pos()]; ce != nil {
			return types.ExprString(ce)
		}
	case *ssa.BinOp:
		if c, ok := e.resolve(v.Y).(*ssa.Const); ok {
			return e.Show(v.X) + v.Op.String() + c.Value.ExactString()
		}
	}
	return "…"
}

// rangeKey names the index of a range over the integer bound: the key of
// the innermost range statement over bound whose body holds the index's
// first block.
func (e *Evaluator) rangeKey(index *ssa.Phi, bound string) string {
	name, size := "…", token.Pos(0)
	for _, instr := range index.Block().Instrs {
		pos := instr.Pos()
		if !pos.IsValid() {
			continue
		}
		for _, r := range e.Source.Ranges {
			if r.X == bound && r.Body.Pos <= pos && pos < r.Body.End && (size == 0 || r.Body.End-r.Body.Pos < size) {
				name, size = r.Key, r.Body.End-r.Body.Pos
			}
		}
		if size > 0 {
			return name
		}
	}
	return name
}

// rangedMap is the map v is the key of in a range over it.
func rangedMap(v ssa.Value) (ssa.Value, bool) {
	key, ok := v.(*ssa.Extract)
	if !ok || key.Index != 1 {
		return nil, false
	}
	next, ok := key.Tuple.(*ssa.Next)
	if !ok || next.IsString {
		return nil, false
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok {
		return nil, false
	}
	return rng.X, true
}

// rangeKeyOf is the key's name of the one range statement over x, "…" when
// there is none or more than one.
func (e *Evaluator) rangeKeyOf(x string) string {
	name := ""
	for _, r := range e.Source.Ranges {
		if r.X == x {
			if name != "" && name != r.Key {
				return "…"
			}
			name = r.Key
		}
	}
	if name == "" {
		return "…"
	}
	return name
}
