package reading

import (
	"fmt"
	"go/build"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
)

// A service's packages are given their client by whoever wires them,
// usually main:
//
//	package searchcache // func New(rdb redis.Cmdable) *Cache; c.rdb.TxPipelined(...)
//	package main        // searchcache.New(redis.NewClient(&redis.Options{...}))
//
// The package that sends the commands cannot tell a cluster client from a
// single server's: only the wiring can. So a finding on a client that may
// be either, whose every origin is a parameter of a function the package
// exports (a constructor, a setter), is not reported there: it is deferred
// to that function and exported with it as a fact. A package that calls
// the function judges it with the argument it passes: dropped when the
// argument talks to one server, deferred again when the argument is a
// parameter of a function it exports in turn, and otherwise reported, at
// the command, with the wiring call as a related position. Only packages
// under an internal directory defer, since only their own module can call
// them: a library's exported constructor is called by code nobody here
// sees, so its findings stay where the command is.

// A Wiring is where a client comes from when every origin of it is a
// parameter of a function the package exports: the functions and their
// parameters. Nil: the client is decided here, or cannot be deferred.
type Wiring []WiredParam

// A WiredParam is parameter Param (1-based, the receiver first) of Func.
type WiredParam struct {
	Func  *types.Func
	Param int
}

// wiredFacts are the findings deferred to an exported function, by its
// parameter: an object fact on the function.
type wiredFacts struct {
	Findings []factWiredFinding
}

func (*wiredFacts) AFact() {}

func (f *wiredFacts) String() string {
	var out []string
	for _, w := range f.Findings {
		out = append(out, fmt.Sprintf("p%d decides %s at %s:%d", w.Param, w.Diag.Category, filepath.Base(w.Diag.At.File), w.Diag.At.Line))
	}
	return strings.Join(out, "; ")
}

type factWiredFinding struct {
	// Param is the parameter that gives the client, 0 when the client is
	// decided where the command is.
	Param int
	// Tagless are the parameters that give the keys' leading values (a
	// prefix field), which the finding needs to hold no hash tag: it is
	// reported where every one is given as text without a brace.
	Tagless []int
	// TaglessPaths, beside Tagless, are the fields of those parameters
	// that give the values (".f0": the parameter's first field), "" for
	// the parameter itself.
	TaglessPaths []string
	// Database: the values at Tagless are instead the database the
	// finding needs (a constructor's db): it is reported where every one
	// is given as a constant other than 0 that the target's cluster does
	// not have.
	Database bool
	// Setting, when set, names an option the finding also needs at its
	// default (see factSettingFinding).
	Setting string
	Diag    factDiagnostic
}

// settingFacts are a package's findings that hold while an option that
// code out of sight may set stays at its default, for a main package to
// judge, and the options the package sets ("pkgpath.Type.Field", see
// eval.SettingOf) to anything but false.
type settingFacts struct {
	Findings []factSettingFinding
	Sets     []string
}

func (*settingFacts) AFact() {}

func (f *settingFacts) String() string {
	var out []string
	for _, s := range f.Findings {
		out = append(out, fmt.Sprintf("%s at its default decides %s at %s:%d", s.Setting, s.Diag.Category, filepath.Base(s.Diag.At.File), s.Diag.At.Line))
	}
	for _, s := range f.Sets {
		out = append(out, "sets "+s)
	}
	return strings.Join(out, "; ")
}

// A factSettingFinding is a finding that holds while option Setting stays
// at its default.
type factSettingFinding struct {
	Setting string
	Diag    factDiagnostic
}

// A factDiagnostic is a diagnostic with its positions as file, line and
// column, for another package's analysis to report.
type factDiagnostic struct {
	Category, Message string
	At                factRange
	Related           []factRelated
	Fixes             []factFix
}

type factRelated struct {
	At      factRange
	Message string
}

type factFix struct {
	Message string
	Edits   []factEdit
}

type factEdit struct {
	At      factRange
	NewText []byte
}

// wiringReading is what the package defers and what it resolved.
type wiringReading struct {
	// deferred are the findings deferred to the package's own functions.
	deferred map[*types.Func][]factWiredFinding
	// onSettings are the findings held back for a main package to judge
	// by the options the program sets.
	onSettings []factSettingFinding
	// reported are the findings reported here for other packages (or for
	// this one's deferred ones), against repeats.
	reported map[string]bool
	// sets: the options the package and its imports set (programSets).
	sets map[string]bool
	// defers: whether the package defers (defersWiring), once asked.
	defers *bool
	// tagless are the settings of TaglessSetting, by token; params the
	// parameters of the package's exported functions, by id.
	tagless map[string]taglessSetting
	params  map[string]WiredParam
	// copies are the local variables that hold a copy of such a parameter
	// (a constructor that sets another field of its opts), by id.
	copies map[string]*ssa.Alloc
}

