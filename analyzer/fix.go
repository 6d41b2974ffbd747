package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// coLocateFix suggests the remedy Redis documents for keys of one entity that
// land on different slots: give them the entity as a shared hash tag, so
// "user:1:profile" and "user:1:settings" become "{user:1}:profile" and
// "{user:1}:settings".
//
// It is offered only when it is surely right, and otherwise left out:
//   - every key of the command is a string literal at the call, so that every
//     key is rewritten and the command then stays on one slot;
//   - no key has a brace already;
//   - all keys share everything before their last ':', and that shared part
//     holds a ':' itself ("type:id"). Keys of different entities, such as
//     "user:1:a" and "user:2:a", are not given one tag: that would pile every
//     user on one slot. Such a batch should be split by slot instead.
//
// The fix renames keys; data stored under the old names stays there.
func coLocateFix(keys []keymodel.Arg, literals map[keymodel.Range]*ast.BasicLit) []analysis.SuggestedFix {
	entity := ""
	var edits []analysis.TextEdit
	edited := map[*ast.BasicLit]bool{}
	for i, k := range keys {
		lit, ok := literals[k.At]
		if !ok || len(k.Alts) != 1 {
			return nil
		}
		if edited[lit] {
			continue // one literal read twice, as with a slice passed twice
		}
		edited[lit] = true
		text, ok := k.Alts[0].Known()
		if !ok || strings.ContainsAny(text, "{}") {
			return nil
		}
		e, ok := entityOf(text)
		if !ok || i > 0 && e != entity || idLike(strings.TrimPrefix(text, e+":")) {
			return nil // "shop:stock:1": an id of the family, not a field of one entity
		}
		entity = e
		tagged := "{" + entity + "}" + strings.TrimPrefix(text, entity)
		edits = append(edits, analysis.TextEdit{Pos: lit.Pos(), End: lit.End(), NewText: []byte(literalLike(lit, tagged))})
	}
	if len(edits) == 0 {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("put the shared %q in a hash tag%s", entity, renames),
		TextEdits: edits,
	}}
}

// idLike reports a key's last segment that names one of a family's
// entities rather than a field of one: it holds a digit ("1", "u42").
func idLike(segment string) bool {
	return strings.ContainsAny(segment, "0123456789")
}

// entityOf is the entity a constant key is of: everything before its last
// ':', when that holds a ':' itself ("user:1" of "user:1:profile"). Keys of
// one entity co-locate under it as their hash tag.
func entityOf(text string) (string, bool) {
	sep := strings.LastIndexByte(text, ':')
	if sep < 0 || !strings.Contains(text[:sep], ":") {
		return "", false
	}
	return text[:sep], true
}

// literalLike writes s in the quoting style of lit: raw stays raw.
func literalLike(lit *ast.BasicLit, s string) string {
	if strings.HasPrefix(lit.Value, "`") && !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// templateFix puts the one value every key of a command shares in a hash
// tag, in each key's template: at the call, or in the key builder of this
// package the call gets the key from (one edit there fixes every caller):
//
//	fmt.Sprintf("order:%d:items", id) → fmt.Sprintf("order:{%d}:items", id)
//	"order:" + id + ":total"          → "order:{" + id + "}:total"
//	itemsKey(id), where itemsKey returns fmt.Sprintf("order:%d:items", id)
//
// It is offered only when every key is written so, around one value that is
// never empty and never holds a brace, with no brace in its text, and when
// the fixed keys then provably share a slot (the key model checks the
// rewritten keys). The keys move to another slot, so their stored data
// needs migrating; the fix's title says so.
func templateFix(keys []keymodel.Arg, src *eval.Source, info *types.Info, builders map[*types.Func]*ast.FuncDecl) []analysis.SuggestedFix {
	var edits []analysis.TextEdit
	var fixed []keymodel.Key
	var shared keymodel.Part
	var where []string
	done := map[keymodel.Range]bool{}
	edited := map[token.Pos]bool{}
	for i, k := range keys {
		if len(k.Alts) != 1 {
			return nil
		}
		u, ok := oneValue(k.Alts[0])
		if !ok || (i > 0 && u.ID != shared.ID) {
			return nil
		}
		shared = u
		if done[k.At] {
			continue // one expression read twice
		}
		done[k.At] = true
		expr := src.Exprs[k.At]
		e, ok := templateEdits(expr, info)
		if !ok {
			var builder string
			e, builder, ok = builderEdits(expr, info, builders)
			if !ok {
				return nil
			}
			if !slices.Contains(where, builder) {
				where = append(where, builder)
			}
		}
		for _, edit := range e {
			if !edited[edit.Pos] { // two keys from one builder
				edited[edit.Pos] = true
				edits = append(edits, edit)
			}
		}
		fixed = append(fixed, tagged(k.Alts[0]))
	}
	for _, f := range fixed[1:] {
		if keymodel.Relate(fixed[0], f) != keymodel.Same {
			return nil
		}
	}
	if len(fixed) < 2 {
		return nil
	}
	in := ""
	if len(where) > 0 {
		in = " in " + strings.Join(where, " and ")
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("put the shared %s in a hash tag%s%s", shared.Show, in, renames),
		TextEdits: edits,
	}}
}

