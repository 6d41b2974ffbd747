package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Limits that keep evaluation linear on generated code: past them a value is
// unknown, which only ever makes the analyzer quieter.
const (
	maxDepth        = 24
	MaxAlternatives = 8
)

// evaluator turns SSA values into abstract keys.
type Evaluator struct {
	Source  Source // the syntax SSA points back to
	Info    *types.Info
	stores  *stores // what the package's variables and fields are set to
	callees Callees // what called functions return
	// bindings caches the value the enclosing function gives a closure's
	// free variable.
	bindings map[*ssa.FreeVar]ssa.Value

	// While a loop is unrolled (see unroll): the current element's value for
	// the loads of it, and the accumulators' values so far.
	valueEnv map[ssa.Value]ssa.Value
	keyEnv   map[ssa.Value][]Key
	sliceEnv map[ssa.Value][]Element
}

// callees tells the evaluator what a called function returns, in terms of
// its parameters, so that it can put a call's arguments in: the analysis
// summarizes the package's functions and reads other packages' facts.
type Callees interface {
	// returns is fn's string result's alternatives and its []string
	// result's elements, nil when fn builds no key the analysis can read.
	returns(fn *ssa.Function) (result []Key, elems [][]Key)
}

// newEvaluator evaluates the values of one package.
func NewEvaluator(pkg *ssa.Package, funcs []*ssa.Function, info *types.Info, src Source, embedded map[types.Object]string, c Callees) *Evaluator {
	return &Evaluator{
		Source: src, Info: info, stores: indexStores(pkg, funcs, embedded), callees: c,
		bindings: map[*ssa.FreeVar]ssa.Value{},
		valueEnv: map[ssa.Value]ssa.Value{}, keyEnv: map[ssa.Value][]Key{}, sliceEnv: map[ssa.Value][]Element{},
	}
}

// keys returns the alternatives a string-valued SSA value can take. It never
// returns an empty slice: what it cannot follow is one unknown part.
func (e *Evaluator) Keys(v ssa.Value) []Key {
	return e.eval(v, 0, map[ssa.Value]bool{})
}

func (e *Evaluator) eval(v ssa.Value, depth int, visiting map[ssa.Value]bool) []Key {
	v = e.resolve(v)
	if ks, ok := e.keyEnv[v]; ok {
		return ks
	}
	if depth > maxDepth || visiting[v] {
		return []Key{e.opaque(v)}
	}
	visiting[v] = true
	defer delete(visiting, v)
	depth++

	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.String {
			return []Key{TextKey(constant.StringVal(v.Value))}
		}
		if v.Value == nil && IsString(v.Type()) {
			return []Key{TextKey("")}
		}
	case *ssa.BinOp:
		if v.Op == token.ADD && IsString(v.Type()) {
			return Product(e.eval(v.X, depth, visiting), e.eval(v.Y, depth, visiting))
		}
	case *ssa.Phi:
		if _, loop := rangeLoopOf(v); loop {
			if ks, ok := e.unrollString(v, depth, visiting); ok {
				return ks
			}
			break
		}
		var out []Key
		for _, edge := range v.Edges {
			out = append(out, e.eval(edge, depth, visiting)...)
			if len(out) > MaxAlternatives {
				return []Key{e.opaque(v)}
			}
		}
		return out
	case *ssa.MakeInterface:
		return e.eval(v.X, depth, visiting)
	case *ssa.ChangeType:
		return e.eval(v.X, depth, visiting)
	case *ssa.Convert:
		// string(b) where b is a named string type, or string([]byte(s)).
		if IsString(v.Type()) && IsString(v.X.Type()) {
			return e.eval(v.X, depth, visiting)
		}
		if inner, ok := v.X.(*ssa.Convert); ok && IsString(v.Type()) && IsString(inner.X.Type()) {
			return e.eval(inner.X, depth, visiting)
		}
	case *ssa.Parameter:
		return []Key{e.paramKey(v)}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if u, foreign := e.underlying(v); u != ssa.Value(v) {
				ks := e.eval(u, depth, visiting)
				if foreign {
					ks = notParams(ks)
				}
				return ks
			}
			if ks, ok := e.load(v.X, depth, visiting); ok {
				return ks
			}
		}
	case *ssa.Field:
		if text, ok := e.field(v.X.Type(), v.Field); ok {
			return []Key{TextKey(text)}
		}
	case *ssa.Call:
		if ks, ok := e.evalCall(v, depth, visiting); ok {
			return ks
		}
		if ks, ok := e.evalSummarized(v, depth, visiting); ok {
			return ks
		}
	}
	return []Key{e.opaque(v)}
}