// defersSettingsOf: t (or what it points to) is a named type of another
// package that may defer its findings on options (see defersWiring): one
// under an internal directory, or of this package's module. A write of its
// fields here matters to it.
func (r *Package) defersSettingsOf(t types.Type) bool {
	here := r.Pass.Pkg
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg() == here || named.Obj().Pkg().Name() == "main" {
		return false
	}
	return r.defersSettingsOfPkg(named.Obj().Pkg())
}

// defersSettingsOfPkg: another package than this one that may defer its
// findings on options: one under an internal directory, or of this
// package's module, and not a main package.
func (r *Package) defersSettingsOfPkg(p *types.Package) bool {
	if p == nil || p == r.Pass.Pkg || p.Name() == "main" {
		return false
	}
	path := p.Path()
	if m := r.Pass.Module; m != nil && m.Path != "" && (path == m.Path || strings.HasPrefix(path, m.Path+"/")) {
		return true
	}
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// defersWiring: the package's module wires it, so its findings can wait
// for the wiring: it is under an internal directory (only its own module
// calls it), or a main package of its module imports it (see
// wiredByModuleMain). A main package's functions nobody calls.
func (r *Package) defersWiring() bool {
	if r.wiring.defers == nil {
		d := r.Pass.Pkg.Name() != "main" &&
			(slices.Contains(strings.Split(r.Pass.Pkg.Path(), "/"), "internal") || r.wiredByModuleMain())
		r.wiring.defers = &d
	}
	return *r.wiring.defers
}

// wiredByModuleMain: the package is of the module being analyzed (not a
// dependency), and a main package of the module (its root, or under cmd/)
// imports it, directly or through one package of the module: a service
// whose main wires what it gives its packages. A library's packages, which
// no main of its own imports, keep their findings where their commands are.
func (r *Package) wiredByModuleMain() bool {
	m := r.Pass.Module
	if m == nil || m.Version != "" || m.Path == "" || len(r.Pass.Files) == 0 {
		return false
	}
	root := moduleRoot(r.Pass.Fset.File(r.Pass.Files[0].Pos()).Name(), m.Path)
	if root == "" {
		return false
	}
	return mainImports(root, m.Path)[r.Pass.Pkg.Path()]
}

// mainImportsCache holds mainImports by module root, for drivers that
// analyze many packages in one process.
var mainImportsCache sync.Map

// mainImports are the packages the module's main packages (its root's, and
// those under cmd/, two levels down) import, and those that the module's
// packages they import import in turn.
func mainImports(root, modPath string) map[string]bool {
	if v, ok := mainImportsCache.Load(root); ok {
		return v.(map[string]bool)
	}
	out := map[string]bool{}
	dirs := []string{root}
	for _, pattern := range []string{"cmd/*", "cmd/*/*"} {
		found, _ := filepath.Glob(filepath.Join(root, pattern))
		dirs = append(dirs, found...)
	}
	var next []string
	for _, dir := range dirs {
		name, imports := dirImports(dir)
		if name != "main" {
			continue
		}
		for _, imp := range imports {
			if (imp == modPath || strings.HasPrefix(imp, modPath+"/")) && !out[imp] {
				out[imp] = true
				next = append(next, imp)
			}
		}
	}
	for _, imp := range next {
		_, imports := dirImports(filepath.Join(root, strings.TrimPrefix(strings.TrimPrefix(imp, modPath), "/")))
		for _, i := range imports {
			if i == modPath || strings.HasPrefix(i, modPath+"/") {
				out[i] = true
			}
		}
	}
	mainImportsCache.Store(root, out)
	return out
}

// maxScannedFiles bounds the files dirImports reads in one directory.
const maxScannedFiles = 200

// dirImports reads the package name and imports of a directory's Go files
// that a plain build compiles (not its tests, nor files for build tags),
// from their import clauses alone.
func dirImports(dir string) (name string, imports []string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) > maxScannedFiles {
		files = files[:maxScannedFiles]
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if match, err := build.Default.MatchFile(dir, filepath.Base(f)); err != nil || !match {
			continue // built only with tags (a //go:build verify tool): not the program
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		if name == "" {
			name = file.Name.Name
		}
		for _, imp := range file.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && !slices.Contains(imports, p) {
				imports = append(imports, p)
			}
		}
	}
	return name, imports
}

