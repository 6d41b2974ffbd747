package analyzer

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// The key inventory: what the reading knows of the keys a package builds,
// kept instead of thrown away after the findings. Each command and
// transaction that sends keys is one KeyUse, with the template of each key
// (user:{<id>}:profile), its hash tag and whether the use's keys share a
// slot; `crossslot keys` groups the uses of a module into key families.

// An Inventory is one package's key uses, as a JSON line of the file
// -crossslot.inventory names.
type Inventory struct {
	Package string   `json:"package"`
	Uses    []KeyUse `json:"uses"`
}

// A KeyUse is one command, or one transaction, and the keys it sends.
type KeyUse struct {
	At          string   `json:"at"`      // file:line:column of the call (a transaction's opening call)
	Command     string   `json:"command"` // the method or command: MGet, Do, TxPipelined, MULTI/EXEC
	Transaction bool     `json:"transaction,omitempty"`
	Keys        []KeyRef `json:"keys"`
	// Slots says whether the keys share a slot: "one" (proved for every
	// value), "different" (a crossslot finding), "split" (the client or a
	// proxy splits the command by slot), or "unknown".
	Slots string `json:"slots"`
	// Pairs are the keys sent together, by index in Keys, with what is
	// known of their slots: a transaction's keys on paths that exclude each
	// other (if/else) are not a pair.
	Pairs []KeyPair `json:"pairs,omitempty"`
}

// A KeyPair is two keys of a use sent together, and their slots: "one",
// "different" (proved or near-sure to differ), "split", or "unknown".
type KeyPair struct {
	A, B  int
	Slots string
}

