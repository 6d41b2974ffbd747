package reading

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/internal/luascript"
)

// A ScriptSource is the text of a script and where it is written: a Go
// string literal (positions mapped by line where the literal has no escapes)
// or an embedded file.
type ScriptSource struct {
	Text string
	Lit  *ast.BasicLit
	File string // an embedded .lua file
}

// scriptOf finds the script a client call runs and its source, when the
// code fixes it.
func (r *Package) scriptOf(site *clients.Site) (ScriptSource, bool) {
	v, expr, ok := clients.ScriptText(site)
	if !ok {
		return ScriptSource{}, false
	}
	return r.sourceOf(v, expr)
}

// sourceOf reads a script's text: a constant (the literal that writes it
// when it can be found), or an embedded file.
func (r *Package) sourceOf(v ssa.Value, expr ast.Expr) (ScriptSource, bool) {
	if load, ok := v.(*ssa.UnOp); ok {
		if g, ok := load.X.(*ssa.Global); ok {
			if file, ok := r.scripts.embedded[g.Object()]; ok {
				text, err := os.ReadFile(file)
				return ScriptSource{Text: string(text), File: file}, err == nil
			}
		}
	}
	ks := r.Eval.Keys(v)
	if len(ks) != 1 {
		return ScriptSource{}, false
	}
	text, ok := ks[0].Known()
	if !ok {
		return ScriptSource{}, false
	}
	return ScriptSource{Text: text, Lit: r.literalOf(expr, text)}, true
}

// literalOf finds the string literal that writes text: the argument itself,
// or the declaration of the constant or variable it names.
func (r *Package) literalOf(expr ast.Expr, text string) *ast.BasicLit {
	var found *ast.BasicLit
	check := func(e ast.Expr) {
		if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING && found == nil {
			found = lit
		}
	}
	switch e := ast.Unparen(expr).(type) {
	case *ast.BasicLit:
		check(e)
	case *ast.Ident, *ast.SelectorExpr:
		id, _ := e.(*ast.Ident)
		if sel, ok := e.(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
		obj := r.Pass.TypesInfo.ObjectOf(id)
		if obj == nil {
			return nil
		}
		for _, f := range r.Pass.Files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range gd.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, name := range vs.Names {
						if r.Pass.TypesInfo.Defs[name] == obj && i < len(vs.Values) {
							check(vs.Values[i])
						}
					}
				}
			}
		}
	}
	return found
}

// ReadScript finds and parses the Lua a script call runs; false when it is
// not in the code or not Lua the parser reads (then the call is not checked).
func (r *Package) ReadScript(site *clients.Site) (ScriptSource, *luascript.Script, bool) {
	if read, ok := r.scripts.read[site.Common]; ok { // the script checks and the readiness checks both ask
		return read.src, read.script, read.ok
	}
	src, ok := r.scriptOf(site)
	var script *luascript.Script
	if ok {
		var err error
		script, err = r.parseScript(src.Text)
		ok = err == nil
	}
	r.scripts.read[site.Common] = readScript{src, script, ok}
	return src, script, ok
}

// A readScript is what ReadScript found for one call.
type readScript struct {
	src    ScriptSource
	script *luascript.Script
	ok     bool
}

func (r *Package) parseScript(text string) (*luascript.Script, error) {
	if s, ok := r.scripts.parsed[text]; ok {
		return s.script, s.err
	}
	s, err := luascript.Parse(text)
	r.scripts.parsed[text] = parsedScript{s, err}
	return s, err
}

// TouchedKeys is the keys the script touches besides plain KEYS[i], in the
// key model: KEYS and ARGV as the call passes them.
func (r *Package) TouchedKeys(site *clients.Site, script *luascript.Script, declared []keymodel.Arg) []ScriptKey {
	argv := clients.ScriptArgs(site)
	var out []ScriptKey
	for _, call := range script.Calls {
		for _, k := range call.Keys {
			if _, ok := k.Declared(); !ok {
				out = append(out, ScriptKey{Command: call.Command, Lua: k.String(), Line: call.Line, Key: luaKey(k, declared, argv), FromData: k.ReadFromData()})
			}
		}
	}
	return out
}

// scriptKeysOf is what a sink carries of a script call whose declared keys
// come from the calling function's parameters: the keys the script touches
// besides plain KEYS[i] that are built from the parameters too. A key that
// does not depend on them (a constant, a name read from Redis) is judged in
// the function, once. Nil when the Lua is not read, the script vouches for
// its keys (allow-cross-slot-keys), or no declared key is a parameter's.
func (r *Package) scriptKeysOf(site *clients.Site, declared []keymodel.Arg) []ScriptKey {
	if !keymodel.AnyFromParams(declared) {
		return nil
	}
	_, script, ok := r.ReadScript(site)
	if !ok || script.HasFlag("allow-cross-slot-keys") {
		return nil
	}
	var out []ScriptKey
	for _, k := range r.TouchedKeys(site, script, declared) {
		if k.Key.FromParams() {
			out = append(out, k)
		}
	}
	return out
}

// luaKey is a key the script builds, in the key model: KEYS[i] as the Go
// call declares it, ARGV[i] as the call passes it (when it is a string the
// code fixes), other values unknown (and maybe braces).
func luaKey(k luascript.Key, declared []keymodel.Arg, argv [][]keymodel.Key) keymodel.Arg {
	// Keys of one of several lists (keymodel.Arg.Apart) are at no one place
	// in KEYS, nor is any key after them.
	places := len(declared)
	for i, d := range declared {
		if d.Apart.Of != "" {
			places = min(places, i)
		}
	}
	out := []keymodel.Key{{}}
	for i, p := range k {
		switch {
		case p.Key > 0 && p.Key <= places && len(declared[p.Key-1].Alts) > 0:
			out = keymodel.Product(out, declared[p.Key-1].Alts)
		case p.Arg > 0 && p.Arg <= len(argv) && argv[p.Arg-1] != nil:
			out = keymodel.Product(out, argv[p.Arg-1])
		case p.Unknown || p.Key > 0 || p.Arg > 0:
			show := p.Name // the Lua variable, shown as <id> like any unknown part
			if show == "" {
				show = luascript.Key{p}.String()
			}
			out = keymodel.Product(out, []keymodel.Key{keymodel.UnknownKey(keymodel.Part{ID: fmt.Sprintf("lua:%s:%d", luascript.Key{p}, i), Show: show})})
		default:
			out = keymodel.Product(out, []keymodel.Key{keymodel.TextKey(p.Text)})
		}
	}
	return keymodel.Arg{Alts: out}
}
