package eval

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// A World is one way the code can be set up, for the values that depend on
// it: a key whose alternatives are picked by an option, or a field that
// two functions write, holds one alternative at a time, and the keys of one
// command hold the same one. Read together, every alternative of one key
// pairs with every alternative of the other, so a command whose tagged
// alternatives share a slot is never reported even when its untagged ones
// never do:
//
//	prefix := "dq:" + name
//	if opts.HashTags { prefix = "{dq:" + name + "}" }
//	q.pending, q.ready = prefix+":pending", prefix+":ready"
//
// Read in one world, the keys hold that world's alternative only.
type World struct {
	// Defaults: a branch on an option takes the way it takes when the
	// option is left unset: a bool field of the zero value (an options
	// struct's, or one the package only sets from such an option), or a
	// flag a loop over the options raises (false when no option is
	// given). Option names that mention a cluster say the other way is
	// the cluster's: such a branch is no option here.
	Defaults bool
	// Option is the option deciding the first branch seen, for messages.
	Option string
	// Writer: a field the package writes in several functions holds what
	// Writer writes (when it writes it at all).
	Writer *ssa.Function
	// Setting, with Defaults, names the option as a field other packages
	// may set ("example.com/svc/internal/tiers.Service.TaggedKeys", see
	// SettingOf); with Writer and no option, the other writers that code
	// out of sight may call (see callsOfOthers). "" when neither.
	Setting string
}

// Name says the world in a message: "when useHashTag is false, its
// default", "as NewQueue sets them".
func (w World) Name() string {
	var parts []string
	if w.Writer != nil {
		name := w.Writer.Name()
		if recv := w.Writer.Signature.Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); ok {
				name = n.Obj().Name() + "." + name
			}
		}
		parts = append(parts, "as "+name+" sets them")
	}
	if w.Defaults {
		parts = append(parts, "when "+w.Option+" is false, its default")
	}
	return strings.Join(parts, " and ")
}

// choice is one thing the evaluator met that a world decides: a branch on
// an option (option set) or a field of several writers (writers set).
type choice struct {
	option  string
	writers []*ssa.Function
}

// In is an evaluator that reads values in world w. It shares nothing that
// depends on the world: fields' templates are read again.
func (e *Evaluator) In(w World) *Evaluator {
	s := *e.stores
	s.known = map[fieldRef]fieldValue{}
	return &Evaluator{
		Source: e.Source, Info: e.Info, prog: e.prog, stores: &s, callees: e.callees, bindings: e.bindings, work: e.work,
		valueEnv: map[ssa.Value]ssa.Value{}, keyEnv: map[ssa.Value][]keymodel.Key{}, sliceEnv: map[ssa.Value][]Element{},
		world: w, defaults: e.defaults,
	}
}

// Mark is where the record of choices met stands: Worlds(mark) is the
// worlds of what was met since.
func (e *Evaluator) Mark() int { return len(e.met) }

// Worlds is the worlds that decide what the evaluator met since mark,
// none when nothing was: each function that writes a field of several
// writers (with options at their defaults, if an option was met too), or
// the defaults alone.
func (e *Evaluator) Worlds(mark int) []World {
	if mark > len(e.met) {
		return nil
	}
	var option string
	var writers []*ssa.Function
	seen := map[*ssa.Function]bool{}
	for _, c := range e.met[mark:] {
		if c.option != "" && option == "" {
			option = c.option
		}
		for _, w := range c.writers {
			if !seen[w] {
				seen[w] = true
				writers = append(writers, w)
			}
		}
	}
	if len(writers) > maxWorlds {
		writers = nil // too many ways: not judged one by one
	}
	setting := e.stores.settings[option]
	var out []World
	for _, w := range writers {
		s := setting
		if s == "" {
			s = callsOfOthers(writers, w)
		}
		out = append(out, World{Writer: w, Defaults: option != "", Option: option, Setting: s})
	}
	if len(out) == 0 && option != "" {
		out = append(out, World{Defaults: true, Option: option, Setting: setting})
	}
	return out
}

// maxWorlds bounds the writers a command is read again for.
const maxWorlds = 4

// optionEdges says which edges of a φ (not a loop's) are taken when the
// options are at their defaults, when an option decides between them: some
// are and some are not. The option is shown for messages.
func (e *Evaluator) optionEdges(phi *ssa.Phi) (live []bool, option string, ok bool) {
	d := e.defaultsOf(phi.Parent())
	live = make([]bool, len(phi.Edges))
	some, all := false, true
	for i, pred := range phi.Block().Preds {
		if i >= len(live) {
			break
		}
		live[i] = d.edges[[2]*ssa.BasicBlock{pred, phi.Block()}]
		some = some || live[i]
		all = all && live[i]
	}
	if !some || all {
		return nil, "", false
	}
	if option, ok := e.optionOf(phi.Block()); ok {
		return live, option, true
	}
	return nil, "", false
}