// moduleRoot is the directory of the go.mod of module modPath above file,
// "" when none is found.
func moduleRoot(file, modPath string) string {
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if modfile.ModulePath(data) == modPath {
				return dir
			}
			return ""
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

// WiringOf is where the client value v comes from, when the wiring decides
// it: the package defers, v may be a cluster's client or one server's, and
// every origin of v is a parameter of a function the package exports. At
// the instruction at, where a type check ruled a cluster client in, the
// code has decided: no wiring.
func (r *Package) WiringOf(at ssa.Instruction, v ssa.Value) Wiring {
	if v == nil || !r.defersWiring() || r.topo.IsAt(at, v, topology.Cluster) || r.topo.Is(v, topology.OneServer) {
		return nil
	}
	var out Wiring
	ok := r.topo.AllOrigins(v, 0, func(o ssa.Value, _ int) bool {
		p, ok := o.(*ssa.Parameter)
		if !ok {
			return false
		}
		fn := p.Parent()
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || !obj.Exported() || !exportedReceiver(obj) {
			return false
		}
		w := WiredParam{Func: obj, Param: ssaread.ParamIndex(p)}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
		return true
	}, nil)
	if !ok {
		return nil
	}
	return out
}

// exportedReceiver: fn is a function, or a method of an exported type,
// which other packages can call.
func exportedReceiver(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Exported()
}

// Defer holds d back when the wiring decides it: its client comes from
// w, or it holds while option setting stays at its default (see
// eval.World.Setting), or unless leading values its constructor is given
// hold a tag (a setting of TaglessSetting's), and the package defers. It
// reports whether it did.
func (r *Package) Defer(w Wiring, setting string, d analysis.Diagnostic) bool {
	if t, ok := r.wiring.tagless[setting]; ok {
		sameFunc := len(w) <= 1
		for _, p := range w {
			sameFunc = sameFunc && p.Func == t.fn
		}
		if sameFunc {
			client := 0
			if len(w) == 1 {
				client = w[0].Param
			}
			r.deferOn(t.fn, factWiredFinding{Param: client, Tagless: t.params, TaglessPaths: t.paths, Database: t.database, Diag: r.factDiagnostic(d)})
			return true
		}
		setting = "" // the client and the values are wired apart: judged as it reads
	}
	if !r.defersWiring() {
		return false
	}
	switch {
	case w != nil:
		r.deferFact(w, setting, nil, r.factDiagnostic(d))
	case setting != "":
		r.deferSetting(setting, r.factDiagnostic(d))
	default:
		return false
	}
	return true
}

func (r *Package) deferFact(w Wiring, setting string, tagless []int, fd factDiagnostic) {
	for _, p := range w {
		r.deferOn(p.Func, factWiredFinding{Param: p.Param, Tagless: tagless, Setting: setting, Diag: fd})
	}
}

// deferOn defers f to fn, once.
func (r *Package) deferOn(fn *types.Func, f factWiredFinding) {
	if r.wiring.deferred == nil {
		r.wiring.deferred = map[*types.Func][]factWiredFinding{}
	}
	if !slices.ContainsFunc(r.wiring.deferred[fn], func(g factWiredFinding) bool {
		return g.Param == f.Param && slices.Equal(g.Tagless, f.Tagless) && slices.Equal(g.TaglessPaths, f.TaglessPaths) && g.Database == f.Database && g.Diag.At == f.Diag.At && g.Diag.Category == f.Diag.Category && g.Diag.Message == f.Diag.Message
	}) {
		r.wiring.deferred[fn] = append(r.wiring.deferred[fn], f)
	}
}

// A taglessSetting is what a finding that holds unless its keys' leading
// values hold a tag waits on (see TaglessSetting): parameters of one
// function those values come from.
type taglessSetting struct {
	fn     *types.Func
	params []int
	paths  []string
	// database: the values are a database, not keys' leading values (see
	// DatabaseSetting).
	database bool
}

// DatabaseSetting is the setting (see Defer) a finding on a database the
// code does not fix (SELECT q.db, a dial option's o.DB) needs when that
// database is a field the package fills only from a parameter of one
// function it exports (a constructor's db, a field of its options): the
// wiring says whether it is other than 0. "" when it is not, or the
// package does not defer.
func (r *Package) DatabaseSetting(db ssa.Value) string {
	if db == nil || !r.defersWiring() {
		return ""
	}
	wired, path, ok := r.wiredValue(db)
	if !ok {
		return ""
	}
	token := fmt.Sprintf("database:%s[%d]%q", wired.Func.FullName(), wired.Param, path)
	if r.wiring.tagless == nil {
		r.wiring.tagless = map[string]taglessSetting{}
	}
	r.wiring.tagless[token] = taglessSetting{fn: wired.Func, params: []int{wired.Param}, paths: []string{path}, database: true}
	return token
}

// TaglessSetting is the setting (see Defer) a finding on keys needs when
// it holds unless their leading values hold a tag ("<k.prefix>:stock:<r>"),
// and those are fields the package fills only from parameters of one
// function it exports (a constructor's prefix): the wiring says whether
// they hold a tag. "" when they are not, or the package does not defer.
func (r *Package) TaglessSetting(fn *ssa.Function, keys []keymodel.Arg) string {
	if !r.defersWiring() {
		return ""
	}
	var wired *types.Func
	var params []int
	var paths []string
	for _, k := range keys {
		for _, alt := range k.Alts {
			w, path, ok := r.wiredLeading(fn, alt)
			if !ok {
				continue
			}
			if wired != nil && w.Func != wired {
				return ""
			}
			wired = w.Func
			if !slices.ContainsFunc(params, func(p int) bool { return p == w.Param && paths[slices.Index(params, p)] == path }) {
				params, paths = append(params, w.Param), append(paths, path)
			}
		}
	}
	if wired == nil {
		return ""
	}
	token := fmt.Sprintf("tagless:%s%v%q", wired.FullName(), params, paths)
	if r.wiring.tagless == nil {
		r.wiring.tagless = map[string]taglessSetting{}
	}
	r.wiring.tagless[token] = taglessSetting{fn: wired, params: params, paths: paths}
	return token
}

// SetterSetting is the setting (see Defer) a finding on keys needs when it
// holds unless their leading value holds a tag, and that value is a field
// of one of fn's parameters that a setter code out of sight may call also
// writes with its own parameter (q.SetPrefix(p) beside NewQuota's
// "quota:"): the program's calls of the setter say. "" when there is none,
// or the package does not defer.
func (r *Package) SetterSetting(fn *ssa.Function, keys []keymodel.Arg) string {
	if fn == nil || !r.defersWiring() {
		return ""
	}
	for _, k := range keys {
		for _, alt := range k.Alts {
			p := alt[0]
			if len(alt) < 2 || !p.Unknown || p.Of < 1 || p.Of > len(fn.Params) || !strings.HasPrefix(p.Sub, ".f") {
				continue
			}
			field, err := strconv.Atoi(strings.TrimPrefix(p.Sub, ".f"))
			if err != nil {
				continue
			}
			stores, ok := r.Eval.FieldStores(fn.Params[p.Of-1].Type(), field)
			if !ok {
				continue
			}
			var setters []*ssa.Function
			for _, st := range stores {
				if _, fromParam := st.Val.(*ssa.Parameter); fromParam && !slices.Contains(setters, st.Parent()) {
					setters = append(setters, st.Parent())
				}
			}
			if s := eval.CallsOf(setters, nil); s != "" {
				return s
			}
		}
	}
	return ""
}

// wiredValue is the parameter of an exported function whose argument, or
// a field of it (path ".f1"), v is: the parameter itself (not a
// receiver), a field of a struct or pointer parameter, or a field of the
// package's own struct that the package fills only from one such
// parameter (q.db with NewQuarantine(c, db), a.opts.DB with
// NewArchive(c, opts)).
func (r *Package) wiredValue(v ssa.Value) (WiredParam, string, bool) {
	v = unconverted(v)
	param := func(x ssa.Value, path string) (WiredParam, string, bool) {
		p, ok := unconverted(x).(*ssa.Parameter)
		if !ok || isReceiver(p) {
			return WiredParam{}, "", false
		}
		w, ok := r.exportedParams()[r.Eval.ID(p)]
		return w, path, ok
	}
	// storedFrom: every store of the field stores one parameter
	storedFrom := func(stores []*ssa.Store, path string) (WiredParam, string, bool) {
		var w WiredParam
		for _, st := range stores {
			got, _, ok := param(st.Val, "")
			if !ok || w.Func != nil && got != w {
				return WiredParam{}, "", false
			}
			w = got
		}
		return w, path, w.Func != nil
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return param(x, "")
	case *ssa.Field:
		return param(x.X, fmt.Sprintf(".f%d", x.Field))
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if x.Op != token.MUL || !ok {
			break
		}
		if stores, ok := r.Eval.FieldStores(fa.X.Type(), fa.Field); ok && len(stores) > 0 {
			return storedFrom(stores, "")
		}
		if outer, ok := fa.X.(*ssa.FieldAddr); ok {
			if stores, ok := r.Eval.FieldStores(outer.X.Type(), outer.Field); ok && len(stores) > 0 {
				return storedFrom(stores, fmt.Sprintf(".f%d", fa.Field))
			}
			break
		}
		if alloc, ok := fa.X.(*ssa.Alloc); ok {
			// a struct parameter kept in a local: the constructor's own
			// write of the field is not the parameter's
			if w, ok := r.exportedParams()[r.Eval.ID(alloc)]; ok && len(ssaread.FieldStores(alloc, fa.Field)) == 0 {
				return w, fmt.Sprintf(".f%d", fa.Field), true
			}
			break
		}
		if _, isPtr := fa.X.Type().Underlying().(*types.Pointer); isPtr {
			return param(fa.X, fmt.Sprintf(".f%d", fa.Field))
		}
	}
	return WiredParam{}, "", false
}

// unconverted is v without the conversions around it (int64(db), any(db)).
func unconverted(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		default:
			return v
		}
	}
}