// WorseSlots is the worse of two Slots verdicts, from "one" (best) to
// "split", "unknown" and "different" (worst); "" is no verdict yet.
func WorseSlots(a, b string) string {
	rank := map[string]int{"": 0, "one": 1, "split": 2, "unknown": 3, "different": 4}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// SlotsWords says a Slots verdict in words.
var SlotsWords = map[string]string{
	"one":       "one slot",
	"different": "different slots, as the crossslot check finds",
	"split":     "split by slot",
	"unknown":   "not proved to share a slot",
}

// A KeyRef is one key of a use.
type KeyRef struct {
	Template string `json:"template"` // the key with each value the code does not fix as <its expression>
	At       string `json:"at"`       // where the key is written
	// TagKind is "constant" (one text: every value of the key on its
	// slot), "value" (the tag holds a value), "none", "empty" ({}), or
	// "unknown" (a value that may hold a brace comes first).
	TagKind string `json:"tag_kind"`
	Tag     string `json:"tag,omitempty"`  // the tag's template, for constant and value tags
	Slot    *int   `json:"slot,omitempty"` // when the hashed part is known
	// Span is where the key's expression is, for an editor's hover.
	Span Span `json:"-"`
	// Builder names the function whose call writes the key, when it is a
	// key builder (user.Key, Space.Join) with its declaration's place, and
	// BuilderTemplate is its result with each parameter as <its name>
	// (user:{<id>}:profile): the family its calls make, whatever the
	// callers' variables are called.
	Builder         string `json:"builder,omitempty"`
	BuilderTemplate string `json:"builder_template,omitempty"`
	// Script is, for a key a script touches besides its declared ones, the
	// script's command and the key as its Lua builds it: HSET KEYS[1] .. ':reserved'.
	Script string `json:"script,omitempty"`
}

// A Span is a source range: a file's absolute name, and 1-based lines and
// columns (bytes), the end after the last byte.
type Span struct {
	File                             string
	Line, Column, EndLine, EndColumn int
}

// keyInventory is the unit that records the uses, when
// -crossslot.inventory names a file.
var keyInventory = &unitKind{new: func(p *unitPass) reading.Visitor { return &inventoryUnit{pass: p} }}

type inventoryUnit struct {
	hooks
	pass   *unitPass
	values map[*types.Var]ast.Expr // onlyValue's answers
}

func (u *inventoryUnit) Command(c *reading.Command) {
	if u.pass.inventory == nil || c.Channels() || len(c.Keys) == 0 {
		return
	}
	pos := c.Keys[0].At.Pos
	if c.Site != nil {
		pos = c.Site.Common.Pos()
	} else if c.Wrapper != nil && c.Wrapper.Call != nil {
		pos = c.Wrapper.Call.Pos()
	}
	split := c.Split == reading.SplitRead || c.Split == reading.SplitAlways || c.Split == reading.SplitWrite || c.Split == reading.SplitByProxy
	keys := c.Keys
	script := u.scriptKeys(c)
	if len(script) > 0 {
		keys = slices.Clone(keys)
		for _, k := range script {
			keys = append(keys, k.Key)
		}
	}
	refs, of := u.refs(keys)
	for i := range refs {
		if of[i] >= len(c.Keys) {
			k := script[of[i]-len(c.Keys)]
			refs[i].Script = k.Command + " " + k.Lua
		}
	}
	use := KeyUse{At: u.where(pos), Command: c.Method, Keys: refs, Slots: "one"}
	if len(use.Keys) == 0 {
		return
	}
	switch _, found := u.pass.commandCrossing(c.Keys, c.Wrapper != nil); {
	case split:
		use.Slots = "split"
	case found:
		use.Slots = "different"
	case !sameSlot(c.Keys):
		use.Slots = "unknown"
	}
	use.Pairs = u.pairs(keys, of, func(i, j int) bool { return true }, split)
	u.pass.inventory.Uses = append(u.pass.inventory.Uses, use)
}

// scriptKeys are the keys a command's script touches besides its declared
// ones (KEYS[1] .. ':reserved'): of a script call, read from its Lua, or of
// a wrapper's, from its summary.
func (u *inventoryUnit) scriptKeys(c *reading.Command) []reading.ScriptKey {
	switch {
	case c.Wrapper != nil:
		return c.Script
	case c.Site != nil && c.Multi:
		if _, script, ok := u.pass.ReadScript(c.Site); ok {
			return u.pass.TouchedKeys(c.Site, script, c.Keys)
		}
	}
	return nil
}

func (u *inventoryUnit) Transaction(t *reading.Transaction) {
	if u.pass.inventory == nil {
		return
	}
	var keys []keymodel.Arg
	var command []int // each key's command, -1 for a watched key
	for i, c := range t.Commands {
		keys = append(keys, c.Keys...)
		for range c.Keys {
			command = append(command, i)
		}
	}
	if t.Watch {
		keys = append(keys, t.Watched...)
		for range t.Watched {
			command = append(command, -1)
		}
	}
	if len(keys) == 0 {
		return
	}
	refs, of := u.refs(keys)
	use := KeyUse{At: u.where(t.At.Pos), Command: t.Name, Transaction: true, Keys: refs, Slots: "one"}
	use.Pairs = u.pairs(keys, of, func(i, j int) bool {
		return command[i] < 0 || command[j] < 0 || command[i] == command[j] || t.InOne(command[i], command[j])
	}, false)
	if len(use.Keys) == 0 {
		return
	}
	switch _, found := u.pass.transactionCrossing(t.Commands, t.InOne, true); {
	case found:
		use.Slots = "different"
	case !sameSlot(keys):
		use.Slots = "unknown"
	}
	u.pass.inventory.Uses = append(u.pass.inventory.Uses, use)
}

// sameSlot reports keys on one slot for every value: proved
// (keymodel.Unproved), or of one tag template (keymodel.SameTagTemplate:
// one tag whatever the values hold, but for the empty tag strict mode
// reports).
func sameSlot(keys []keymodel.Arg) bool {
	for _, k := range keys {
		if len(k.Alts) == 0 || k.Family != "" {
			return false // a list or a loop's keys: one key per element
		}
	}
	return keymodel.OneSlot(keys)
}

// refs are the keys' alternatives as KeyRefs, and of each ref the key it
// is an alternative of.
func (u *inventoryUnit) refs(keys []keymodel.Arg) (out []KeyRef, of []int) {
	for i, k := range keys {
		for _, alt := range k.Alts {
			if len(alt) == 1 && alt[0].Unknown && alt[0].Given {
				continue // a whole key the callers give: their calls show it
			}
			ref := keyRef(alt, u.where(k.At.Pos))
			ref.Builder, ref.BuilderTemplate = u.builder(k.At)
			start, end := u.pass.pass.Fset.Position(k.At.Pos), u.pass.pass.Fset.Position(k.At.End)
			ref.Span = Span{File: start.Filename, Line: start.Line, Column: start.Column, EndLine: end.Line, EndColumn: end.Column}
			out = append(out, ref)
			of = append(of, i)
		}
	}
	return out, of
}

// pairs are the refs of keys sent together (together says which keys are),
// with what is known of their slots, one pair of keys at a time.
func (u *inventoryUnit) pairs(keys []keymodel.Arg, of []int, together func(i, j int) bool, split bool) []KeyPair {
	verdict := map[[2]int]string{}
	var out []KeyPair
	for a := range of {
		for b := a + 1; b < len(of); b++ {
			i, j := of[a], of[b]
			if i == j || !keys[i].Meets(keys[j]) || !together(i, j) {
				continue
			}
			v, ok := verdict[[2]int{i, j}]
			if !ok {
				switch _, differ := u.pass.Differ(keys[i], keys[j]); {
				case split:
					v = "split"
				case differ:
					v = "different"
				case sameSlot([]keymodel.Arg{keys[i], keys[j]}):
					v = "one"
				default:
					v = "unknown"
				}
				verdict[[2]int{i, j}] = v
			}
			out = append(out, KeyPair{A: a, B: b, Slots: v})
		}
	}
	return out
}

// builder is the key builder whose call is the key's expression at (see
// keyCallee), and its result in its own parameters' names; "" when the key
// is not a call of a function with a summary of its result.
func (u *inventoryUnit) builder(at keymodel.Range) (name, template string) {
	fn := u.keyCallee(at)
	if fn == nil || fn.Pkg() == nil {
		return "", ""
	}
	result, ok := u.pass.BuilderResult(fn)
	if !ok || len(result) != 1 {
		return "", ""
	}
	sig := fn.Type().(*types.Signature)
	var params []string // by SSA's numbering: the receiver first
	if sig.Recv() != nil {
		params = append(params, sig.Recv().Name())
	}
	for i := range sig.Params().Len() {
		params = append(params, sig.Params().At(i).Name())
	}
	var b strings.Builder
	for _, p := range result[0] {
		switch {
		case !p.Unknown:
			b.WriteString(p.Text)
		case p.Param > 0 && p.Param <= len(params) && params[p.Param-1] != "" && params[p.Param-1] != "_":
			b.WriteString("<" + params[p.Param-1] + ">")
		case p.Of > 0 && p.Of <= len(params) && p.Show != "":
			b.WriteString("<" + p.Show + ">")
		case p.Show != "":
			b.WriteString("<" + p.Show + ">")
		default:
			b.WriteString("<?>")
		}
	}
	name = fn.Name()
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if named, ok := types.Unalias(t).(*types.Named); ok {
			name = named.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != u.pass.pass.Pkg {
		name = fn.Pkg().Name() + "." + name
	}
	if pos := u.pass.pass.Fset.Position(fn.Pos()); pos.IsValid() {
		name += " (" + pos.Filename + ":" + strconv.Itoa(pos.Line) + ")"
	}
	return name, b.String()
}

// keyCallee is the function whose call's result the key's expression at
// is: the expression's callee, or that of the one value a variable it names
// is ever given (k := rateKey(1); rdb.Incr(ctx, k)), or of every element of
// the one slice it is given (ks := []string{rateKey(1), rateKey(2)}), so
// that a builder's calls through variables are uses of its family as calls
// in place are; nil otherwise.
func (u *inventoryUnit) keyCallee(at keymodel.Range) *types.Func {
	info := u.pass.pass.TypesInfo
	if call, ok := u.pass.source.Exprs[at].(*ast.CallExpr); ok {
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		return fn
	}
	id := u.identAt(at)
	for range 4 { // k := key; key := rateKey(1)
		if id == nil {
			return nil
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pkg() != u.pass.pass.Pkg {
			return nil
		}
		switch e := ast.Unparen(u.onlyValue(v)).(type) {
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			return fn
		case *ast.CompositeLit:
			var fn *types.Func
			for _, el := range e.Elts {
				call, ok := ast.Unparen(el).(*ast.CallExpr)
				if !ok {
					return nil
				}
				callee, _ := typeutil.Callee(info, call).(*types.Func)
				if callee == nil || fn != nil && callee != fn {
					return nil // the keys' element is not known: each must be of one builder
				}
				fn = callee
			}
			return fn
		case *ast.Ident:
			id = e
		default:
			return nil
		}
	}
	return nil
}

// identAt is the identifier whose range is at, or nil.
func (u *inventoryUnit) identAt(at keymodel.Range) *ast.Ident {
	for _, f := range u.pass.pass.Files {
		if f.FileStart <= at.Pos && at.End <= f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, at.Pos, at.End)
			if len(path) == 0 || path[0].Pos() != at.Pos || path[0].End() != at.End {
				return nil
			}
			if e, ok := path[0].(ast.Expr); ok {
				id, _ := ast.Unparen(e).(*ast.Ident)
				return id
			}
			return nil
		}
	}
	return nil
}

// onlyValue is the expression a variable of the package is given, when
// the package gives it one value, once, and never takes its address; nil
// otherwise. An exported package variable is left out, as the reading
// leaves it a value: another package may assign it.
func (u *inventoryUnit) onlyValue(v *types.Var) ast.Expr {
	if e, ok := u.values[v]; ok {
		return e
	}
	if u.values == nil {
		u.values = map[*types.Var]ast.Expr{}
	}
	u.values[v] = nil
	info := u.pass.pass.TypesInfo
	global := v.Parent() == v.Pkg().Scope()
	if global && v.Exported() {
		return nil
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && (info.Defs[id] == v || info.Uses[id] == v)
	}
	var value ast.Expr
	writes := 0
	for _, f := range u.pass.pass.Files {
		if !global && (v.Pos() < f.FileStart || v.Pos() > f.FileEnd) {
			continue // a local variable is written in its own file only
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if is(lhs) {
						writes++
						if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) {
							value = n.Rhs[i]
						}
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if info.Defs[name] == v {
						writes++ // var k string is its zero value
						if len(n.Values) == len(n.Names) {
							value = n.Values[i]
						}
					}
				}
			case *ast.RangeStmt:
				if n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value) {
					writes += 2 // a value per iteration
				}
			case *ast.IncDecStmt:
				if is(n.X) {
					writes++
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && is(n.X) {
					writes += 2 // written through its address, out of sight
				}
			}
			return true
		})
	}
	if writes == 1 {
		u.values[v] = value
	}
	return u.values[v]
}

