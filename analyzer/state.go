package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/internal/luascript"
)

// packageAnalysis is the state of one package's analysis: its SSA, the
// evaluator, the summaries of the functions it calls, the keys of the client
// calls read so far, the scripts parsed, and what the coverage report
// counts. Reading code (calls.go, summarize.go, queued.go, scriptread.go,
// singlenode.go) fills it; the checks (walk.go and the files it calls)
// report from it.
type packageAnalysis struct {
	pass      *analysis.Pass
	cfg       *Config
	ssaPkg    *ssa.Package
	funcs     []*ssa.Function // source functions and their literals, in source order
	ev        *eval.Evaluator
	summaries map[*ssa.Function]*summary
	siteKeys  map[*ssa.CallCommon][]keymodel.Arg
	// splitting: the clients given a command-info resolver (splitting.go),
	// nil until asked.
	splitting map[any]bool
	// impls and interfaceCalls follow calls through project interfaces.
	impls          *implementations
	interfaceCalls map[*ssa.CallCommon]*interfaceCall
	// redigoCluster: whether the package reaches a cluster library built
	// on redigo; nil until asked.
	redigoCluster *bool
	embedded      map[types.Object]string // string variables filled by //go:embed, to their file
	scripts       map[string]parsedScript // Lua read so far, by text
	coverage      Coverage
}

func newPackageAnalysis(pass *analysis.Pass, cfg *Config) *packageAnalysis {
	impls := newImplementations(pass)
	pkg, funcs := buildSSA(pass, impls)
	src := eval.IndexSource(pass.Files)
	a := &packageAnalysis{
		pass: pass, cfg: cfg, ssaPkg: pkg, funcs: funcs,
		summaries: map[*ssa.Function]*summary{},
		siteKeys:  map[*ssa.CallCommon][]keymodel.Arg{},
		impls:     impls, interfaceCalls: map[*ssa.CallCommon]*interfaceCall{},
		embedded: embeddedStrings(pass),
		scripts:  map[string]parsedScript{},
	}
	a.ev = eval.New(pkg, funcs, pass.TypesInfo, src, a.embedded, a)
	return a
}

// count records one batch in the package's coverage.
func (a *packageAnalysis) count(transaction bool, keys []keymodel.Arg, reported bool) {
	a.coverage.count(transaction, keys, reported, a.cfg.ProofsOnly)
}

// countCommand records one command's keys: a sharded pub/sub call as a
// site of that check, any other as a multi-key batch.
func (a *packageAnalysis) countCommand(method string, keys []keymodel.Arg, reported bool) {
	if clients.ShardedPubSub[method] {
		a.coverage.tally(CategoryShardedPubSub, reported, !reported && undecidedReason(keys, a.cfg.ProofsOnly) != "")
		return
	}
	a.count(false, keys, reported)
}

// differ says whether every alternative of x is on another slot than every
// alternative of y: proved for every value, or (unless the configuration
// wants proofs only) near-sure.
func (a *packageAnalysis) differ(x, y keymodel.Arg) (keymodel.Difference, bool) {
	return keymodel.Differ(x, y, a.cfg.ProofsOnly)
}

// where is a position as "file.go:line".
func (a *packageAnalysis) where(pos token.Pos) string {
	p := a.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// calleeName names a wrapper in messages: pair, Repo.rename, store.Pair.
func (a *packageAnalysis) calleeName(fn *types.Func) string {
	if fn == nil {
		return "a wrapper"
	}
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := types.Unalias(t).(*types.Named); ok {
			name = named.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil && fn.Pkg() != a.pass.Pkg {
		name = fn.Pkg().Name() + "." + name
	}
	return name
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

// A parsedScript is a script's Lua as the parser read it, kept by text: one
// script may serve several calls.
type parsedScript struct {
	script *luascript.Script
	err    error
}
