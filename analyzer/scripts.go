package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/internal/luascript"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Scripts: the Lua that Go code sends is read (internal/luascript) and
// checked against the keys the Go call declares. On a cluster the script
// runs on the node of its declared keys; a key it touches that lives on
// another node fails with "ERR Script attempted to access a non local key in
// a cluster node", whether the script builds it from KEYS (derived), writes
// it as a literal, or takes it from ARGV (undeclared).

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

// embeddedStrings finds the package's string variables filled by
// //go:embed with one file: their text is that file's, not "".
func embeddedStrings(pass *analysis.Pass) map[types.Object]string {
	out := map[types.Object]string{}
	for _, f := range pass.Files {
		dir := filepath.Dir(pass.Fset.File(f.Pos()).Name())
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				doc := vs.Doc
				if doc == nil {
					doc = gd.Doc
				}
				if doc == nil || len(vs.Names) != 1 {
					continue
				}
				for _, c := range doc.List {
					pattern, ok := strings.CutPrefix(c.Text, "//go:embed ")
					if !ok {
						continue
					}
					if obj := pass.TypesInfo.Defs[vs.Names[0]]; obj != nil {
						out[obj] = filepath.Join(dir, strings.TrimSpace(pattern))
					}
				}
			}
		}
	}
	return out
}