// keyRef describes one key.
func keyRef(k keymodel.Key, at string) KeyRef {
	r := KeyRef{Template: k.String(), At: at, TagKind: "none"}
	if s, ok := k.Slot(); ok {
		r.Slot = &s
	}
	if tag, ok := k.Tag(); ok {
		r.Tag = tag.String()
		switch text, known := tag.Known(); {
		case known && text == "":
			r.TagKind, r.Tag = "empty", ""
		case known:
			r.TagKind = "constant"
		default:
			r.TagKind = "value"
		}
		return r
	}
	for _, p := range k {
		if p.Unknown && !p.NoBrace || !p.Unknown && strings.ContainsRune(p.Text, '{') {
			r.TagKind = "unknown"
			break
		}
	}
	return r
}

// where is a position as file:line:column, the file relative to the
// working directory when it is below it (absolute for a Record, which a
// cache keeps for runs from other directories).
func (u *inventoryUnit) where(pos token.Pos) string {
	p := u.pass.pass.Fset.Position(pos)
	name := p.Filename
	if wd, err := os.Getwd(); err == nil && !u.pass.cfg.Records && strings.HasPrefix(name, wd+string(os.PathSeparator)) {
		name = name[len(wd)+1:]
	}
	return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
}

// appendTo writes the inventory as one JSON line of file.
func (inv *Inventory) appendTo(file string) error {
	if len(inv.Uses) == 0 {
		return nil
	}
	return appendJSONLine(file, inv)
}

