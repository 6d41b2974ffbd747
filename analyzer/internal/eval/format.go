package eval

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// formatted is a value the code formats with a fmt verb (strconv's decimal
// and hex forms are %d and %x): the text when the value is a constant, else
// an unknown part whose identity is the verb and the value, so that
// Sprintf("%d", id) and strconv.Itoa(id) are one part. A parameter stays a
// hole for callers.
func (e *Evaluator) formatted(verb string, v ssa.Value, show string, t traits) keymodel.Key {
	w := widened(v)
	// float64(s) of a type with a String method is written without it.
	bare := w != v && e.printMethod(w.Type(), 'v') != nil
	v, foreign := e.underlying(w)
	if text, ok := formatConst(verb, v); ok {
		return keymodel.TextKey(text)
	}
	if show == "" {
		show = e.Show(v)
	}
	if verb == "%q" {
		show = "quoted " + show // its text is not the value's
	}
	p := keymodel.Part{ID: verb + "(" + e.id(v) + ")", Show: show, NoBrace: t.noBrace, NonEmpty: t.nonEmpty, Braces: t.braces}
	if param, ok := v.(*ssa.Parameter); ok && !foreign {
		p.Param, p.Verb, p.Bare = ssaread.ParamIndex(param), verb, bare
	}
	if base, offset, ok := e.intOffset(v); ok && strings.ContainsAny(verb, "dx") {
		// %d and %x write different integers as different text: t and t-1
		// are different values.
		p.Base, p.Offset = verb+"("+base+")", offset
	}
	if slice, ok := e.loopElement(v); ok && strings.ContainsAny(verb, "dxsvq") {
		p = keymodel.ElementPart(p, slice) // one element of an input, written as itself
	}
	return keymodel.UnknownKey(p)
}

// widened is the integer an integer conversion that keeps every value
// converts: int64(id) of an id of a named integer type, or of an int32, is
// the id, written the same.
func widened(v ssa.Value) ssa.Value {
	for range maxDepth {
		if ct, ok := v.(*ssa.ChangeType); ok {
			v = ct.X // int64(id) of an id whose type is an int64
			continue
		}
		c, ok := v.(*ssa.Convert)
		if !ok {
			return v
		}
		from, okFrom := c.X.Type().Underlying().(*types.Basic)
		to, okTo := c.Type().Underlying().(*types.Basic)
		if !okFrom || !okTo || from.Info()&types.IsInteger == 0 || to.Info()&types.IsInteger == 0 ||
			from.Info()&types.IsUnsigned != to.Info()&types.IsUnsigned || intSize(to.Kind()) < intSize(from.Kind()) {
			return v
		}
		v = c.X
	}
	return v
}

// intSize orders the integer kinds by size (int and uint as 64 bits).
func intSize(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 1
	case types.Int16, types.Uint16:
		return 2
	case types.Int32, types.Uint32:
		return 4
	}
	return 8
}