// optionOf is the option of the nearest branch on one above block b.
func (e *Evaluator) optionOf(b *ssa.BasicBlock) (string, bool) {
	d := e.defaultsOf(b.Parent())
	for b := b.Idom(); b != nil; b = b.Idom() {
		if name, ok := d.options[b]; ok {
			return name, true
		}
	}
	return "", false
}

// LiveByDefault reports whether a block runs when the options are at their
// defaults (see World.Defaults).
func (e *Evaluator) LiveByDefault(b *ssa.BasicBlock) bool { return e.liveByDefault(b) }

// OptionOf is the option of the nearest branch on one above block b.
func (e *Evaluator) OptionOf(b *ssa.BasicBlock) (string, bool) { return e.optionOf(b) }

func (e *Evaluator) liveByDefault(b *ssa.BasicBlock) bool {
	return e.defaultsOf(b.Parent()).blocks[b]
}

// defaultPaths are the blocks and edges of a function that run when the
// options are at their defaults, and the option each branch on one tests.
type defaultPaths struct {
	blocks  map[*ssa.BasicBlock]bool
	edges   map[[2]*ssa.BasicBlock]bool
	options map[*ssa.BasicBlock]string
}

func (e *Evaluator) defaultsOf(fn *ssa.Function) *defaultPaths {
	if d, ok := e.defaults[fn]; ok {
		return d
	}
	d := &defaultPaths{blocks: map[*ssa.BasicBlock]bool{}, edges: map[[2]*ssa.BasicBlock]bool{}, options: map[*ssa.BasicBlock]string{}}
	e.defaults[fn] = d
	if len(fn.Blocks) == 0 {
		return d
	}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	d.blocks[fn.Blocks[0]] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		succs := b.Succs
		if n := len(b.Instrs); n > 0 {
			if br, ok := b.Instrs[n-1].(*ssa.If); ok && len(b.Succs) == 2 {
				if val, option, ok := e.optionDefault(br.Cond, 0); ok {
					d.options[b] = option
					if val {
						succs = b.Succs[:1]
					} else {
						succs = b.Succs[1:]
					}
				}
			}
		}
		for _, s := range succs {
			d.edges[[2]*ssa.BasicBlock{b, s}] = true
			if !d.blocks[s] {
				d.blocks[s] = true
				work = append(work, s)
			}
		}
	}
	return d
}

// optionDefault is the value a condition has when the options it tests
// are left unset, and the option as shown: a bool field of the zero value,
// a loop's flag before the loop runs, their negations. ok is false for
// anything else, and for an option whose name mentions a cluster.
func (e *Evaluator) optionDefault(v ssa.Value, depth int) (val bool, option string, ok bool) {
	if depth > maxDepth {
		return false, "", false
	}
	depth++
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool {
			return constant.BoolVal(v.Value), "", true
		}
	case *ssa.UnOp:
		if v.Op == token.NOT {
			val, option, ok := e.optionDefault(v.X, depth)
			return !val, option, ok
		}
		if v.Op == token.MUL {
			if fa, isField := v.X.(*ssa.FieldAddr); isField {
				return e.fieldDefault(v, fa.X.Type(), fa.Field, depth)
			}
		}
	case *ssa.Field:
		return e.fieldDefault(v, v.X.Type(), v.Field, depth)
	case *ssa.Phi:
		if optionName(e.Show(v)) == "" {
			return false, "", false
		}
		// A flag a loop over the options raises: its value before the
		// loop, when no option is given. Elsewhere: the value every way in
		// agrees on.
		var vals []bool
		for i, edge := range v.Edges {
			pred := v.Block().Preds[i]
			if v.Block().Dominates(pred) {
				if e.givesOption(v.Block()) {
					return false, "", false // its own cluster path sets it: the default is the other's
				}
				continue // the loop's back edge
			}
			val, _, ok := e.optionDefault(edge, depth)
			if !ok {
				return false, "", false
			}
			vals = append(vals, val)
		}
		if len(vals) == 0 {
			return false, "", false
		}
		for _, x := range vals[1:] {
			if x != vals[0] {
				return false, "", false
			}
		}
		return vals[0], e.Show(v), true
	}
	return false, "", false
}

// fieldDefault is a bool field's value when its options are left unset:
// what the package stores into it, at their defaults, when it sees every
// write; false, the zero value, when it stores nothing (an options struct
// its users fill).
func (e *Evaluator) fieldDefault(read ssa.Value, t types.Type, index int, depth int) (bool, string, bool) {
	if !isBool(read.Type()) {
		return false, "", false
	}
	name := optionName(e.Show(read))
	if name == "" {
		return false, "", false
	}
	values, seen := e.FieldWrites(t, index)
	if !seen {
		if ref, ok := e.stores.refOf(t, index); ok && e.stores.fields[ref] != nil {
			for _, v := range e.stores.fields[ref].values {
				if val, _, ok := e.optionDefault(v, depth); !ok || val {
					return false, "", false // the package sets the option itself (its cluster path)
				}
			}
		}
		if key := SettingOf(t, index); key != "" {
			e.stores.settings[name] = key
		}
		return false, name, true
	}
	var first bool
	for i, v := range values {
		val, _, ok := e.optionDefault(v, depth)
		if !ok || i > 0 && val != first {
			return false, "", false
		}
		first = val
	}
	return first, name, true
}

