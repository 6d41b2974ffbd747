package eval

import (
	"encoding/base64"
	"encoding/hex"
	"html"
	"net/url"
	"path"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// The standard library's functions of one string are read by what they
// compute, from one table: the same function of the same value is the same
// value (strings.ToLower(name) twice is one part), a constant is computed
// as the function computes it, and a function that works piece by piece
// (f(a+b) = f(a)+f(b): case maps, escapes, hex) keeps the key's shape, so
// strings.ToLower("User:{"+id+"}") is "user:{" + lower(id) + "}", a tag.
// The rest of a call's arguments (a cutset, a count) must be constants,
// and they are part of the value's identity. A function the table lacks
// stays an unknown value of its own (fail open).

// A stringFunc is what one function computes from its first argument,
// the rest given as constants.
type stringFunc struct {
	apply     func(s string, rest []string) (string, bool)
	pieceWise bool // f(a+b) = f(a)+f(b)
	noBrace   bool // the result never holds a brace
	bytes     bool // the argument is []byte(s)
}

func unary(f func(string) string) func(string, []string) (string, bool) {
	return func(s string, _ []string) (string, bool) { return f(s), true }
}

func binary(f func(string, string) string) func(string, []string) (string, bool) {
	return func(s string, rest []string) (string, bool) {
		if len(rest) != 1 {
			return "", false
		}
		return f(s, rest[0]), true
	}
}

// stringFuncs is the table, by package path and name.
var stringFuncs = map[string]stringFunc{
	"strings.ToLower":    {apply: unary(strings.ToLower), pieceWise: true},
	"strings.ToUpper":    {apply: unary(strings.ToUpper), pieceWise: true},
	"strings.ToTitle":    {apply: unary(strings.ToTitle), pieceWise: true},
	"strings.TrimSpace":  {apply: unary(strings.TrimSpace)},
	"strings.Trim":       {apply: binary(strings.Trim)},
	"strings.TrimLeft":   {apply: binary(strings.TrimLeft)},
	"strings.TrimRight":  {apply: binary(strings.TrimRight)},
	"strings.TrimPrefix": {apply: binary(strings.TrimPrefix)},
	"strings.TrimSuffix": {apply: binary(strings.TrimSuffix)},
	"strings.ReplaceAll": {apply: func(s string, rest []string) (string, bool) {
		if len(rest) != 2 {
			return "", false
		}
		return strings.ReplaceAll(s, rest[0], rest[1]), true
	}},
	"strings.Replace": {apply: func(s string, rest []string) (string, bool) {
		n, err := strconv.Atoi(last(rest))
		if len(rest) != 3 || err != nil {
			return "", false
		}
		return strings.Replace(s, rest[0], rest[1], n), true
	}},
	"strings.Repeat": {apply: func(s string, rest []string) (string, bool) {
		n, err := strconv.Atoi(last(rest))
		if len(rest) != 1 || err != nil || n < 0 || n > 64 {
			return "", false
		}
		return strings.Repeat(s, n), true
	}},
	"strconv.Quote":         {apply: unary(strconv.Quote)},
	"html.EscapeString":     {apply: unary(html.EscapeString), pieceWise: true},
	"net/url.PathEscape":    {apply: unary(url.PathEscape), pieceWise: true, noBrace: true},
	"net/url.QueryEscape":   {apply: unary(url.QueryEscape), pieceWise: true, noBrace: true},
	"path.Clean":            {apply: unary(path.Clean)},
	"path.Base":             {apply: unary(path.Base)},
	"path/filepath.Clean":   {apply: unary(path.Clean)},
	"path/filepath.Base":    {apply: unary(path.Base)},
	"path/filepath.ToSlash": {apply: unary(func(s string) string { return s }), pieceWise: true},
	"encoding/hex.EncodeToString": {apply: unary(func(s string) string { return hex.EncodeToString([]byte(s)) }),
		pieceWise: true, noBrace: true, bytes: true},
}

// base64Funcs are the methods of base64's encodings: the encoding is part
// of the value's identity.
var base64Funcs = map[string]bool{"EncodeToString": true}

func last(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[len(xs)-1]
}

// funcVerb marks, in a summary, a parameter given to a function of the
// table (see stringFuncs), with the constants after it: "fn:strings.Trim|/".
const funcVerb = "fn:"

// stdlibCall reads a call of a function of the table, of path.Join and
// filepath.Join, of fmt.Sprint, and of base64's EncodeToString.
func (e *Evaluator) stdlibCall(call *ssa.Call, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return nil, false
	}
	args := call.Call.Args
	if recv := fn.Signature.Recv(); recv != nil {
		if ssaread.IsNamed(recv.Type(), "encoding/base64", "Encoding") && base64Funcs[fn.Name()] && len(args) == 2 {
			enc, ok := base64Name(args[0])
			if !ok {
				return nil, false
			}
			s, ok := bytesOfString(args[1])
			if !ok {
				return nil, false
			}
			f := stringFunc{apply: unary(func(s string) string { return enc.encoding.EncodeToString([]byte(s)) }), noBrace: true}
			return e.applied("base64."+enc.name+".EncodeToString", f, e.eval(s, depth, visiting), nil, call), true
		}
		return nil, false
	}
	name := fn.Pkg.Pkg.Path() + "." + fn.Name()
	switch name {
	case "path.Join", "path/filepath.Join":
		return e.pathJoin(args[0], depth, visiting)
	case "fmt.Sprint":
		ks, ok := e.printText(call, 0, depth, visiting)
		if ok && len(ks) == 1 && len(ks[0]) == 1 && ks[0][0].Unknown {
			ks[0][0].Show = e.Show(call) // one value, shown as the code names it
		}
		return ks, ok
	}
	f, ok := stringFuncs[name]
	if !ok || len(args) == 0 {
		return nil, false
	}
	rest := make([]string, 0, len(args)-1)
	for _, a := range args[1:] {
		c, ok := ssaread.ConstText(a)
		if !ok {
			return nil, false
		}
		rest = append(rest, c)
	}
	s := args[0]
	if f.bytes {
		if s, ok = bytesOfString(s); !ok {
			return nil, false
		}
	}
	return e.applied(name, f, e.eval(s, depth, visiting), rest, call), true
}