// isReceiver: p is its method's receiver.
func isReceiver(p *ssa.Parameter) bool {
	fn := p.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}

// wiredLeading is the parameter of an exported function that the leading
// value of key k comes from: a field the package fills only from it (see
// eval's field templates, whose parts name the parameter they were made
// from).
func (r *Package) wiredLeading(fn *ssa.Function, k keymodel.Key) (WiredParam, string, bool) {
	if len(k) < 2 || k[0].NoBrace {
		return WiredParam{}, "", false
	}
	return r.wiredPart(fn, k[0])
}

// wiredPart is the parameter of an exported function that the value of
// part p comes from (see wiredLeading).
func (r *Package) wiredPart(fn *ssa.Function, p keymodel.Part) (WiredParam, string, bool) {
	if !p.Unknown {
		return WiredParam{}, "", false
	}
	if in, id, ok := strings.Cut(p.Sub, "|"); ok {
		if in != "" || strings.Contains(id, "|") {
			return WiredParam{}, "", false
		}
		if w, ok := r.exportedParams()[id]; ok {
			return w, "", true
		}
		// a field of the parameter: a constructor's opts.Namespace
		var field int
		if i := strings.LastIndex(id, ".f"); i > 0 {
			if n, err := fmt.Sscanf(id[i:], ".f%d", &field); n == 1 && err == nil && id[i:] == fmt.Sprintf(".f%d", field) {
				w, ok := r.exportedParams()[id[:i]]
				if alloc := r.wiring.copies[id[:i]]; alloc != nil && len(ssaread.FieldStores(alloc, field)) > 0 {
					// the constructor writes the option itself: not the parameter's alone
					return WiredParam{}, "", false
				}
				return w, id[i:], ok
			}
		}
		return WiredParam{}, "", false
	}
	// A field of a struct field the package fills from one parameter of an
	// exported function: b.cfg.KeyPrefix, with NewBoards(rdb, cfg).
	var outer, inner int
	if fn == nil || p.Of < 1 || p.Of > len(fn.Params) {
		return WiredParam{}, "", false
	}
	if n, err := fmt.Sscanf(p.Sub, ".f%d.f%d", &outer, &inner); n != 2 || err != nil || p.Sub != fmt.Sprintf(".f%d.f%d", outer, inner) {
		return WiredParam{}, "", false
	}
	stores, ok := r.Eval.FieldStores(fn.Params[p.Of-1].Type(), outer)
	if !ok || len(stores) == 0 {
		return WiredParam{}, "", false
	}
	var w WiredParam
	for _, st := range stores {
		param, ok := st.Val.(*ssa.Parameter)
		if !ok {
			return WiredParam{}, "", false
		}
		got, ok := r.exportedParams()[r.Eval.ID(param)]
		if !ok || w.Func != nil && got != w {
			return WiredParam{}, "", false
		}
		w = got
	}
	return w, fmt.Sprintf(".f%d", inner), true
}