// checkScript reads a script call's Lua and reports the keys it touches
// that are not its declared keys' slot, the KEYS it reads that the call does
// not pass, and keys it neither declares nor provably shares a slot with.
func (a *packageAnalysis) checkScript(site *clients.Site, declared []keymodel.Arg) {
	src, script, ok := a.readScript(site)
	if !ok {
		return
	}
	passed := len(declared)
	for _, k := range declared {
		if k.Unread != "" || k.Spread > 0 || len(k.Alts) == 0 {
			passed = -1 // how many keys is not known
		}
	}
	for _, r := range script.KeyReads {
		if passed >= 0 && r.N > passed {
			a.reportAt(src, r.Line, fmt.Sprintf("KEYS[%d]", r.N), site, CategoryMissingKey,
				fmt.Sprintf("%s script reads KEYS[%d], but the call passes %s: it gets nil", site.Method, r.N, plural(passed, "key")))
			break
		}
	}
	if script.HasFlag("allow-cross-slot-keys") {
		return // the script vouches that its keys are on one node
	}
	// Declared keys that come from the function's parameters are the
	// callers' to fix: an undeclared key built from the parameters too that
	// is not proved on their slot is judged at each call (the function's
	// summary carries it, scriptKeysOf).
	deferred := keymodel.AnyFromParams(declared)
	for _, k := range a.touchedKeys(site, script, declared) {
		category, msg := a.judgeScriptKey(site.Method, k, declared, "")
		if category == "" || category == CategoryUndeclaredKey && deferred && k.key.FromParams() {
			continue
		}
		a.reportAt(src, k.line, "", site, category, msg)
		return
	}
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

// A scriptKey is a key a script touches besides a plain KEYS[i]. A wrapper's
// sink carries those built from its parameters when the script's declared
// keys come from them too, so that each call judges them.
type scriptKey struct {
	command string // the Redis command in the script, e.g. "HSET"
	lua     string // the key as the script builds it, e.g. ARGV[1] .. <id>
	line    int    // the script's line, for reports in the function
	key     keymodel.Arg
}

// touchedKeys is the keys the script touches besides plain KEYS[i], in the
// key model: KEYS and ARGV as the call passes them.
func (a *packageAnalysis) touchedKeys(site *clients.Site, script *luascript.Script, declared []keymodel.Arg) []scriptKey {
	argv := clients.ScriptArgs(site)
	var out []scriptKey
	for _, call := range script.Calls {
		for _, k := range call.Keys {
			if _, ok := k.Declared(); !ok {
				out = append(out, scriptKey{command: call.Command, lua: k.String(), line: call.Line, key: luaKey(k, declared, argv)})
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

// judgeScriptKeysAtCall reports, at a call of a wrapper, the first key its
// script touches that is on another slot than the declared keys the call
// passes (scriptslot), or, once the call fixes them, not proved on theirs
// (undeclaredkey).
func (a *packageAnalysis) judgeScriptKeysAtCall(s calledSink, via *wrapperVia) {
	at := s.keys[0].At
	for _, k := range s.keys {
		if k.ViaCall {
			at = k.At
		}
	}
	in := fmt.Sprintf(" in %s (%s)", via.name, via.where)
	for _, k := range s.script {
		category, msg := a.judgeScriptKey(s.method, k, s.keys, in)
		if category == "" || category == CategoryUndeclaredKey && (s.fromParams() || k.key.FromParams()) {
			continue // on their slot, or still the callers' to decide
		}
		a.pass.Report(analysis.Diagnostic{Pos: at.Pos, End: at.End, Category: category, Message: msg})
		return
	}
}

// judgeScriptKey judges one key a script touches against its declared keys:
// proved on another slot than one of them (scriptslot), proved on theirs
// (no category), or neither (undeclaredkey). in names the wrapper the script
// runs in, for reports at its calls.
func (a *packageAnalysis) judgeScriptKey(method string, k scriptKey, declared []keymodel.Arg, in string) (category, message string) {
	// The declared keys share one slot, or the call fails with CROSSSLOT
	// anyway: a key on the slot of any of them is on theirs.
	onTheirSlot := false
	for _, d := range declared {
		if diff, ok := a.differ(d, k.key); ok {
			return CategoryScriptSlot, fmt.Sprintf(
				"%s script's %s key %s and the declared key %s are on different hash slots%s%s; on a cluster the script fails where they are on different nodes (non local key)",
				method, k.command, diff.Show(false, ""), diff.Show(true, ""), diff.How(), in)
		}
		onTheirSlot = onTheirSlot || keymodel.Unproved(d, k.key) == "" || keymodel.SameTagTemplate(d, k.key)
	}
	if onTheirSlot {
		return "", ""
	}
	return CategoryUndeclaredKey, fmt.Sprintf(
		"%s script's %s key %s is not declared in KEYS and not proved to be on the declared keys' slot%s; Redis requires scripts to declare their keys, and on a cluster the script fails where it is on another node (non local key)",
		method, k.command, k.lua, in)
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

func (a *packageAnalysis) parseScript(text string) (*luascript.Script, error) {
	if s, ok := a.scripts[text]; ok {
		return s.script, s.err
	}
	s, err := luascript.Parse(text)
	a.scripts[text] = parsedScript{s, err}
	return s, err
}

type parsedScript struct {
	script *luascript.Script
	err    error
}

// reportAt reports at a line of the script: in the Go string literal that
// writes it (at want, or the line's first non-blank character), in the
// embedded .lua file, or else at the call. Away from the call, the call is
// related information: a script may serve several calls.
func (a *packageAnalysis) reportAt(src scriptSource, line int, want string, site *clients.Site, category, msg string) {
	call := site.CallPos()
	pos := call.Pos
	switch {
	case src.lit != nil && !strings.Contains(src.lit.Value, `\`):
		if off, ok := lineOffset(src.lit.Value[1:len(src.lit.Value)-1], line, want); ok {
			pos = src.lit.Pos() + 1 + token.Pos(off)
		}
	case src.file != "":
		if off, ok := lineOffset(src.text, line, want); ok {
			tf := a.pass.Fset.AddFile(src.file, -1, len(src.text))
			tf.SetLinesForContent([]byte(src.text))
			pos = tf.Pos(off)
		}
	}
	d := analysis.Diagnostic{Pos: pos, Category: category, Message: msg}
	if pos != call.Pos {
		d.Related = []analysis.RelatedInformation{{Pos: call.Pos, End: call.End, Message: "the script runs here"}}
	}
	a.pass.Report(d)
}

// lineOffset is the offset of want on a 1-based line of text (its first
// non-blank character when want is "" or not there).
func lineOffset(text string, line int, want string) (int, bool) {
	off := 0
	for range line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text) - off
	}
	l := text[off : off+end]
	if want != "" {
		if i := strings.Index(l, want); i >= 0 {
			return off + i, true
		}
	}
	return off + len(l) - len(strings.TrimLeft(l, " \t")), true
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
