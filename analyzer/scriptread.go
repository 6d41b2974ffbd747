package analyzer

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

// A scriptSource is the text of a script and where it is written: a Go
// string literal (positions mapped by line where the literal has no escapes)
// or an embedded file.
type scriptSource struct {
	text string
	lit  *ast.BasicLit
	file string // an embedded .lua file
}

// scriptOf finds the script a client call runs and its source, when the
// code fixes it.
func (a *packageAnalysis) scriptOf(site *clients.Site) (scriptSource, bool) {
	v, expr, ok := clients.ScriptText(site)
	if !ok {
		return scriptSource{}, false
	}
	return a.sourceOf(v, expr)
}

// sourceOf reads a script's text: a constant (the literal that writes it
// when it can be found), or an embedded file.
func (a *packageAnalysis) sourceOf(v ssa.Value, expr ast.Expr) (scriptSource, bool) {
	if load, ok := v.(*ssa.UnOp); ok {
		if g, ok := load.X.(*ssa.Global); ok {
			if file, ok := a.embedded[g.Object()]; ok {
				text, err := os.ReadFile(file)
				return scriptSource{text: string(text), file: file}, err == nil
			}
		}
	}
	ks := a.ev.Keys(v)
	if len(ks) != 1 {
		return scriptSource{}, false
	}
	text, ok := ks[0].Known()
	if !ok {
		return scriptSource{}, false
	}
	return scriptSource{text: text, lit: a.literalOf(expr, text)}, true
}

// literalOf finds the string literal that writes text: the argument itself,
// or the declaration of the constant or variable it names.
func (a *packageAnalysis) literalOf(expr ast.Expr, text string) *ast.BasicLit {
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
		obj := a.pass.TypesInfo.ObjectOf(id)
		if obj == nil {
			return nil
		}
		for _, f := range a.pass.Files {
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
						if a.pass.TypesInfo.Defs[name] == obj && i < len(vs.Values) {
							check(vs.Values[i])
						}
					}
				}
			}
		}
	}
	return found
}

// readScript finds and parses the Lua a script call runs; false when it is
// not in the code or not Lua the parser reads (then the call is not checked).
func (a *packageAnalysis) readScript(site *clients.Site) (scriptSource, *luascript.Script, bool) {
	src, ok := a.scriptOf(site)
	if !ok {
		return src, nil, false
	}
	script, err := a.parseScript(src.text)
	return src, script, err == nil
}

func (a *packageAnalysis) parseScript(text string) (*luascript.Script, error) {
	if s, ok := a.scripts[text]; ok {
		return s.script, s.err
	}
	s, err := luascript.Parse(text)
	a.scripts[text] = parsedScript{s, err}
	return s, err
}

// touchedKeys is the keys the script touches besides plain KEYS[i], in the
// key model: KEYS and ARGV as the call passes them.
func (a *packageAnalysis) touchedKeys(site *clients.Site, script *luascript.Script, declared []keymodel.Arg) []scriptKey {
	argv := clients.ScriptArgs(site)
	var out []scriptKey
	for _, call := range script.Calls {
		for _, k := range call.Keys {
			if _, ok := k.Declared(); !ok {
				out = append(out, scriptKey{command: call.Command, lua: k.String(), line: call.Line, key: luaKey(k, declared, argv), fromData: k.ReadFromData()})
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
func (a *packageAnalysis) scriptKeysOf(site *clients.Site, declared []keymodel.Arg) []scriptKey {
	if !keymodel.AnyFromParams(declared) {
		return nil
	}
	_, script, ok := a.readScript(site)
	if !ok || script.HasFlag("allow-cross-slot-keys") {
		return nil
	}
	var out []scriptKey
	for _, k := range a.touchedKeys(site, script, declared) {
		if k.key.FromParams() {
			out = append(out, k)
		}
	}
	return out
}

// luaKey is a key the script builds, in the key model: KEYS[i] as the Go
// call declares it, ARGV[i] as the call passes it (when it is a string the
// code fixes), other values unknown (and maybe braces).
func luaKey(k luascript.Key, declared []keymodel.Arg, argv [][]keymodel.Key) keymodel.Arg {
	out := []keymodel.Key{{}}
	for i, p := range k {
		switch {
		case p.Key > 0 && p.Key <= len(declared) && len(declared[p.Key-1].Alts) > 0:
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