// intOffset reads an integer value as another plus a constant: t-1 is t
// with offset -1, t itself offset 0.
func (e *Evaluator) intOffset(v ssa.Value) (base string, offset int64, ok bool) {
	if b, isBasic := v.Type().Underlying().(*types.Basic); !isBasic || b.Info()&types.IsInteger == 0 {
		return "", 0, false
	}
	if bin, isBin := v.(*ssa.BinOp); isBin && (bin.Op == token.ADD || bin.Op == token.SUB) {
		if c, isConst := ssaread.ConstInt(e.resolve(bin.Y)); isConst {
			if bin.Op == token.SUB {
				c = -c
			}
			x, _ := e.underlying(bin.X)
			return e.id(x), c, true
		}
	}
	return e.id(v), 0, true
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
func (e *Evaluator) evalCall(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	fn := call.Call.StaticCallee()
	if fn != nil && fn.Name() == "String" && fn.Signature.Recv() != nil &&
		(ssaread.IsNamed(fn.Signature.Recv().Type(), "strings", "Builder") || ssaread.IsNamed(fn.Signature.Recv().Type(), "bytes", "Buffer")) {
		return e.built(call, depth, visiting)
	}
	if fn != nil && fn.Signature.Recv() != nil && isTime(fn.Signature.Recv().Type()) {
		return e.timeText(call, fn.Name())
	}
	if ks, ok := e.stdlibCall(call, depth, visiting); ok {
		return ks, true
	}
	if fn == nil || fn.Pkg == nil || fn.Signature.Recv() != nil {
		return nil, false
	}
	args := call.Call.Args
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "fmt.Sprintf":
		return e.sprintf(call, depth, visiting)
	case "strings.Join":
		sep, ok := ssaread.ConstString(args[1])
		if !ok {
			return nil, false
		}
		if p, ok := args[0].(*ssa.Parameter); ok {
			// A variadic builder: its callers' elements, joined.
			return []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: "join(" + e.id(p) + "," + sep + ")", Show: e.Show(call), Param: ssaread.ParamIndex(p), Verb: sep, Join: true})}, true
		}
		elems, ok := e.ElementsOf(args[0], depth, visiting)
		if !ok || len(elems) > MaxElements {
			return nil, false
		}
		return e.joined(elems, sep, depth, visiting), true
	case "strconv.FormatFloat", "strconv.FormatBool":
		return []keymodel.Key{e.formatted("%v", args[0], e.Show(call), digits)}, true
	case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint":
		// Digits (and a sign): never empty, never a brace. Base 10 and 16
		// are fmt's %d and %x, so the same value gives the same part.
		verb := "%d"
		if len(args) == 2 {
			switch base, _ := ssaread.ConstInt(args[1]); base {
			case 10:
			case 16:
				verb = "%x"
			default:
				return []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fn.Name() + "(" + e.id(args[0]) + "," + e.id(args[1]) + ")",
					Show: e.Show(call), NoBrace: true, NonEmpty: true})}, true
			}
		}
		return []keymodel.Key{e.formatted(verb, args[0], e.Show(call), digits)}, true
	}
	return nil, false
}

// timeText is a time written by t.String() or by t.Format with a constant
// layout that writes no brace: text with no brace, one part per time value
// and layout.
func (e *Evaluator) timeText(call *ssa.Call, method string) ([]keymodel.Key, bool) {
	layout := ""
	switch method {
	case "String":
	case "Format":
		l, ok := ssaread.ConstString(call.Call.Args[1])
		if !ok || strings.ContainsAny(l, "{}") {
			return nil, false
		}
		layout = l
	default:
		return nil, false
	}
	return []keymodel.Key{e.timeKey(call.Call.Args[0], layout, e.Show(call))}, true
}

// timeVerb marks, in a summary, a parameter written as a time by a layout.
const timeVerb = "time:"

// timeKey is time t written by layout ("" for its String form): one part
// per time value and layout, with no brace; a parameter stays a hole for
// callers, and a time that differs in each iteration of a loop is marked so.
func (e *Evaluator) timeKey(t ssa.Value, layout, show string) keymodel.Key {
	t, foreign := e.underlying(t)
	p := keymodel.Part{ID: "time(" + e.id(t) + "," + layout + ")", Show: show, NoBrace: true, NonEmpty: true}
	if param, ok := t.(*ssa.Parameter); ok && !foreign {
		p.Param, p.Verb = ssaread.ParamIndex(param), timeVerb+layout
	}
	if loop, ok := e.loopElement(t); ok {
		p = keymodel.ElementPart(p, loop)
	}
	return keymodel.UnknownKey(p)
}