// CallsSetting is how a Setting names functions the world needs left
// uncalled: "calls:" and their full names, separated by "|".
const CallsSetting = "calls:"

// callsOfOthers is the setting of writer w's world (see World.Setting):
// the world holds only while the program calls none of the other writers
// that code out of sight may call (an exported setter, q.SetPrefix(p));
// "" when there are none.
func callsOfOthers(writers []*ssa.Function, w *ssa.Function) string { return CallsOf(writers, w) }

// CallsOf is the setting that names the writers other than w (nil: all)
// that code out of sight may call: exported functions, and exported
// methods of exported types.
func CallsOf(writers []*ssa.Function, w *ssa.Function) string {
	var names []string
	for _, o := range writers {
		fn, ok := o.Object().(*types.Func)
		if o == w || !ok || o.Parent() != nil || !fn.Exported() {
			continue
		}
		if recv := fn.Signature().Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := types.Unalias(t).(*types.Named); !ok || !n.Obj().Exported() {
				continue
			}
		}
		names = append(names, fn.FullName())
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return CallsSetting + strings.Join(names, "|")
}

// SettingOf names field index of struct type t (or a pointer to it) as
// code in other packages sets it, "pkgpath.Type.Field", when they can: the
// type and the field are exported. "" otherwise.
func SettingOf(t types.Type, index int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || !named.Obj().Exported() || named.Obj().Pkg() == nil {
		return ""
	}
	st, ok := named.Origin().Underlying().(*types.Struct)
	if !ok || index < 0 || index >= st.NumFields() || !st.Field(index).Exported() {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + st.Field(index).Name()
}

// optionName is a condition's name for messages, "" when it names no
// option: unnamed, or one that says whether the client is a cluster's
// (its other way is the cluster's, not a choice of keys).
func optionName(shown string) string {
	if shown == "" || shown == "…" || strings.Contains(strings.ToLower(shown), "cluster") {
		return ""
	}
	return shown
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// writers are the functions of a field's stores.
func writersOf(stores []*ssa.Store) []*ssa.Function {
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	for _, st := range stores {
		if fn := st.Parent(); !seen[fn] {
			seen[fn] = true
			out = append(out, fn)
		}
	}
	return out
}

// givesOption reports whether the package itself gives an option that a
// loop over options starting at header reads (a type it asserts, case
// hashTagKeyOpt): outside the reader and its tests, the package makes that
// type (hashTagKeyOpt(1), forcedTags{}) in a function that is no option
// constructor (func UseHashTagKey() any, for its users), or in one that it
// calls itself — its own cluster constructor appends the option:
//
//	func NewQueueOnCluster(...) *Queue { return NewQueue0(name, rc, append(opts, UseHashTagKey())...) }
//
// Its default is then what the package gives its other clients, not what
// a cluster gets. (Read from the syntax: such constructors are not built.)
func (e *Evaluator) givesOption(header *ssa.BasicBlock) bool {
	reader := header.Parent()
	if reader.Prog == nil || reader.Syntax() == nil {
		return false
	}
	fset := reader.Prog.Fset
	outside := func(pos token.Pos) bool {
		return pos.IsValid() && !within(reader.Syntax(), pos) && !strings.HasSuffix(fset.Position(pos).Filename, "_test.go")
	}
	asserted := map[types.Type]bool{}
	for _, b := range reader.Blocks {
		if header.Dominates(b) {
			for _, instr := range b.Instrs {
				if ta, ok := instr.(*ssa.TypeAssert); ok {
					asserted[ta.AssertedType] = true
				}
			}
		}
	}
	for expr, tv := range e.Info.Types {
		if !asserted[tv.Type] || !tv.IsValue() || !outside(expr.Pos()) {
			continue
		}
		switch expr.(type) {
		case *ast.CompositeLit, *ast.CallExpr:
		default:
			continue
		}
		maker := e.enclosingFunc(expr.Pos())
		if maker == nil || !optionConstructor(maker.Signature()) {
			return true
		}
		for id, obj := range e.Info.Uses {
			if obj == maker && outside(id.Pos()) && !within(maker.Scope(), id.Pos()) {
				return true
			}
		}
	}
	return false
}

// enclosingFunc is the package's function declared around pos.
func (e *Evaluator) enclosingFunc(pos token.Pos) *types.Func {
	for _, obj := range e.Info.Defs {
		if fn, ok := obj.(*types.Func); ok && fn.Scope() != nil && within(fn.Scope(), pos) {
			return fn
		}
	}
	return nil
}

func within(n interface {
	Pos() token.Pos
	End() token.Pos
}, pos token.Pos) bool {
	return n.Pos() <= pos && pos < n.End()
}

// optionConstructor: a function of no parameters that returns an option
// as an interface.
func optionConstructor(sig *types.Signature) bool {
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	_, isInterface := sig.Results().At(0).Type().Underlying().(*types.Interface)
	return isInterface
}