// load reads a package variable or a struct field that the package only
// ever sets to one value (see stores).
func (e *Evaluator) load(addr ssa.Value, depth int, visiting map[ssa.Value]bool) ([]Key, bool) {
	switch addr := addr.(type) {
	case *ssa.Global:
		if init, ok := e.stores.global(addr); ok {
			if init == nil {
				return []Key{TextKey("")}, true // never set: the zero value
			}
			return e.eval(init, depth, visiting), true
		}
	case *ssa.FieldAddr:
		if text, ok := e.field(addr.X.Type(), addr.Field); ok {
			return []Key{TextKey(text)}, true
		}
	}
	return nil, false
}

// paramKey is a parameter of the function being evaluated: unknown here, a
// hole its callers fill (see instantiate).
func (e *Evaluator) paramKey(p *ssa.Parameter) Key {
	return UnknownKey(Part{ID: e.id(p), Show: p.Name(), Param: ParamIndex(p)})
}

// paramIndex is the 1-based index of p among its function's parameters.
func ParamIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i + 1
		}
	}
	return 0
}

// formatted is a value the code formats with a fmt verb (strconv's decimal
// and hex forms are %d and %x): the text when the value is a constant, else
// an unknown part whose identity is the verb and the value, so that
// Sprintf("%d", id) and strconv.Itoa(id) are one part. A parameter stays a
// hole for callers.
func (e *Evaluator) formatted(verb string, v ssa.Value, show string, noBrace, nonEmpty bool) Key {
	v, foreign := e.underlying(v)
	if text, ok := formatConst(verb, v); ok {
		return TextKey(text)
	}
	if show == "" {
		show = e.Show(v)
	}
	p := Part{ID: verb + "(" + e.id(v) + ")", Show: show, NoBrace: noBrace, NonEmpty: nonEmpty}
	if param, ok := v.(*ssa.Parameter); ok && !foreign {
		p.Param, p.Verb = ParamIndex(param), verb
	}
	return UnknownKey(p)
}