// built reads b.String() of a strings.Builder (or a bytes.Buffer) the
// function declares and only writes to, as + does, whatever writes into it:
// its own WriteString, WriteByte and WriteRune, and fmt.Fprintf, fmt.Fprint
// and io.WriteString given &b. The writes are those on every path to the
// String call (the blocks that dominate it), in order, and those of a range
// loop on that path, once per element: unrolled over a slice the code
// fixes, each element after a separator over a slice parameter:
//
//	var b strings.Builder
//	b.WriteString("acct:{")
//	fmt.Fprintf(&b, "%d", id)
//	b.WriteString("}")
//	for _, p := range parts { b.WriteByte(':'); b.WriteString(p) }
//	key := b.String()
func (e *Evaluator) built(str *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	b, ok := str.Call.Args[0].(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	writes := map[*ssa.Call]string{} // each write, by what makes it
	for _, ref := range *b.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.MakeInterface: // &b as an io.Writer
			for _, use := range *ref.Referrers() {
				call, ok := use.(*ssa.Call)
				if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != ssa.Value(ref) {
					return nil, false
				}
				name, ok := writerFunc(call.Call.StaticCallee())
				if !ok {
					return nil, false // given to code that may do anything with it
				}
				writes[call] = name
			}
			continue
		case *ssa.Call:
			fn := ref.Call.StaticCallee()
			if fn == nil || fn.Signature.Recv() == nil || ref.Call.Args[0] != ssa.Value(b) {
				return nil, false
			}
			switch fn.Name() {
			case "WriteString", "WriteByte", "WriteRune":
				writes[ref] = fn.Name()
			case "String", "Len", "Grow":
			default:
				return nil, false // Reset, Write of bytes: not followed
			}
			continue
		}
		return nil, false // the builder is passed on, or written otherwise
	}
	spine, ok := dominatorPath(b.Block(), str.Block())
	if !ok {
		return nil, false
	}
	onSpine := map[*ssa.BasicBlock]bool{}
	for _, blk := range spine {
		onSpine[blk] = true
	}
	loops := map[*ssa.BasicBlock]*rangeLoop{} // by header, loops that write once per element
	for call := range writes {
		blk := call.Block()
		if onSpine[blk] {
			if loopHeader(blk) {
				return nil, false // written each time around a loop
			}
			continue
		}
		header := blk.Idom()
		loop, isLoop := rangeBodyOf(blk, header)
		if !onSpine[header] || !isLoop {
			return nil, false // written on some paths only
		}
		loops[header] = loop
	}
	out := []keymodel.Key{{}}
	for _, blk := range spine {
		for _, instr := range blk.Instrs {
			if instr == ssa.Instruction(str) {
				return out, true
			}
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			how, ok := writes[call]
			if !ok {
				continue
			}
			piece, ok := e.written(call, how, depth, visiting)
			if out, ok = extended(out, piece, ok); !ok {
				return nil, false
			}
		}
		if loop, ok := loops[blk]; ok {
			piece, ok := e.writtenPerElement(loop, writes, depth, visiting)
			if out, ok = extended(out, piece, ok); !ok {
				return nil, false
			}
		}
	}
	return nil, false
}

// dominatorPath is the blocks from `from` to `to` along to's dominators,
// in order; ok is false when from does not dominate to.
func dominatorPath(from, to *ssa.BasicBlock) ([]*ssa.BasicBlock, bool) {
	var path []*ssa.BasicBlock
	for blk := to; blk != nil; blk = blk.Idom() {
		path = append(path, blk)
		if blk == from {
			slices.Reverse(path)
			return path, true
		}
	}
	return nil, false
}

// loopHeader reports a block entered again from a block it dominates.
func loopHeader(blk *ssa.BasicBlock) bool {
	for _, pred := range blk.Preds {
		if blk.Dominates(pred) {
			return true
		}
	}
	return false
}

// rangeBodyOf recognizes blk as the one block of a range loop's body, whose
// header is header: entered from the header and going back to it.
func rangeBodyOf(blk, header *ssa.BasicBlock) (*rangeLoop, bool) {
	if header == nil || len(blk.Succs) != 1 || blk.Succs[0] != header {
		return nil, false
	}
	for _, instr := range header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if loop, ok := rangeLoopOf(phi); ok {
			for _, load := range loop.loads {
				if load.Block() != blk {
					return nil, false
				}
			}
			return loop, true
		}
	}
	return nil, false
}