// exportedParams are the parameters of the package's exported functions,
// by id.
func (r *Package) exportedParams() map[string]WiredParam {
	if r.wiring.params == nil {
		r.wiring.params = map[string]WiredParam{}
		for _, fn := range r.funcs {
			obj, ok := fn.Object().(*types.Func)
			if !ok || fn.Parent() != nil || !obj.Exported() || !exportedReceiver(obj) {
				continue
			}
			for i, p := range fn.Params {
				w := WiredParam{Func: obj, Param: i + 1}
				r.wiring.params[r.Eval.ID(p)] = w
				for _, ref := range *p.Referrers() {
					// opts.TTL = d in the constructor: SSA keeps opts in a
					// local variable, a copy of the parameter
					if st, ok := ref.(*ssa.Store); ok && st.Val == p {
						if alloc, ok := st.Addr.(*ssa.Alloc); ok {
							id := r.Eval.ID(alloc)
							r.wiring.params[id] = w
							if r.wiring.copies == nil {
								r.wiring.copies = map[string]*ssa.Alloc{}
							}
							r.wiring.copies[id] = alloc
						}
					}
				}
			}
		}
	}
	return r.wiring.params
}

// deferSetting holds back, for a main package to judge, a finding that
// holds while an option stays at its default.
func (r *Package) deferSetting(setting string, fd factDiagnostic) {
	if !slices.ContainsFunc(r.wiring.onSettings, func(g factSettingFinding) bool {
		return g.Setting == setting && g.Diag.At == fd.At && g.Diag.Category == fd.Category && g.Diag.Message == fd.Message
	}) {
		r.wiring.onSettings = append(r.wiring.onSettings, factSettingFinding{Setting: setting, Diag: fd})
	}
}