// underlying is the value v stands for: through interfaces, the iteration
// being unrolled, and loads of a variable stored once and never written
// again, as a parameter or local captured by a closure is (SSA keeps it in a
// cell; every use is a load of its own). foreign says the value belongs to
// an enclosing function, reached from a closure's free variable: it is the
// same value for identity, but not a parameter of the closure.
func (e *Evaluator) underlying(v ssa.Value) (u ssa.Value, foreign bool) {
	for range maxDepth {
		v = UnwrapInterface(e.resolve(UnwrapInterface(v)))
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
func notParams(ks []Key) []Key {
	out := make([]Key, len(ks))
	for i, k := range ks {
		out[i] = append(Key(nil), k...)
		for j := range out[i] {
			if out[i][j].Param > 0 && !out[i][j].Join {
				out[i][j].Param, out[i][j].Verb = 0, ""
			}
		}
	}
	return out
}

// formatConst formats a string or integer constant as fmt would.
func formatConst(verb string, v ssa.Value) (string, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return "", false
	}
	switch c.Value.Kind() {
	case constant.String:
		return fmt.Sprintf(verb, constant.StringVal(c.Value)), true
	case constant.Int:
		if n, exact := constant.Int64Val(c.Value); exact {
			return fmt.Sprintf(verb, n), true
		}
		if n, exact := constant.Uint64Val(c.Value); exact {
			return fmt.Sprintf(verb, n), true
		}
	}
	return "", false
}

// evalCall follows the standard library's pure string builders.
func (e *Evaluator) evalCall(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]Key, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Signature.Recv() != nil {
		return nil, false
	}
	args := call.Call.Args
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "fmt.Sprintf":
		return e.sprintf(call, depth, visiting)
	case "strings.Join":
		sep, ok := ConstString(args[1])
		if !ok {
			return nil, false
		}
		if p, ok := args[0].(*ssa.Parameter); ok {
			// A variadic builder: its callers' elements, joined.
			return []Key{UnknownKey(Part{ID: "join(" + e.id(p) + "," + sep + ")", Show: e.Show(call), Param: ParamIndex(p), Verb: sep, Join: true})}, true
		}
		elems, ok := e.ElementsOf(args[0], depth, visiting)
		if !ok || len(elems) > MaxElements {
			return nil, false
		}
		return e.joined(elems, sep, depth, visiting), true
	case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint":
		// Digits (and a sign): never empty, never a brace. Base 10 and 16
		// are fmt's %d and %x, so the same value gives the same part.
		verb := "%d"
		if len(args) == 2 {
			switch base, _ := ConstInt(args[1]); base {
			case 10:
			case 16:
				verb = "%x"
			default:
				return []Key{UnknownKey(Part{ID: fn.Name() + "(" + e.id(args[0]) + "," + e.id(args[1]) + ")",
					Show: e.Show(call), NoBrace: true, NonEmpty: true})}, true
			}
		}
		return []Key{e.formatted(verb, args[0], e.Show(call), true, true)}, true
	}
	return nil, false
}

// joined is the elements' keys with sep between them.
func (e *Evaluator) joined(elems []Element, sep string, depth int, visiting map[ssa.Value]bool) []Key {
	out := []Key{{}}
	for i, el := range elems {
		if i > 0 {
			out = Product(out, []Key{TextKey(sep)})
		}
		out = Product(out, e.ElementKeys(el, depth, visiting))
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

// sprintf evaluates fmt.Sprintf with a constant format. Verbs it does not
// model make the whole result unknown, never wrong.
func (e *Evaluator) sprintf(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]Key, bool) {
	format, ok := ConstString(call.Call.Args[0])
	if !ok {
		return nil, false
	}
	args, ok := SliceElements(call.Call.Args[1])
	if !ok {
		return nil, false
	}
	var astArgs []ast.Expr
	if ce := e.Source.Calls[call.Pos()]; ce != nil && ce.Ellipsis == token.NoPos && len(ce.Args) == len(args)+1 {
		astArgs = ce.Args[1:]
	}
	out := []Key{{}}
	argNum := 0
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			out = Product(out, []Key{TextKey(format[i:])})
			break
		}
		out = Product(out, []Key{TextKey(format[i : i+j])})
		i += j + 1
		spec, verb, next, explicit, ok := ScanVerb(format, i)
		if !ok {
			return nil, false
		}
		i = next
		if verb == '%' {
			out = Product(out, []Key{TextKey("%")})
			continue
		}
		if explicit > 0 {
			argNum = explicit - 1
		}
		if argNum >= len(args) {
			return nil, false
		}
		arg := UnwrapInterface(e.resolve(UnwrapInterface(args[argNum])))
		var show string
		if astArgs != nil {
			show = types.ExprString(astArgs[argNum])
		}
		argNum++
		piece, ok := e.formatArg(spec, verb, arg, show, depth, visiting)
		if !ok {
			return nil, false
		}
		out = Product(out, piece)
		if len(out) > MaxAlternatives {
			return nil, false
		}
	}
	return out, true
}