// writtenPerElement is what a range loop's body writes into a builder over
// all its elements: each element's writes in turn, over a slice the code
// fixes; over a slice parameter, its elements each after a constant
// separator (or joined with none), which callers fill in.
func (e *Evaluator) writtenPerElement(loop *rangeLoop, writes map[*ssa.Call]string, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	var body []*ssa.Call
	for _, instr := range loop.loads[0].Block().Instrs {
		if call, ok := instr.(*ssa.Call); ok && writes[call] != "" {
			body = append(body, call)
		}
	}
	isElement := func(v ssa.Value) bool {
		for _, load := range loop.loads {
			if v == ssa.Value(load) {
				return true
			}
		}
		return false
	}
	if elems, fixed := e.ElementsOf(loop.slice, depth, visiting); fixed && len(elems) <= MaxElements {
		out := []keymodel.Key{{}}
		for _, el := range elems {
			keys := e.ElementKeys(el, depth, visiting)
			for _, load := range loop.loads {
				e.keyEnv[load] = keys
			}
			for _, call := range body {
				piece, ok := e.written(call, writes[call], depth, visiting)
				var fits bool
				if out, fits = extended(out, piece, ok); !fits {
					e.forget(loop.loads)
					return nil, false
				}
			}
		}
		e.forget(loop.loads)
		return out, true
	}
	p, isParam := loop.slice.(*ssa.Parameter)
	if !isParam {
		return nil, false
	}
	sep := ""
	for i, call := range body {
		last := i == len(body)-1
		arg := ssa.Value(nil)
		if writes[call] == "WriteString" || writes[call] == "io.WriteString" {
			arg = call.Call.Args[1]
		}
		if add, ok := arg.(*ssa.BinOp); ok && last && add.Op == token.ADD && isElement(add.Y) {
			text, isConst := ssaread.ConstString(add.X)
			if !isConst {
				return nil, false
			}
			return []keymodel.Key{leadJoin(e.id(p), p, sep+text)}, true // b.WriteString(sep + p)
		}
		if last && arg != nil && isElement(arg) {
			if sep == "" {
				return []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: "join(" + e.id(p) + ")", Show: p.Name(), Param: ssaread.ParamIndex(p), Join: true})}, true
			}
			return []keymodel.Key{leadJoin(e.id(p), p, sep)}, true
		}
		piece, ok := e.written(call, writes[call], depth, visiting)
		if !ok || len(piece) != 1 {
			return nil, false
		}
		text, known := piece[0].Known()
		if !known {
			return nil, false
		}
		sep += text
	}
	return nil, false
}

// forget drops the keys given to a loop's element loads.
func (e *Evaluator) forget(loads []*ssa.UnOp) {
	for _, load := range loads {
		delete(e.keyEnv, load)
	}
}

// writerFunc names the functions of the standard library that only write
// text into the io.Writer they are given first.
func writerFunc(fn *ssa.Function) (string, bool) {
	if fn == nil || fn.Pkg == nil || fn.Signature.Recv() != nil {
		return "", false
	}
	name := fn.Pkg.Pkg.Path() + "." + fn.Name()
	switch name {
	case "fmt.Fprintf", "fmt.Fprint", "io.WriteString":
		return name, true
	}
	return "", false
}

// written is the text one write puts into a builder.
func (e *Evaluator) written(call *ssa.Call, how string, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	args := call.Call.Args
	switch how {
	case "WriteString", "io.WriteString":
		return e.eval(args[1], depth, visiting), true
	case "fmt.Fprintf":
		return e.formatText(call, 1, depth, visiting)
	case "fmt.Fprint":
		return e.printText(call, 1, depth, visiting)
	}
	// A byte or a rune: known when constant.
	n, ok := ssaread.ConstInt(args[1])
	if !ok {
		return nil, false
	}
	text := string(rune(n))
	if how == "WriteByte" {
		text = string([]byte{byte(n)})
	}
	return []keymodel.Key{keymodel.TextKey(text)}, true
}

// printText is fmt.Fprint's text of its operands (after the first skip
// arguments): each as %v, with a space between two operands when neither
// is a string.
func (e *Evaluator) printText(call *ssa.Call, skip int, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	args, ok := ssaread.SliceElements(call.Call.Args[skip])
	if !ok {
		return nil, false
	}
	out := []keymodel.Key{{}}
	for i, a := range args {
		arg := ssaread.UnwrapInterface(e.resolve(ssaread.UnwrapInterface(a)))
		if i > 0 && !isString(arg.Type()) && !isString(ssaread.UnwrapInterface(e.resolve(ssaread.UnwrapInterface(args[i-1]))).Type()) {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(" ")})
		}
		piece, ok := e.formatArg("%v", 'v', arg, "", depth, visiting)
		if out, ok = extended(out, piece, ok); !ok {
			return nil, false
		}
	}
	return out, true
}

// extended is out followed by each alternative of piece, when piece was
// read (ok) and the alternatives stay within keymodel.MaxAlternatives.
func extended(out, piece []keymodel.Key, ok bool) ([]keymodel.Key, bool) {
	if !ok {
		return nil, false
	}
	out = keymodel.Product(out, piece)
	return out, len(out) <= keymodel.MaxAlternatives
}

