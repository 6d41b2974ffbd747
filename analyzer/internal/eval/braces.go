package eval

import (
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A formatted value's type says what its text can hold. Integers, floats
// and bools, and times, print digits, signs, letters and punctuation but
// never a brace; a struct prints its fields inside braces, which make a hash
// tag of them; maps, slices and arrays of such values, and runes, can print
// braces the evaluator does not place. Strings, []byte, Stringers, errors
// and interfaces print what they hold: an id, taken to hold no brace where
// it follows known text (see keymodel's assumeIDs), unless a message says
// otherwise.

// traits are what a part's type says of its text.
type traits struct {
	noBrace  bool // never a brace
	nonEmpty bool // never ""
	braces   bool // may print braces the evaluator does not place: never assumed to hold none
}

// digits are the traits of an integer written in digits (and a sign).
var digits = traits{noBrace: true, nonEmpty: true}

// textTraits says what verb prints for a value of type t.
func textTraits(t types.Type, verb byte) traits {
	if isTime(t) {
		return digits // "2009-11-10 23:00:00 +0000 UTC", or a complaint without braces
	}
	if formatsItself(t, verb) {
		return traits{} // its String or Error method: text like any string
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&(types.IsInteger) != 0 && (verb == 'c' || verb == 'q'):
			return traits{nonEmpty: true, braces: true} // a rune, which may be '{'
		case u.Info()&(types.IsInteger|types.IsFloat|types.IsComplex|types.IsBoolean) != 0:
			return digits
		case u.Info()&types.IsString != 0 && verb == 'x':
			return traits{noBrace: true}
		case u.Info()&types.IsString != 0 && verb == 'q':
			return traits{nonEmpty: true}
		}
		return traits{}
	case *types.Interface:
		return traits{}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return traits{} // []byte prints as a string
		}
	}
	return traits{braces: true} // a struct, map, slice, array, pointer or func fmt prints its own way
}

// formatsItself reports a type whose verb calls its own method, as fmt
// does for a value of it: Format(fmt.State, rune), or Error() string or
// String() string for the verbs that print strings.
func formatsItself(t types.Type, verb byte) bool {
	if _, basic := t.(*types.Basic); basic {
		return false // an unnamed basic type has no methods
	}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Signature()
		switch fn.Name() {
		case "Format":
			if sig.Params().Len() == 2 && sig.Results().Len() == 0 {
				return true
			}
		case "Error", "String":
			if sig.Params().Len() == 0 && sig.Results().Len() == 1 && isString(sig.Results().At(0).Type()) && strings.IndexByte("vsqx", verb) >= 0 {
				return true
			}
		}
	}
	return false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isTime(t types.Type) bool {
	return ssaread.IsNamed(t, "time", "Time")
}

// structText is a struct, or a pointer to one, as %v or %+v prints it:
// "{" the fields, space-separated (with their names for %+v), "}", and "&"
// before a pointer's. A field of a struct the function builds as a literal
// is its value; any other field is a part of the struct value, with what
// its type says. ok is false for any other type.
func (e *Evaluator) structText(spec string, v ssa.Value, show string, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	if !e.work.Enter() {
		return nil, false
	}
	defer e.work.Leave()
	t := v.Type()
	prefix := ""
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t, prefix = p.Elem(), "&"
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || formatsItself(t, 'v') || depth > maxDepth {
		return nil, false
	}
	fields := literalFields(v)
	out := []keymodel.Key{keymodel.TextKey(prefix + "{")}
	for i := range st.NumFields() {
		f := st.Field(i)
		if i > 0 {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(" ")})
		}
		if spec == "%+v" {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(f.Name() + ":")})
		}
		var piece []keymodel.Key
		if show == "" {
			show = e.Show(v)
		}
		id, show := e.id(v)+".f"+strconv.Itoa(i), show+"."+f.Name()
		switch {
		case pointerInStruct(f.Type()):
			piece = []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: id, Show: show, NoBrace: true, NonEmpty: true})}
		case fields != nil && fields[i] != nil:
			piece, ok = e.formatArg(spec, 'v', ssaread.UnwrapInterface(fields[i]), show, depth+1, visiting)
			if !ok {
				return nil, false
			}
		case fields != nil && zeroText(f.Type()) != nil:
			piece = []keymodel.Key{keymodel.TextKey(*zeroText(f.Type()))}
		default:
			tr := textTraits(f.Type(), 'v')
			if _, nested := f.Type().Underlying().(*types.Struct); nested {
				tr = traits{braces: true}
			}
			piece = []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: id, Show: show, NoBrace: tr.noBrace, NonEmpty: tr.nonEmpty, Braces: tr.braces})}
		}
		out = keymodel.Product(out, piece)
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	return keymodel.Product(out, []keymodel.Key{keymodel.TextKey("}")}), true
}

// pointerInStruct: inside a struct, fmt prints a pointer (or map, chan,
// func) as an address, 0xc000012345.
func pointerInStruct(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return true
	}
	return false
}

// literalFields are the values a function stores into the fields of a
// struct it builds as a literal (v is its load, or its address), by field
// index; a field it does not set holds its zero value. Nil when the struct
// may be written some other way (its address passed on, a field written
// twice).
func literalFields(v ssa.Value) map[int]ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	out := map[int]ssa.Value{}
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.FieldAddr:
			for _, use := range *ref.Referrers() {
				st, ok := use.(*ssa.Store)
				if !ok || st.Addr != ref {
					return nil
				}
				if _, twice := out[ref.Field]; twice {
					return nil // which value is formatted depends on the path
				}
				out[ref.Field] = st.Val
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return out
}

// zeroText is how %v prints the zero value of a basic type, nil for
// other types.
func zeroText(t types.Type) *string {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil
	}
	var s string
	switch {
	case b.Info()&(types.IsInteger|types.IsFloat) != 0:
		s = "0"
	case b.Info()&types.IsBoolean != 0:
		s = "false"
	case b.Info()&types.IsString != 0:
		s = ""
	default:
		return nil
	}
	return &s
}

// printMethod is the method fmt calls to print a value of type t with a
// verb that prints strings (%v, %s): Error, else String; nil when the type
// has neither, or formats itself with Format.
func (e *Evaluator) printMethod(t types.Type, verb byte) *ssa.Function {
	if _, basic := t.(*types.Basic); basic || (verb != 'v' && verb != 's') {
		return nil
	}
	if _, iface := t.Underlying().(*types.Interface); iface {
		return nil
	}
	ms := e.prog.MethodSets.MethodSet(t)
	if ms.Lookup(nil, "Format") != nil {
		return nil
	}
	for _, name := range []string{"Error", "String"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			continue
		}
		sig := sel.Obj().(*types.Func).Signature()
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isString(sig.Results().At(0).Type()) {
			return nil
		}
		return e.prog.MethodValue(sel)
	}
	return nil
}