// A Record is what a package's analysis records besides its findings, as
// the message of a diagnostic of category CategoryRecord (Config.Records).
type Record struct {
	Inventory *Inventory `json:"inventory,omitempty"`
	Coverage  *Coverage  `json:"coverage,omitempty"`
}

// reportRecord reports the package's Record, when it holds anything, at the
// package clause of its first file.
func reportRecord(pass *analysis.Pass, rec Record) error {
	if rec.Inventory != nil && len(rec.Inventory.Uses) == 0 {
		rec.Inventory = nil
	}
	if (rec.Inventory == nil && rec.Coverage == nil) || len(pass.Files) == 0 {
		return nil
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	pass.Report(analysis.Diagnostic{Pos: pass.Files[0].Package, Category: CategoryRecord, Message: string(data)})
	return nil
}

// RelativeTo rewrites the inventory's positions relative to dir where they
// are below it, as the inventory file gives them.
func (inv *Inventory) RelativeTo(dir string) {
	rel := func(at string) string {
		if strings.HasPrefix(at, dir+string(os.PathSeparator)) {
			return at[len(dir)+1:]
		}
		return at
	}
	for i := range inv.Uses {
		u := &inv.Uses[i]
		u.At = rel(u.At)
		for j := range u.Keys {
			k := &u.Keys[j]
			k.At = rel(k.At)
			if name, at, ok := strings.Cut(k.Builder, " ("); ok {
				k.Builder = name + " (" + rel(at)
			}
		}
	}
}