// renames ends the title of every fix that renames keys.
const renames = "; this renames the keys, so migrate their stored data"

// builderEdits are the template edits in the key builder a call expression
// calls: a function of this package whose body is one return of a
// template (see templateEdits). builder names it.
func builderEdits(e ast.Expr, info *types.Info, builders map[*types.Func]*ast.FuncDecl) (edits []analysis.TextEdit, builder string, ok bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, "", false
	}
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return nil, "", false
	}
	fn, _ := info.Uses[id].(*types.Func)
	decl := builders[fn]
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return nil, "", false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, "", false
	}
	edits, ok = templateEdits(ast.Unparen(ret.Results[0]), info)
	return edits, fn.Name(), ok
}

// keyBuilders are a package's function declarations by their object, where
// templateFix may find a key's template.
func keyBuilders(files []*ast.File, info *types.Info) map[*types.Func]*ast.FuncDecl {
	out := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					out[fn] = fd
				}
			}
		}
	}
	return out
}

// oneValue is a key's only unknown part, when the key has one, never empty
// and never a brace, and its text has no brace.
func oneValue(k keymodel.Key) (keymodel.Part, bool) {
	u, ok := soleValue(k)
	return u, ok && u.NoBrace && u.NonEmpty
}

// tagged is the key with its one unknown part in braces.
func tagged(k keymodel.Key) keymodel.Key {
	var out keymodel.Key
	for _, p := range k {
		if p.Unknown {
			out = keymodel.Concat(out, keymodel.TextKey("{"), keymodel.Key{p}, keymodel.TextKey("}"))
		} else {
			out = keymodel.Concat(out, keymodel.Key{p})
		}
	}
	return out
}

// templateEdits are the edits that wrap a template's one value in braces:
// around the verb of a one-verb fmt.Sprintf literal, or in the literals on
// both sides of a concatenation "a" + x + "b". Literals with escapes are
// left alone: their source offsets are not their text's.
func templateEdits(e ast.Expr, info *types.Info) ([]analysis.TextEdit, bool) {
	insert := func(pos token.Pos, s string) analysis.TextEdit {
		return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(s)}
	}
	plain := func(lit *ast.BasicLit) bool {
		return lit.Kind == token.STRING && !strings.ContainsAny(lit.Value, "\\{}")
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		fn, ok := typeutilCallee(info, e)
		if !ok || fn != "fmt.Sprintf" || len(e.Args) != 2 {
			return nil, false
		}
		lit, ok := e.Args[0].(*ast.BasicLit)
		if !ok || !plain(lit) || strings.Count(lit.Value, "%") != 1 {
			return nil, false
		}
		i := strings.IndexByte(lit.Value, '%')
		_, _, next, _, ok := eval.ScanVerb(lit.Value, i+1)
		if !ok {
			return nil, false
		}
		return []analysis.TextEdit{insert(lit.Pos()+token.Pos(i), "{"), insert(lit.Pos()+token.Pos(next), "}")}, true
	case *ast.BinaryExpr:
		left, ok := e.X.(*ast.BinaryExpr)
		if !ok || e.Op != token.ADD || left.Op != token.ADD {
			return nil, false
		}
		before, ok1 := left.X.(*ast.BasicLit)
		after, ok2 := e.Y.(*ast.BasicLit)
		if !ok1 || !ok2 || !plain(before) || !plain(after) {
			return nil, false
		}
		if _, lit := left.Y.(*ast.BasicLit); lit {
			return nil, false
		}
		return []analysis.TextEdit{insert(before.End()-1, "{"), insert(after.Pos()+1, "}")}, true
	}
	return nil, false
}

// typeutilCallee names a call's package-level function as "pkg.Name".
func typeutilCallee(info *types.Info, call *ast.CallExpr) (string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return "", false
	}
	return fn.Pkg().Path() + "." + fn.Name(), true
}