func (r *Package) factDiagnostic(d analysis.Diagnostic) factDiagnostic {
	rangeOf := func(pos, end token.Pos) factRange {
		if !pos.IsValid() {
			return factRange{}
		}
		if !end.IsValid() {
			end = pos
		}
		p, e := r.Pass.Fset.Position(pos), r.Pass.Fset.Position(end)
		return factRange{File: p.Filename, Line: p.Line, Col: p.Column, EndLine: e.Line, EndCol: e.Column}
	}
	out := factDiagnostic{Category: d.Category, Message: d.Message, At: rangeOf(d.Pos, d.End)}
	for _, rel := range d.Related {
		out.Related = append(out.Related, factRelated{At: rangeOf(rel.Pos, rel.End), Message: rel.Message})
	}
	for _, fix := range d.SuggestedFixes {
		ff := factFix{Message: fix.Message}
		for _, e := range fix.TextEdits {
			ff.Edits = append(ff.Edits, factEdit{At: rangeOf(e.Pos, e.End), NewText: e.NewText})
		}
		out.Fixes = append(out.Fixes, ff)
	}
	return out
}

// diagnostic is fd as a diagnostic of this analysis; ok is false when a
// position cannot be found (the file changed since).
func (r *Package) diagnostic(fd factDiagnostic) (analysis.Diagnostic, bool) {
	at, ok := r.posOf(fd.At)
	if !ok {
		return analysis.Diagnostic{}, false
	}
	d := analysis.Diagnostic{Pos: at.Pos, End: at.End, Category: fd.Category, Message: fd.Message}
	for _, rel := range fd.Related {
		rat, ok := r.posOf(rel.At)
		if !ok && rel.At != (factRange{}) {
			return analysis.Diagnostic{}, false
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: rat.Pos, End: rat.End, Message: rel.Message})
	}
	for _, fix := range fd.Fixes {
		sf := analysis.SuggestedFix{Message: fix.Message}
		for _, e := range fix.Edits {
			eat, ok := r.posOf(e.At)
			if !ok {
				return analysis.Diagnostic{}, false
			}
			sf.TextEdits = append(sf.TextEdits, analysis.TextEdit{Pos: eat.Pos, End: eat.End, NewText: e.NewText})
		}
		d.SuggestedFixes = append(d.SuggestedFixes, sf)
	}
	return d, true
}

// wiredFindings are the findings deferred to fn, by this package or, as a
// fact, by fn's.
func (r *Package) wiredFindings(fn *types.Func) []factWiredFinding {
	if fn.Pkg() == r.Pass.Pkg {
		return r.wiring.deferred[fn]
	}
	var f wiredFacts
	if !r.Pass.ImportObjectFact(fn.Origin(), &f) {
		return nil
	}
	return f.Findings
}

