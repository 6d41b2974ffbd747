package eval

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// stores knows which package variables and struct fields a package only
// ever sets to one value, so that reading one is reading that value:
//
//	var auditLog = "audit:all"           // never assigned again
//	func NewRepo() *Repo { return &Repo{ns: "billing:"} } // the only write of ns
//
// Only what no other package can write is read this way: unexported
// variables (any variable of package main) and unexported fields of the
// package's own struct types. An exported one may be set by any importer,
// which this package's analysis cannot see. A zero value counts as a write
// of "": a variable never assigned reads as "", and a field of a struct the
// package allocates without setting it is not read at all. Zero values made
// in other ways (arrays, maps, slices of the struct, or another package's
// zero Repo) are not seen.
type stores struct {
	pkg      *types.Package
	embedded map[types.Object]string // string variables filled by //go:embed
	globals  map[*ssa.Global]*globalWrites
	fields   map[fieldRef]*fieldWrites
	known    map[fieldRef]fieldValue // a field's template, once evaluated
	// settings are the options read at their defaults that code out of
	// sight may set (see Setting), by the name messages give them.
	settings map[string]string
}

type globalWrites struct {
	values    []ssa.Value
	stores    []*ssa.Store // the stores of values, in order
	outside   bool         // written outside the package initializer, or its address taken
	addressed bool         // its address taken: anything may write it
}

// A fieldRef is one field of a named struct type of the package.
type fieldRef struct {
	typ   *types.Named
	index int
}

type fieldWrites struct {
	values  []ssa.Value
	stores  []*ssa.Store // the stores of values, in order
	unknown bool         // written in a way the index does not follow
}

type fieldValue struct {
	keys []keymodel.Key
	ok   bool
	met  []choice // what a world decides in the field's value
}

// indexStores records every write of the package's variables and fields.
func indexStores(pkg *ssa.Package, funcs []*ssa.Function, embedded map[types.Object]string) *stores {
	s := &stores{pkg: pkg.Pkg, embedded: embedded,
		globals: map[*ssa.Global]*globalWrites{}, fields: map[fieldRef]*fieldWrites{}, known: map[fieldRef]fieldValue{},
		settings: map[string]string{}}
	all := funcs
	if init := pkg.Func("init"); init != nil {
		all = append([]*ssa.Function{init}, all...)
		all = append(all, init.AnonFuncs...)
	}
	var operands []*ssa.Value
	for _, fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				operands = instr.Operands(operands[:0])
				for _, op := range operands {
					if g, ok := (*op).(*ssa.Global); ok && g.Pkg == pkg {
						s.globalUse(fn, instr, g)
					}
				}
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					s.fieldAddr(instr)
				case *ssa.Alloc:
					s.zeroUnlessSet(instr)
				case *ssa.Store:
					s.wholeStructStore(instr)
				}
			}
		}
	}
	return s
}

func (s *stores) globalUse(fn *ssa.Function, instr ssa.Instruction, g *ssa.Global) {
	w := s.globals[g]
	if w == nil {
		w = &globalWrites{}
		s.globals[g] = w
	}
	switch instr := instr.(type) {
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			return // a read
		}
	case *ssa.Store:
		if instr.Addr == g {
			w.values = append(w.values, instr.Val)
			w.stores = append(w.stores, instr)
			if fn.Synthetic != "package initializer" {
				w.outside = true
			}
			return
		}
	}
	w.outside, w.addressed = true, true // its address is passed on: anything may write it
}

// GlobalWrites is every store of the package into an unexported
// package variable (any variable of package main), wherever it does (the
// initializer, a sync.Once, a setter), when nothing else can write it: its
// address is never passed on. ok is false otherwise, and for a variable
// never written.
func (e *Evaluator) GlobalWrites(g *ssa.Global) (stores []*ssa.Store, ok bool) {
	obj, isVar := g.Object().(*types.Var)
	if !isVar || g.Pkg == nil || g.Pkg.Pkg != e.stores.pkg || obj.Exported() && obj.Pkg().Name() != "main" {
		return nil, false
	}
	w := e.stores.globals[g]
	if w == nil || w.addressed || len(w.stores) == 0 {
		return nil, false
	}
	return w.stores, true
}

