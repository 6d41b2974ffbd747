package reading

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Services laid out as ports and adapters call their store through an
// interface whose one implementation lives in a package they do not
// import; main wires them:
//
//	package service   // s.store.MoveItems(ctx, "cart:"+id, "order:"+id)
//	package redisstore // func (s *Store) MoveItems(ctx, src, dst string) error { return s.rdb.Rename(ctx, src, dst).Err() }
//	package main      // service.New(redisstore.New(rdb))
//
// No package's analysis sees both the call and the implementation but
// main's, and main's sees them only through facts. So a package exports, as
// a package fact, its calls through the module's interfaces whose
// implementation it does not see (pending calls), with their arguments as
// keys; and a main package, when the driver loads the whole program
// (Options.WholeProgram: the standalone command, golangci-lint), follows
// each to the one implementation it sees and judges the call there, as a
// call of a wrapper, reporting at the call in the other package. go vet
// analyzes each package in a process of its own, main's diagnostics are
// printed as main's, and every command would repeat them: it leaves such
// calls undecided, and its coverage report counts them (see Pending).

// pendingFacts are a package's pending calls.
type pendingFacts struct {
	Calls []factPendingCall
}

func (*pendingFacts) AFact() {}

func (f *pendingFacts) String() string {
	var out []string
	for _, c := range f.Calls {
		out = append(out, fmt.Sprintf("pending %s.%s at %s:%d", c.Type, c.Method, filepath.Base(c.At.File), c.At.Line))
	}
	return strings.Join(out, "; ")
}

type factPendingCall struct {
	Pkg, Type, Method string // the interface method
	At                factRange
	Args              []factPendingArg // by parameter, the receiver first
}

// A factPendingArg is one argument as keys: its value formatted by each
// verb a summary may apply (the value itself under ""), or, for a slice,
// its elements when the call fixes them.
type factPendingArg struct {
	At       factRange
	Verbs    []string
	Alts     []factKeyList // by verb
	Elems    []factPendingElem
	HasElems bool
}

type factPendingElem struct {
	At   factRange
	Alts factKeyList
}

// A factRange is a source range as file, line and column: a token.Pos means
// nothing in another package's analysis.
type factRange struct {
	File                       string
	Line, Col, EndLine, EndCol int
}

// pendingVerbs are the verbs an argument is recorded under: a key builder
// formats a string as itself or by %s and %v, an id by %d.
var pendingVerbs = []string{"", "%s", "%v", "%d"}

// maxPendingArgs bounds the arguments recorded for one call.
const maxPendingArgs = 12

// Pending is the number of the package's calls through the module's
// interfaces whose implementation the package does not see, which only a
// whole-program run decides.
func (r *Package) Pending() int { return len(r.pendingCalls()) }

// pendingCalls lists those calls (see Pending).
func (r *Package) pendingCalls() []*ssa.CallCommon {
	if !r.Options.Pending {
		return nil // nobody asked: go vet's default run
	}
	if r.program.pending != nil {
		return *r.program.pending
	}
	var out []*ssa.CallCommon
	for _, fn := range r.funcs {
		for call := range ssaread.CallsIn(fn) {
			common := call.Common()
			if r.isPending(common) {
				out = append(out, common)
			}
		}
	}
	r.program.pending = &out
	return out
}

// isPending reports a call through an interface of the module with a
// string or []string parameter, whose implementation neither the package
// nor the interface's package sees.
func (r *Package) isPending(common *ssa.CallCommon) bool {
	if !common.IsInvoke() || r.testOffCluster(common.Pos(), nil) {
		return false
	}
	m := common.Method
	if _, ok := r.impls.projectMethod(m); !ok || len(r.impls.implementing(m)) > 0 {
		return false
	}
	var f keyFacts
	if m.Pkg() != r.Pass.Pkg && r.Pass.ImportObjectFact(m, &f) {
		return false
	}
	params := m.Signature().Params()
	if params.Len()+1 > maxPendingArgs {
		return false
	}
	for i := range params.Len() {
		if isKeyType(params.At(i).Type()) {
			return true
		}
	}
	return false
}

func isKeyType(t types.Type) bool {
	if ssaread.IsString(t) {
		return true
	}
	sl, ok := t.Underlying().(*types.Slice)
	return ok && ssaread.IsString(sl.Elem())
}

// ExportPending exports the package's pending calls that keep says to
// (a directive at the call silences them).
func (r *Package) ExportPending(keep func(token.Pos) bool) {
	var f pendingFacts
	for _, common := range r.pendingCalls() {
		if keep(common.Pos()) {
			f.Calls = append(f.Calls, r.pendingFact(common))
		}
	}
	if len(f.Calls) > 0 {
		r.Pass.ExportPackageFact(&f)
	}
}