// ResolveWiring judges the deferred findings at the package's calls of
// the functions they were deferred to (other packages', then its own, as
// long as judging defers more), reporting with report those whose client
// the call decides may be a cluster's; then it exports what stays
// deferred, on the package's own functions.
func (r *Package) ResolveWiring(report func(analysis.Diagnostic)) {
	judged := map[*types.Func]int{} // how many of an own function's findings were judged
	for round := 0; ; round++ {
		more := false
		for _, fn := range r.funcs {
			for call := range ssaread.CallsIn(fn) {
				common := call.Common()
				callee := common.StaticCallee()
				if callee == nil {
					continue
				}
				obj, ok := callee.Object().(*types.Func)
				if !ok {
					continue
				}
				from := 0
				switch {
				case obj.Pkg() == r.Pass.Pkg:
					from = judged[obj]
				case round > 0:
					continue
				}
				findings := r.wiredFindings(obj)
				if from >= len(findings) {
					continue
				}
				for _, f := range findings[from:] {
					r.judgeWired(call, common, f, report)
				}
			}
		}
		for obj, findings := range r.wiring.deferred {
			if judged[obj] != len(findings) {
				judged[obj] = len(findings)
				more = true
			}
		}
		if !more {
			break
		}
	}
	for obj, findings := range r.wiring.deferred {
		r.Pass.ExportObjectFact(obj, &wiredFacts{Findings: findings})
	}
	r.ResolveSettings(report)
}

// judgeWired judges one deferred finding at one call of its function.
func (r *Package) judgeWired(call ssa.CallInstruction, common *ssa.CallCommon, f factWiredFinding, report func(analysis.Diagnostic)) {
	if f.Param > len(common.Args) {
		return
	}
	var texts []string
	for i, t := range f.Tagless {
		if t < 1 || t > len(common.Args) {
			return
		}
		v := common.Args[t-1]
		if i < len(f.TaglessPaths) && f.TaglessPaths[i] != "" {
			if v = literalField(v, f.TaglessPaths[i]); v == nil {
				return // a struct not made here: its field is not known
			}
		}
		if f.Database {
			n, ok := r.otherDatabase(v)
			if !ok {
				return // database 0, one the cluster has, or one not known here
			}
			texts = append(texts, n)
			continue
		}
		if !r.taglessText(v) {
			return // the value may hold a tag, or is not known here
		}
		for _, k := range r.Eval.Keys(v) {
			text, _ := k.Known()
			texts = append(texts, strconv.Quote(text))
		}
	}
	callee := r.CalleeName(ssaread.CalledFunc(common))
	given := "its client is given here, to " + callee
	if f.Param > 0 {
		arg := common.Args[f.Param-1]
		if r.testOffCluster(call.Pos(), arg) || r.topo.LeftOutCall(call, arg) {
			return
		}
		if w := r.WiringOf(call, arg); w != nil {
			r.deferFact(w, f.Setting, nil, f.Diag)
			return
		}
	} else {
		given = "its keys' leading values are given here, to " + callee + ", as " + strings.Join(texts, " or ")
		if f.Database {
			given = "its database is given here, to " + callee + ", as " + strings.Join(texts, " or ")
		}
		if r.testOffCluster(call.Pos(), nil) {
			return
		}
	}
	fd := f.Diag
	p := r.Pass.Fset.Position(call.Pos())
	fd.Related = append(slices.Clip(fd.Related), factRelated{At: factRange{File: p.Filename, Line: p.Line, Col: p.Column, EndLine: p.Line, EndCol: p.Column},
		Message: given})
	if f.Setting != "" && r.Pass.Pkg.Name() != "main" {
		r.deferSetting(f.Setting, fd)
		return
	}
	if f.Setting != "" && settingMet(f.Setting, r.programSets()) {
		return
	}
	r.reportOnce(fd, report)
}

// otherDatabase is the database v gives, as text, when it is a constant
// other than 0 that the target's cluster does not have.
func (r *Package) otherDatabase(v ssa.Value) (string, bool) {
	k, ok := unconverted(v).(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int || constant.Sign(k.Value) == 0 {
		return "", false
	}
	if n, exact := constant.Int64Val(k.Value); exact && n >= 0 && n < int64(r.Options.Target.DatabaseCount()) {
		return "", false
	}
	return k.Value.ExactString(), true
}

// literalField is the value a struct literal given as v stores into the
// field path names (".f0"), nil when v is not such a literal or the field
// is written other than once.
func literalField(v ssa.Value, path string) ssa.Value {
	var field int
	if n, err := fmt.Sscanf(path, ".f%d", &field); n != 1 || err != nil {
		return nil
	}
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				v = x.X
				continue
			}
		}
		break
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	stores := ssaread.FieldStores(alloc, field)
	if len(stores) != 1 {
		return nil
	}
	return stores[0].Val
}