// global returns the only value ever stored into an unexported string
// variable, nil if it is never assigned (it is ""). ok is false when the
// variable may hold anything else.
func (s *stores) global(g *ssa.Global) (ssa.Value, bool) {
	obj, ok := g.Object().(*types.Var)
	if !ok || !ssaread.IsString(obj.Type()) || (obj.Exported() && obj.Pkg().Name() != "main") {
		return nil, false
	}
	if _, embedded := s.embedded[obj]; embedded {
		return nil, false // set from a file by //go:embed, not ""
	}
	w := s.globals[g]
	if w == nil {
		return nil, true
	}
	if w.outside || len(w.values) > 1 {
		return nil, false
	}
	if len(w.values) == 0 {
		return nil, true
	}
	return w.values[0], true
}

// FieldWrites is every value the package stores into field i of its struct
// type t (or *t), when it sees them all: an unexported field of the
// package's own type, written only by plain stores, in every struct of the
// type the package makes. ok is false otherwise.
func (e *Evaluator) FieldWrites(t types.Type, i int) (values []ssa.Value, ok bool) {
	return e.fieldWrites(t, i, false)
}

// fieldWrites is FieldWrites, taking exported fields of package main too
// when inMain is set: nothing imports main, so it sees every write of a key
// name it keeps in one. (Clients stay as FieldWrites reads them: code
// that asks the server whether it is a cluster may hold either.)
func (e *Evaluator) fieldWrites(t types.Type, i int, inMain bool) (values []ssa.Value, ok bool) {
	ref, ok := e.stores.refOf(t, i)
	if !ok || ref.typ.Obj().Pkg() != e.stores.pkg || ref.typ.Underlying().(*types.Struct).Field(i).Exported() && !(inMain && e.stores.pkg.Name() == "main") {
		return nil, false
	}
	w := e.stores.fields[ref]
	if w == nil || w.unknown || len(w.values) == 0 {
		return nil, false
	}
	return w.values, true
}

// FieldStores is the stores of the values FieldWrites gives, in order: a
// reader that asks what was true where each was stored.
func (e *Evaluator) FieldStores(t types.Type, i int) ([]*ssa.Store, bool) {
	if _, ok := e.FieldWrites(t, i); !ok {
		return nil, false
	}
	ref, _ := e.stores.refOf(t, i)
	return e.stores.fields[ref].stores, true
}

// MadeBy follows a value to the call that made it: the value itself, or
// what the package initializer alone stores into the unexported package
// variable it is loaded from (a script made once, var s = NewScript(...)).
func (e *Evaluator) MadeBy(v ssa.Value) (*ssa.Call, *ssa.Function, bool) {
	if load, ok := v.(*ssa.UnOp); ok {
		if g, ok := load.X.(*ssa.Global); ok {
			v = e.stores.onlyInit(g)
		}
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, nil, false
	}
	fn := call.Call.StaticCallee()
	return call, fn, fn != nil
}

// onlyInit is the value the package initializer alone stores into an
// unexported package variable of any type, nil when others may write it.
func (s *stores) onlyInit(g *ssa.Global) ssa.Value {
	if obj, ok := g.Object().(*types.Var); !ok || obj.Exported() {
		return nil
	}
	return s.ownInit(g)
}

// ownInit is the one value the package stores into a package variable of
// its own, exported or not, nil when it stores several or its address
// leaves the package's plain stores: what other packages store is not
// counted.
func (s *stores) ownInit(g *ssa.Global) ssa.Value {
	w := s.globals[g]
	if w == nil || w.outside || len(w.values) != 1 {
		return nil
	}
	return w.values[0]
}