// bytesOfString is s of []byte(s).
func bytesOfString(v ssa.Value) (ssa.Value, bool) {
	c, ok := v.(*ssa.Convert)
	if !ok || !ssaread.IsString(c.X.Type()) {
		return nil, false
	}
	return c.X, true
}

type namedEncoding struct {
	name     string
	encoding *base64.Encoding
}

// base64Name is the encoding a package variable of base64 names.
func base64Name(v ssa.Value) (namedEncoding, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return namedEncoding{}, false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Pkg == nil || g.Pkg.Pkg.Path() != "encoding/base64" {
		return namedEncoding{}, false
	}
	switch g.Name() {
	case "StdEncoding":
		return namedEncoding{g.Name(), base64.StdEncoding}, true
	case "URLEncoding":
		return namedEncoding{g.Name(), base64.URLEncoding}, true
	case "RawStdEncoding":
		return namedEncoding{g.Name(), base64.RawStdEncoding}, true
	case "RawURLEncoding":
		return namedEncoding{g.Name(), base64.RawURLEncoding}, true
	}
	return namedEncoding{}, false
}

// applied is f of each alternative of the argument: a constant computed,
// a piece-wise function applied to each piece, anything else one value,
// the same wherever the same function meets the same argument.
func (e *Evaluator) applied(name string, f stringFunc, alts []keymodel.Key, rest []string, call *ssa.Call) []keymodel.Key {
	verb := funcVerb + name
	if len(rest) > 0 {
		verb += "|" + strings.Join(rest, "|")
	}
	show := ""
	if call != nil {
		show = e.Show(call)
	}
	// whole is f of the key as one value, where its shape is not kept.
	whole := func(k keymodel.Key) keymodel.Key {
		return keymodel.UnknownKey(keymodel.Part{ID: verb + "(" + keyIdentity(k) + ")", Show: show, NoBrace: f.noBrace})
	}
	out := make([]keymodel.Key, 0, len(alts))
	for _, k := range alts {
		switch {
		case len(k) == 1 && k[0].Unknown:
			out = append(out, keymodel.Key{derived(verb, f, k[0], show)})
		case f.pieceWise || len(k) <= 1: // known text is one piece
			pieces := make([]keymodel.Key, 0, len(k))
			for _, p := range k {
				if p.Unknown {
					pieces = append(pieces, keymodel.Key{derived(verb, f, p, "")})
					continue
				}
				r, ok := f.apply(p.Text, rest)
				if !ok {
					return []keymodel.Key{whole(k)}
				}
				pieces = append(pieces, keymodel.TextKey(r))
			}
			if len(k) == 0 {
				r, ok := f.apply("", rest)
				if !ok {
					return []keymodel.Key{whole(k)}
				}
				pieces = append(pieces, keymodel.TextKey(r))
			}
			out = append(out, keymodel.Concat(pieces...))
		default:
			out = append(out, whole(k))
		}
	}
	return out
}