// taglessText: every value v may hold is known text without a brace.
func (r *Package) taglessText(v ssa.Value) bool {
	keys := r.Eval.Keys(v)
	if len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		text, ok := k.Known()
		if !ok || strings.ContainsAny(text, "{}") {
			return false
		}
	}
	return true
}

// reportOnce reports fd, once per package.
func (r *Package) reportOnce(fd factDiagnostic, report func(analysis.Diagnostic)) {
	key := fmt.Sprintf("%v|%s|%s", fd.At, fd.Category, fd.Message)
	if r.wiring.reported[key] {
		return
	}
	d, ok := r.diagnostic(fd)
	if !ok {
		return
	}
	if r.wiring.reported == nil {
		r.wiring.reported = map[string]bool{}
	}
	r.wiring.reported[key] = true
	report(d)
}

// programSets are the options (see eval.SettingOf) that the package or
// any it imports sets to anything but false.
func (r *Package) programSets() map[string]bool {
	if r.wiring.sets != nil {
		return r.wiring.sets
	}
	r.wiring.sets = map[string]bool{}
	for _, s := range r.ownSets() {
		r.wiring.sets[s] = true
	}
	for _, pf := range r.Pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*settingFacts); ok {
			for _, s := range f.Sets {
				r.wiring.sets[s] = true
			}
		}
	}
	return r.wiring.sets
}

// ownSets are the options of types of other packages that defer (see
// eval.SettingOf, defersSettingsOf) that the package's code sets to
// anything but false: a store into such a bool field, a composite
// literal's field among them.
func (r *Package) ownSets() []string {
	var out []string
	for _, fn := range r.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					// A call of another package's exported function that writes
					// a field beside its constructor (q.SetPrefix(p)).
					callee := call.Common().StaticCallee()
					if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg == r.Pass.Pkg || !r.defersSettingsOfPkg(callee.Pkg.Pkg) {
						continue
					}
					if obj, ok := callee.Object().(*types.Func); ok && obj.Exported() {
						if key := eval.CallsSetting + obj.FullName(); !slices.Contains(out, key) {
							out = append(out, key)
						}
					}
					continue
				}
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if k, isConst := st.Val.(*ssa.Const); isConst && (k.Value == nil || k.Value.Kind() == constant.Bool && !constant.BoolVal(k.Value)) {
					continue
				}
				if b, isBasic := st.Val.Type().Underlying().(*types.Basic); !isBasic || b.Info()&types.IsBoolean == 0 {
					continue
				}
				if !r.defersSettingsOf(fa.X.Type()) {
					continue
				}
				if key := eval.SettingOf(fa.X.Type(), fa.Field); key != "" && !slices.Contains(out, key) {
					out = append(out, key)
				}
			}
		}
	}
	return out
}

// ResolveSettings judges, in a main package, the findings held back on
// options: each is reported unless the program sets its option.
func (r *Package) ResolveSettings(report func(analysis.Diagnostic)) {
	if r.Pass.Pkg.Name() != "main" {
		return
	}
	sets := r.programSets()
	judge := func(fs []factSettingFinding) {
		for _, f := range fs {
			if !settingMet(f.Setting, sets) {
				r.reportOnce(f.Diag, report)
			}
		}
	}
	judge(r.wiring.onSettings)
	for _, pf := range r.Pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*settingFacts); ok {
			judge(f.Findings)
		}
	}
}

// settingMet: the program sets the option, or calls one of the writers
// the setting names (see eval.CallsSetting).
func settingMet(setting string, sets map[string]bool) bool {
	if names, ok := strings.CutPrefix(setting, eval.CallsSetting); ok {
		for _, n := range strings.Split(names, "|") {
			if sets[eval.CallsSetting+n] {
				return true
			}
		}
		return false
	}
	return sets[setting]
}

// exportSettings exports the findings the package holds back on options
// and the options it sets.
func (r *Package) exportSettings() {
	var onSettings []factSettingFinding
	if r.Pass.Pkg.Name() != "main" {
		onSettings = r.wiring.onSettings
	}
	sets := r.ownSets()
	if len(onSettings) > 0 || len(sets) > 0 {
		r.Pass.ExportPackageFact(&settingFacts{Findings: onSettings, Sets: sets})
	}
}