func (r *Package) pendingFact(common *ssa.CallCommon) factPendingCall {
	m := common.Method
	named, _ := r.impls.projectMethod(m)
	static := *common
	static.Method = nil
	static.Args = append([]ssa.Value{common.Value}, common.Args...)
	site := clients.NewSite(r.Eval, &static, m.Signature())
	ids := map[string]string{} // one numbering for the call: shared values stay shared
	c := factPendingCall{Pkg: named.Obj().Pkg().Path(), Type: named.Obj().Name(), Method: m.Name(), At: r.factRange(site.CallPos())}
	for j, v := range static.Args {
		arg := factPendingArg{At: r.factRange(site.ArgPos(j))}
		if j > 0 && mayHoldKey(v.Type()) {
			if _, slice := v.Type().Underlying().(*types.Slice); slice && isKeyType(v.Type()) {
				elems := site.InstantiateKey(keymodel.Arg{Spread: j + 1})
				arg.HasElems = len(elems) > 0 && elems[0].Spread == 0
				for _, e := range elems {
					if !arg.HasElems {
						break
					}
					arg.Elems = append(arg.Elems, factPendingElem{At: r.factRange(e.At), Alts: factKeys(callerValues(e.Alts), ids)})
				}
			} else {
				for _, verb := range pendingVerbs {
					if verb == "" && !ssaread.IsString(v.Type()) {
						continue
					}
					keys := site.InstantiateKey(keymodel.Arg{Alts: []keymodel.Key{{{Unknown: true, Param: j + 1, Verb: verb}}}})
					if len(keys) == 1 {
						arg.Verbs = append(arg.Verbs, verb)
						arg.Alts = append(arg.Alts, factKeys(callerValues(keys[0].Alts), ids))
					}
				}
			}
		}
		c.Args = append(c.Args, arg)
	}
	return c
}

// callerValues makes the parts of keys that are the calling function's
// parameters values of their own: the call is judged in another package,
// where nothing puts the caller's arguments in.
func callerValues(keys []keymodel.Key) []keymodel.Key {
	out := make([]keymodel.Key, len(keys))
	for i, k := range keys {
		out[i] = slices.Clone(k)
		for j, p := range out[i] {
			if p.Param > 0 && !p.Join && p.Elem == 0 {
				out[i][j] = keymodel.Part{Unknown: true, ID: fmt.Sprintf("param:%d:%s", p.Param, p.Verb), Show: p.Show, NoBrace: p.NoBrace, NonEmpty: p.NonEmpty, Braces: p.Braces}
			}
		}
	}
	return out
}

// mayHoldKey reports an argument a key may be made of: not the receiver's
// kind of value (a context, a client, a struct, a pointer), but a string,
// a number, a slice of strings.
func mayHoldKey(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Interface, *types.Pointer:
		return false
	}
	return true
}

func (r *Package) factRange(at keymodel.Range) factRange {
	p, e := r.Pass.Fset.Position(at.Pos), r.Pass.Fset.Position(at.End)
	return factRange{File: p.Filename, Line: p.Line, Col: p.Column, EndLine: e.Line, EndCol: e.Column}
}

// ResolvePending judges, in a main package of a whole-program run, the
// pending calls of the packages it imports: each call whose interface has
// one implementation here is judged as a call of that method's sinks.
func (r *Package) ResolvePending(v Visitor) {
	if !r.Options.WholeProgram || r.Pass.Pkg.Name() != "main" {
		return
	}
	for _, pf := range r.Pass.AllPackageFacts() {
		f, ok := pf.Fact.(*pendingFacts)
		if !ok {
			continue
		}
		for _, c := range f.Calls {
			r.resolve(c, v)
		}
	}
}

func (r *Package) resolve(c factPendingCall, v Visitor) {
	m := r.lookupMethod(c.Pkg, c.Type, c.Method)
	if m == nil {
		return
	}
	impl := r.impls.of(m)
	if impl == nil {
		return
	}
	s := r.summaryOfFunc(impl)
	if s == nil {
		return
	}
	via := r.CalleeName(impl) // the call runs it, as a wrapper
	for _, sk := range s.sinks {
		keys, ok := r.pendingKeys(sk, c)
		if !ok || len(keys) == 0 {
			continue
		}
		cmd := &Command{Method: sk.method, Keys: keys, Multi: true, Script: nil,
			Wrapper: &Wrapper{Name: via, Where: sk.where}}
		for _, k := range keys {
			if k.ViaCall {
				v.Key(cmd, k)
			}
		}
		v.Command(cmd)
	}
}