// derived is the part f(p): one value wherever f meets p; a parameter's
// stays a hole its callers fill (Verb), when p is the parameter itself.
func derived(verb string, f stringFunc, p keymodel.Part, show string) keymodel.Part {
	q := keymodel.Part{
		Unknown: true, ID: verb + "(" + p.ID + ")", Show: show,
		NoBrace: f.noBrace || f.pieceWise && p.NoBrace, NonEmpty: f.pieceWise && p.NonEmpty,
		Configured: p.Configured, Given: p.Given, Base: p.Base, Offset: p.Offset,
	}
	if q.Show == "" {
		q.Show = strings.TrimPrefix(verb, funcVerb)
		if i := strings.IndexByte(q.Show, '|'); i >= 0 {
			q.Show = q.Show[:i]
		}
		q.Show += "(" + p.Show + ")"
	}
	if p.Param > 0 && p.Verb == "" && !p.Join && p.Elem == 0 && p.Of == 0 {
		q.Param, q.Verb = p.Param, verb
	}
	return q
}

// keyIdentity names a key by its text and values, for the identity of a
// function of it.
func keyIdentity(k keymodel.Key) string {
	var b strings.Builder
	for _, p := range k {
		if p.Unknown {
			b.WriteString("<" + p.ID + ">")
		} else {
			b.WriteString(strconv.Quote(p.Text))
		}
	}
	return b.String()
}

// stringFuncOf reads a summary's verb back: the function and the
// constants after its first argument.
func stringFuncOf(verb string) (name string, f stringFunc, rest []string, ok bool) {
	spec, ok := strings.CutPrefix(verb, funcVerb)
	if !ok {
		return "", stringFunc{}, nil, false
	}
	fields := strings.Split(spec, "|")
	name, rest = fields[0], fields[1:]
	f, ok = stringFuncs[name]
	return name, f, rest, ok
}

// pathJoin is path.Join (or filepath.Join, '/' on the systems Redis runs
// beside) of elements the code fixes: their text cleaned as Join cleans it
// when every element is known, else the elements with '/' between them,
// the values taken to be clean path elements.
func (e *Evaluator) pathJoin(elems ssa.Value, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	els, ok := e.ElementsOf(elems, depth, visiting)
	if !ok || len(els) > MaxElements {
		return nil, false
	}
	out := []keymodel.Key{{}}
	first := true
	for _, el := range els {
		ks := e.ElementKeys(el, depth, visiting)
		if len(ks) == 1 {
			if text, known := ks[0].Known(); known && text == "" {
				continue // Join skips empty elements
			}
		}
		if !first {
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey("/")})
		}
		first = false
		out = keymodel.Product(out, ks)
		if len(out) > keymodel.MaxAlternatives {
			return nil, false
		}
	}
	for i, k := range out {
		if text, known := k.Known(); known && text != "" {
			out[i] = keymodel.TextKey(path.Clean(text))
		}
	}
	return out, true
}