// formatArg is one verb applied to one argument.
func (e *Evaluator) formatArg(spec string, verb byte, arg ssa.Value, show string, depth int, visiting map[ssa.Value]bool) ([]Key, bool) {
	if c, ok := arg.(*ssa.Const); ok && c.Value != nil {
		// A constant is formatted by fmt itself, so flags and widths are exact.
		text, ok := formatConst(spec, c)
		return []Key{TextKey(text)}, ok
	}
	plain := spec == "%"+string(verb)
	basic, _ := arg.Type().Underlying().(*types.Basic)
	switch {
	case basic != nil && basic.Info()&types.IsInteger != 0 && strings.IndexByte("dvx", verb) >= 0:
		// Digits, a sign, or hex digits, maybe padded: never a brace or empty.
		return []Key{e.formatted(spec, arg, show, true, true)}, true
	case basic != nil && basic.Info()&types.IsString != 0 && (verb == 's' || verb == 'v') && plain:
		return e.eval(arg, depth, visiting), true
	case basic != nil && basic.Info()&types.IsString != 0 && verb == 'x':
		return []Key{e.formatted(spec, arg, show, true, false)}, true
	}
	return []Key{e.formatted(spec, arg, show, false, false)}, true
}

// scanVerb reads one verb after a '%' at format[i:]: flags, an optional
// explicit argument index [n], width and precision. It gives up on '*'.
func ScanVerb(format string, i int) (spec string, verb byte, next, explicit int, ok bool) {
	var b strings.Builder
	b.WriteByte('%')
	for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
		b.WriteByte(format[i])
		i++
	}
	if i < len(format) && format[i] == '[' {
		end := strings.IndexByte(format[i:], ']')
		if end < 0 {
			return "", 0, 0, 0, false
		}
		n, err := strconv.Atoi(format[i+1 : i+end])
		if err != nil || n < 1 {
			return "", 0, 0, 0, false
		}
		explicit = n
		i += end + 1
	}
	for i < len(format) && (format[i] >= '0' && format[i] <= '9' || format[i] == '.') {
		b.WriteByte(format[i])
		i++
	}
	if i >= len(format) || format[i] == '*' || format[i] == '[' {
		return "", 0, 0, 0, false
	}
	verb = format[i]
	if verb != '%' && strings.IndexByte("sdvxqc", verb) < 0 {
		return "", 0, 0, 0, false
	}
	b.WriteByte(verb)
	return b.String(), verb, i + 1, explicit, true
}

// opaque is a value the evaluator does not follow: one unknown part that may
// be empty and may hold braces.
func (e *Evaluator) opaque(v ssa.Value) Key {
	return UnknownKey(Part{ID: e.id(v), Show: e.Show(v)})
}

// id names a value for identity: a constant by its value, anything else by
// the SSA value itself (interfaces unwrapped), so two reads of one value match.
func (e *Evaluator) id(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Const:
		return "const:" + v.String()
	case *ssa.MakeInterface:
		return e.id(v.X)
	}
	return fmt.Sprintf("v%p", v)
}

// show gives the source expression of a value for messages.
func (e *Evaluator) Show(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.FreeVar:
		return v.Name()
	case *ssa.Global:
		return v.Name()
	case *ssa.MakeInterface:
		return e.Show(v.X)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return e.Show(v.X)
		}
	case *ssa.FieldAddr:
		return e.Show(v.X) + "." + FieldName(v.X.Type(), v.Field)
	case *ssa.Field:
		return e.Show(v.X) + "." + FieldName(v.X.Type(), v.Field)
	case *ssa.Call:
		if ce := e.Source.Calls[v.Pos()]; ce != nil {
			return types.ExprString(ce)
		}
	}
	return "…"
}

func FieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return "?"
}

// product concatenates every alternative of a with every one of b.
func Product(a, b []Key) []Key {
	out := make([]Key, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, Concat(x, y))
		}
	}
	if len(out) > MaxAlternatives {
		// Too many combinations to track: keep the first, marked unknown at
		// the end so no claim is made from it.
		return []Key{Concat(out[0], UnknownKey(Part{ID: "too-many", Show: "…"}))}
	}
	return out
}

func IsString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func ConstString(v ssa.Value) (string, bool) {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String {
		return constant.StringVal(c.Value), true
	}
	return "", false
}

func UnwrapInterface(v ssa.Value) ssa.Value {
	for {
		mi, ok := v.(*ssa.MakeInterface)
		if !ok {
			return v
		}
		v = mi.X
	}
}