// lookupMethod finds an interface's method among the packages main sees.
func (r *Package) lookupMethod(path, typeName, method string) *types.Func {
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) *types.Package
	find = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			return p
		}
		for _, imp := range p.Imports() {
			if found := find(imp); found != nil {
				return found
			}
		}
		return nil
	}
	p := find(r.Pass.Pkg)
	if p == nil {
		return nil
	}
	tn, ok := p.Scope().Lookup(typeName).(*types.TypeName)
	if !ok {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), false, p, method)
	m, _ := obj.(*types.Func)
	return m
}

// pendingKeys puts a pending call's arguments into a sink's keys; ok is
// false when a key needs what the call did not record (a joined slice, a
// verb it was not recorded under).
func (r *Package) pendingKeys(sk sink, c factPendingCall) ([]keymodel.Arg, bool) {
	var out []keymodel.Arg
	call, ok := r.posOf(c.At)
	if !ok {
		return nil, false
	}
	for _, k := range sk.keys {
		if k.Spread > 0 {
			if k.Spread > len(c.Args) || !c.Args[k.Spread-1].HasElems {
				return nil, false
			}
			for _, e := range c.Args[k.Spread-1].Elems {
				at, ok := r.posOf(e.At)
				if !ok {
					return nil, false
				}
				out = append(out, keymodel.Arg{Alts: e.Alts.keys(), At: at, ViaCall: true})
			}
			continue
		}
		arg := keymodel.Arg{At: call}
		for _, alt := range k.Alts {
			alts, param, ok := substitute(alt, c)
			if !ok {
				return nil, false
			}
			if param > 0 && !arg.ViaCall {
				at, ok := r.posOf(c.Args[param-1].At)
				if !ok {
					return nil, false
				}
				arg.At, arg.ViaCall = at, true
			}
			arg.Alts = append(arg.Alts, alts...)
		}
		if len(arg.Alts) > keymodel.MaxAlternatives {
			return nil, false
		}
		out = append(out, arg)
	}
	return out, true
}

// substitute puts the call's recorded arguments into one alternative of a
// sink's key: the first parameter it puts in, 0 for none.
func substitute(alt keymodel.Key, c factPendingCall) ([]keymodel.Key, int, bool) {
	out := []keymodel.Key{{}}
	first := 0
	for _, p := range alt {
		var options []keymodel.Key
		switch {
		case p.Param > 0 && !p.Join && p.Elem == 0:
			if p.Param > len(c.Args) {
				return nil, 0, false
			}
			arg := c.Args[p.Param-1]
			found := false
			for i, verb := range arg.Verbs {
				if verb == p.Verb {
					options, found = arg.Alts[i].keys(), true
				}
			}
			if !found {
				return nil, 0, false
			}
			if first == 0 {
				first = p.Param
			}
		case p.Param > 0 || p.Elem > 0:
			return nil, 0, false
		case p.Of > 0:
			// a value the implementation's object holds, which main
			// made: unknown, one value for every key of the call
			options = []keymodel.Key{keymodel.UnknownKey(keymodel.Part{Unknown: true, ID: "pending-of:" + p.Sub, Show: p.Show})}
		default:
			options = []keymodel.Key{{p}}
		}
		out = keymodel.Product(out, options)
		if len(out) > keymodel.MaxAlternatives {
			return nil, 0, false
		}
	}
	return out, first, true
}

// posOf is a recorded range as a position of this analysis: the file is
// found among those the driver loaded, else read from disk and added.
func (r *Package) posOf(fr factRange) (keymodel.Range, bool) {
	tf := r.fileNamed(fr.File)
	if tf == nil || fr.Line < 1 || fr.Line > tf.LineCount() || fr.EndLine < 1 || fr.EndLine > tf.LineCount() {
		return keymodel.Range{}, false
	}
	pos := tf.LineStart(fr.Line) + token.Pos(fr.Col-1)
	end := tf.LineStart(fr.EndLine) + token.Pos(fr.EndCol-1)
	if int(pos) > tf.Base()+tf.Size() || int(end) > tf.Base()+tf.Size() {
		return keymodel.Range{}, false
	}
	return keymodel.Range{Pos: pos, End: end}, true
}

func (r *Package) fileNamed(name string) *token.File {
	if tf, ok := r.program.files[name]; ok {
		return tf
	}
	if r.program.files == nil {
		r.program.files = map[string]*token.File{}
	}
	content, err := os.ReadFile(name)
	if err != nil {
		r.program.files[name] = nil
		return nil
	}
	// The driver may have loaded the file, or made one of that name from
	// export data, whose lines are not the file's: trust only a file of
	// the same size.
	var found *token.File
	r.Pass.Fset.Iterate(func(f *token.File) bool {
		if f.Name() == name && f.Size() == len(content) {
			found = f
			return false
		}
		return true
	})
	if found == nil {
		found = r.Pass.Fset.AddFile(name, -1, len(content))
		found.SetLinesForContent(content)
	}
	r.program.files[name] = found
	return found
}