// constBytes is the text of a slice of constant bytes the code fixes
// (the ':' of append(b, ':')).
func constBytes(v ssa.Value) (string, bool) {
	elems, ok := ssaread.SliceElements(v)
	if !ok {
		return "", false
	}
	out := make([]byte, 0, len(elems))
	for _, el := range elems {
		n, ok := ssaread.ConstInt(el)
		if !ok || n < 0 || n > 255 {
			return "", false
		}
		out = append(out, byte(n))
	}
	return string(out), true
}

// emptyBuffer reports make([]byte, 0, n) that only one append, by, writes
// to (two appends to one buffer with room would write the same bytes).
func emptyBuffer(v ssa.Value, by *ssa.Call) bool {
	var n int64
	ok := false
	switch mk := v.(type) {
	case *ssa.MakeSlice:
		n, ok = ssaread.ConstInt(mk.Len)
	case *ssa.Slice: // make([]byte, 0, 64): new [64]byte, sliced to [:0]
		if _, isNew := mk.X.(*ssa.Alloc); isNew && mk.High != nil && (mk.Low == nil || ssaread.IsConstInt(mk.Low, 0)) {
			n, ok = ssaread.ConstInt(mk.High)
		}
	}
	return ok && n == 0 && appendedOnce(v, by)
}

// bytesText is the text of a []byte the code builds as it would a string:
// []byte(s), append(b, s...) to nil or to an empty make([]byte, 0, n),
// strconv.AppendInt, AppendUint and AppendQuote, fmt.Appendf and Append.
func (e *Evaluator) bytesText(v ssa.Value, depth int, visiting map[ssa.Value]bool) ([]keymodel.Key, bool) {
	if !e.work.Enter() {
		return nil, false
	}
	defer e.work.Leave()
	switch v := v.(type) {
	case *ssa.Convert:
		if ssaread.IsString(v.X.Type()) {
			return e.eval(v.X, depth, visiting), true
		}
	case *ssa.Const:
		if v.IsNil() {
			return []keymodel.Key{{}}, true
		}
	case *ssa.Call:
		args := v.Call.Args
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(args) == 2 {
			var tail []keymodel.Key
			if ssaread.IsString(args[1].Type()) {
				tail = e.eval(args[1], depth, visiting) // append(b, s...)
			} else if text, ok := constBytes(args[1]); ok {
				tail = []keymodel.Key{keymodel.TextKey(text)} // append(b, ':')
			} else {
				return nil, false
			}
			if emptyBuffer(args[0], v) {
				return tail, true
			}
			head, ok := e.bytesText(args[0], depth+1, visiting)
			if !ok {
				return nil, false
			}
			return extended(head, tail, true)
		}
		fn := v.Call.StaticCallee()
		if fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "fmt" && fn.Signature.Recv() == nil && len(args) >= 2 {
			// fmt.Appendf(b, format, args...) and fmt.Append(b, args...):
			// b's text, then what Sprintf and Sprint write.
			var piece []keymodel.Key
			ok := false
			switch fn.Name() {
			case "Appendf":
				piece, ok = e.formatText(v, 1, depth, visiting)
			case "Append":
				piece, ok = e.printText(v, 1, depth, visiting)
			}
			if !ok {
				return nil, false
			}
			head, ok := e.bytesText(args[0], depth+1, visiting)
			if !ok {
				return nil, false
			}
			return extended(head, piece, true)
		}
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "strconv" || len(args) < 2 {
			return nil, false
		}
		var piece keymodel.Key
		switch fn.Name() {
		case "AppendInt", "AppendUint":
			if base, _ := ssaread.ConstInt(args[2]); base != 10 {
				return nil, false
			}
			piece = e.formatted("%d", args[1], "", digits)
		case "AppendQuote":
			piece = e.formatted("%q", args[1], "", traits{nonEmpty: true})
		default:
			return nil, false
		}
		head, ok := e.bytesText(args[0], depth+1, visiting)
		if !ok {
			return nil, false
		}
		return extended(head, []keymodel.Key{piece}, true)
	}
	return nil, false
}