// joined is the elements' keys with sep between them.
func (e *Evaluator) joined(elems []Element, sep string, depth int, visiting map[ssa.Value]bool) []keymodel.Key {
	out := []keymodel.Key{{}}
	for i, el := range elems {
		if i > 0 {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(sep)})
		}
		out = keymodel.Product(out, e.ElementKeys(el, depth, visiting))
	}
	return out
}

// sprintf evaluates fmt.Sprintf with a constant format. Verbs it does not
// model make the whole result unknown, never wrong.
func (e *Evaluator) sprintf(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	return e.formatText(call, 0, depth, visiting)
}

// formatText is the text a call of fmt's printf family writes, its format
// after the first skip arguments (a writer).
func (e *Evaluator) formatText(call *ssa.Call, skip int, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	format, ok := ssaread.ConstString(call.Call.Args[skip])
	if !ok {
		return nil, false
	}
	args, ok := ssaread.SliceElements(call.Call.Args[skip+1])
	if !ok {
		return nil, false
	}
	var astArgs []ast.Expr
	if ce := e.Source.Calls[call.Pos()]; ce != nil && ce.Ellipsis == token.NoPos && len(ce.Args) == len(args)+skip+1 {
		astArgs = ce.Args[skip+1:]
	}
	out := []keymodel.Key{{}}
	argNum := 0
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(format[i:])})
			break
		}
		out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(format[i : i+j])})
		i += j + 1
		spec, verb, next, explicit, ok := ScanVerb(format, i)
		if !ok {
			return nil, false
		}
		i = next
		if verb == '%' {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey("%")})
			continue
		}
		if explicit > 0 {
			argNum = explicit - 1
		}
		if argNum >= len(args) {
			return nil, false
		}
		arg := ssaread.UnwrapInterface(e.resolve(ssaread.UnwrapInterface(args[argNum])))
		var show string
		if astArgs != nil {
			show = types.ExprString(astArgs[argNum])
		}
		argNum++
		piece, ok := e.formatArg(spec, verb, arg, show, depth, visiting)
		if out, ok = extended(out, piece, ok); !ok {
			return nil, false
		}
	}
	return out, true
}

// formatArg is one verb applied to one argument: a constant as fmt
// formats it, a string as its keys, a struct as the braces fmt writes
// around its fields; any other value is one part, with what its type says
// of its text (see textTraits).
func (e *Evaluator) formatArg(spec string, verb byte, arg ssa.Value, show string, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	if c, ok := arg.(*ssa.Const); ok && c.Value != nil && e.printMethod(c.Type(), verb) == nil {
		// A constant is formatted by fmt itself, so flags and widths are exact.
		text, ok := formatConst(spec, c)
		return []keymodel.Key{keymodel.TextKey(text)}, ok
	}
	plain := spec == "%"+string(verb)
	t := arg.Type()
	if ks, ok := e.printedByMethod(spec, arg, depth, visiting); ok {
		return ks, true
	}
	if e.printMethod(t, verb) != nil && plain {
		spec = "%s" // unread, one value for both verbs
	}
	switch {
	case isString(t) && (verb == 's' || verb == 'v') && plain && !formatsItself(t, verb):
		return e.eval(arg, depth, visiting), true
	case (spec == "%v" || spec == "%+v") && !formatsItself(t, verb):
		if ks, ok := e.structText(spec, arg, show, depth, visiting); ok {
			return ks, true
		}
	}
	return []keymodel.Key{e.formatted(spec, arg, show, textTraits(t, verb))}, true
}

// printedByMethod reads %v or %s of a value whose type has a String (or
// Error) method, which fmt calls: as a call of that method.
func (e *Evaluator) printedByMethod(spec string, arg ssa.Value, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	if spec != "%v" && spec != "%s" || depth > maxDepth {
		return nil, false
	}
	depth++ // the method's template may format the value again (String of a float64 through FormatFloat)
	arg = ssaread.UnwrapInterface(arg)
	fn := e.printMethod(arg.Type(), spec[1])
	if fn == nil {
		return nil, false
	}
	result := e.callees.Returns(fn).Result
	if result == nil {
		return nil, false
	}
	var out []keymodel.Key
	for _, tmpl := range result {
		out = append(out, e.Instantiate(tmpl, []ssa.Value{arg}, e.id(arg)+"/"+fn.Name(), depth, visiting)...)
	}
	return out, len(out) <= keymodel.MaxAlternatives
}

// ScanVerb reads one verb after a '%' at format[i:]: flags, an optional
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