// refOf names field i of a struct type T or *T of this package.
func (s *stores) refOf(t types.Type, i int) (fieldRef, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return fieldRef{}, false
	}
	named = named.Origin()
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return fieldRef{}, false
	}
	return fieldRef{named, i}, true
}

func (s *stores) writes(ref fieldRef) *fieldWrites {
	w := s.fields[ref]
	if w == nil {
		w = &fieldWrites{}
		s.fields[ref] = w
	}
	return w
}

// fieldAddr records the writes through &x.f; any use other than a load or
// a store may write it.
func (s *stores) fieldAddr(fa *ssa.FieldAddr) {
	ref, ok := s.refOf(fa.X.Type(), fa.Field)
	if !ok {
		return
	}
	w := s.writes(ref)
	for _, use := range *fa.Referrers() {
		switch use := use.(type) {
		case *ssa.UnOp:
			if use.Op == token.MUL {
				continue
			}
		case *ssa.FieldAddr:
			if readOnly(use) {
				continue // a field of the struct field read: b.cfg.KeyPrefix
			}
		case *ssa.Store:
			if use.Addr == fa {
				w.values = append(w.values, use.Val)
				w.stores = append(w.stores, use)
				continue
			}
		}
		w.unknown = true
	}
}

// readOnly: the address of a field is only loaded from, directly or
// through the addresses of its own fields.
func readOnly(fa *ssa.FieldAddr) bool {
	for _, use := range *fa.Referrers() {
		switch use := use.(type) {
		case *ssa.UnOp:
			if use.Op != token.MUL {
				return false
			}
		case *ssa.FieldAddr:
			if !readOnly(use) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// zeroUnlessSet: a struct the package allocates (a literal, new, a local
// variable) holds "" in every field it does not set.
func (s *stores) zeroUnlessSet(alloc *ssa.Alloc) {
	ref, ok := s.refOf(alloc.Type(), 0)
	if !ok {
		return
	}
	st := ref.typ.Underlying().(*types.Struct)
	set := make([]bool, st.NumFields())
	for _, use := range *alloc.Referrers() {
		if store, ok := use.(*ssa.Store); ok && store.Addr == alloc {
			return // a copy of a whole struct (a value receiver spilled): see wholeStructStore
		}
	}
	for _, use := range *alloc.Referrers() {
		if fa, ok := use.(*ssa.FieldAddr); ok {
			for _, u := range *fa.Referrers() {
				if store, ok := u.(*ssa.Store); ok && store.Addr == fa {
					set[fa.Field] = true
				}
			}
		}
	}
	for i, ok := range set {
		if !ok && !nilOnly(st.Field(i).Type()) {
			s.writes(fieldRef{ref.typ, i}).unknown = true
		}
	}
}

// nilOnly: a zero value of type t is nil, which holds no client and no
// key: a struct made without such a field (new(Store) in a test's type
// check) adds nothing to what the field may hold.
func nilOnly(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Interface, *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return true
	}
	return false
}

// wholeStructStore: *p = v writes every field of v. A copy of a struct the
// package allocated, or of a parameter (a struct of the package's own type
// made elsewhere in it), is checked where it is made; any other value is
// unknown.
func (s *stores) wholeStructStore(st *ssa.Store) {
	ref, ok := s.refOf(st.Addr.Type(), 0)
	if !ok {
		return
	}
	if _, isPtr := st.Addr.Type().Underlying().(*types.Pointer); !isPtr {
		return
	}
	if _, ok := st.Val.Type().Underlying().(*types.Struct); !ok {
		return
	}
	if load, ok := st.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
		if _, ok := load.X.(*ssa.Alloc); ok {
			return
		}
	}
	if _, ok := st.Val.(*ssa.Parameter); ok {
		// A value receiver or parameter copied into a local: its fields
		// were written where the package made the struct.
		return
	}
	for i := range ref.typ.Underlying().(*types.Struct).NumFields() {
		s.writes(fieldRef{ref.typ, i}).unknown = true
	}
}

// fieldTemplate is what an unexported string field of the package's own
// struct type holds: the alternatives of the value the package stores into
// it, read where it is written (a constructor's parameter, a prefix it was
// given, a text built from them), or the texts of several writes. ok is
// false when the package does not see every write.
func (e *Evaluator) fieldTemplate(t types.Type, i int) ([]keymodel.Key, bool) {
	s := e.stores
	ref, ok := s.refOf(t, i)
	if !ok {
		return nil, false
	}
	if v, done := s.known[ref]; done {
		e.met = append(e.met, v.met...)
		return v.keys, v.ok
	}
	s.known[ref] = fieldValue{} // in progress: a field built from itself is unknown
	mark := len(e.met)
	v := e.evalField(ref)
	v.met = append([]choice(nil), e.met[mark:]...)
	s.known[ref] = v
	return v.keys, v.ok
}

func (e *Evaluator) evalField(ref fieldRef) fieldValue {
	f := ref.typ.Underlying().(*types.Struct).Field(ref.index)
	if !ssaread.IsString(f.Type()) {
		return fieldValue{}
	}
	values, ok := e.fieldWrites(ref.typ, ref.index, true)
	if !ok {
		return fieldValue{}
	}
	if len(values) > 1 {
		values = e.worldWrites(values, e.stores.fields[ref].stores)
	}
	var out []keymodel.Key
	for _, v := range values {
		out = append(out, e.Keys(v)...)
		if len(out) > keymodel.MaxAlternatives {
			return fieldValue{}
		}
	}
	if len(values) > 1 {
		// Several writes: the field holds one of them at a time, and two
		// keys that read it hold the same one. Alternatives compared pair
		// by pair would pair one write's with another's, so only known
		// texts are taken this way; anything else is one value.
		for _, k := range out {
			if _, known := k.Known(); !known {
				return fieldValue{}
			}
		}
	}
	return fieldValue{keys: out, ok: true}
}

// worldWrites is the writes of a field of several writes that the world
// keeps (see World): at the options' defaults, the writes that run then;
// for a writer, its own. What it picks among is recorded for the reader.
func (e *Evaluator) worldWrites(values []ssa.Value, stores []*ssa.Store) []ssa.Value {
	keep := func(pick func(st *ssa.Store) bool) {
		var vs []ssa.Value
		var ss []*ssa.Store
		for i, st := range stores {
			if pick(st) {
				vs, ss = append(vs, values[i]), append(ss, st)
			}
		}
		if len(vs) > 0 {
			values, stores = vs, ss
		}
	}
	for _, st := range stores {
		if !e.liveByDefault(st.Block()) {
			if option, ok := e.optionOf(st.Block()); ok {
				e.met = append(e.met, choice{option: option})
				if e.world.Defaults {
					keep(func(st *ssa.Store) bool { return e.liveByDefault(st.Block()) })
				}
			}
			break
		}
	}
	if writers := writersOf(resets(values, stores)); len(writers) > 1 {
		e.met = append(e.met, choice{writers: writers})
		if e.world.Writer != nil {
			keep(func(st *ssa.Store) bool { return st.Parent() == e.world.Writer })
		}
	}
	return values
}

// resets leaves out the stores of the zero value "" (a Close or Reset that
// clears a name): no command runs with it, so it makes no world.
func resets(values []ssa.Value, stores []*ssa.Store) []*ssa.Store {
	var out []*ssa.Store
	for i, st := range stores {
		if k, ok := values[i].(*ssa.Const); ok && (k.Value == nil || k.Value.Kind() == constant.String && constant.StringVal(k.Value) == "") {
			continue
		}
		out = append(out, st)
	}
	return out
}
