package reading

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
	"github.com/crossslot/crossslot/clustertarget"
	"github.com/crossslot/crossslot/internal/luascript"
)

// Options are the settings that decide what the reading sees: which
// clients count, which test calls are checked, and what proves two keys
// apart.
type Options struct {
	// IncludeSingleNode reads calls on single-node clients too.
	IncludeSingleNode bool
	// IncludeTests reads calls in _test.go files whose client is not proved
	// to be a cluster client.
	IncludeTests bool
	// Claims say what cases two keys may be taken to differ on.
	Claims keymodel.Claims
	// WholeProgram: the driver loads every package of the run, so a main
	// package follows its imports' calls through interfaces implemented
	// where they cannot see (program.go).
	WholeProgram bool
	// Pending reads those calls in every package, for the main packages of
	// a whole-program run or to count them (program.go).
	Pending bool
	// Target is what runs the cluster, for what it refuses besides
	// CROSSSLOT.
	Target clustertarget.Target
}

// A Package is the one reading of a package that every check shares: its
// SSA, the evaluator, the summaries of the functions it calls (its own,
// and other packages' through facts), the keys of the client calls read so
// far, the scripts parsed. Walk hands its calls, keys and transactions to
// the checks in order.
type Package struct {
	Pass      *analysis.Pass
	Options   Options
	Eval      *eval.Evaluator
	ssaPkg    *ssa.Package
	funcs     []*ssa.Function // source functions and their literals, in source order
	summaries map[*ssa.Function]*summary
	// summarizing: the functions whose summaries are being computed.
	summarizing map[*ssa.Function]bool
	// impls: the implementations of the package's interfaces, which calls
	// through interface methods follow.
	impls *implementations
	// What was read so far, by subject.
	calls      callReading
	topo       *topology.Reader // what each client value talks to
	interfaces interfaceReading
	scripts    scriptReading
	program    programReading
	wiring     wiringReading
}

// callReading is what the client calls were read as (clientcalls.go): every
// check and every summary asks of the same calls.
type callReading struct {
	// sites are the calls recognized, nil for a call of no client.
	sites map[ssa.CallInstruction]*clients.Site
	// keys are the keys of the calls read, and worlds the worlds that
	// decide them; worldEvals an evaluator for each world met (see
	// worldsOf).
	keys       map[*ssa.CallCommon][]keymodel.Arg
	worlds     map[*ssa.CallCommon][]eval.World
	worldEvals map[eval.World]*eval.Evaluator
	// singleNode are the calls a check would judge (a multi-key command, a
	// transaction, a readiness site) left out only because their client
	// talks to one server (see SkippedSingleNode).
	singleNode map[ssa.CallInstruction]bool
}

// interfaceReading is what calls through the package's interfaces were
// found to reach (interfaces.go).
type interfaceReading struct {
	calls map[*ssa.CallCommon]*interfaceCall
	// sending: the implementations that send something of the interface
	// methods with several (see sendingImplementations).
	sending map[*types.Func][]implementationSummary
}

// scriptReading is the Lua scripts read (scriptread.go, noscript.go).
type scriptReading struct {
	// read are the scripts read, by call (see ReadScript).
	read     map[*ssa.CallCommon]readScript
	embedded map[types.Object]string // string variables filled by //go:embed, to their file
	parsed   map[string]parsedScript // Lua read so far, by text
	// noScriptFallback: whether the package sends EVAL where NOSCRIPT
	// answers (see RetriesWithEval); nil until asked.
	noScriptFallback *bool
}

// programReading is what the package reads of the other packages of a
// whole-program run (program.go): the calls through interfaces implemented
// out of sight, nil until asked, and the files of other packages found.
type programReading struct {
	pending *[]*ssa.CallCommon
	files   map[string]*token.File
}

// Read builds the package's SSA and its evaluator; the rest is read on
// demand.
func Read(pass *analysis.Pass, opts Options) *Package {
	impls := newImplementations(pass)
	impls.outOfSight = opts.Pending
	pkg, funcs, built := buildSSA(pass, impls, opts.IncludeTests)
	src := eval.IndexSource(built)
	r := &Package{
		Pass: pass, Options: opts, ssaPkg: pkg, funcs: funcs, impls: impls,
		summaries:   map[*ssa.Function]*summary{},
		summarizing: map[*ssa.Function]bool{},
		calls: callReading{
			sites: map[ssa.CallInstruction]*clients.Site{}, keys: map[*ssa.CallCommon][]keymodel.Arg{},
			worlds: map[*ssa.CallCommon][]eval.World{}, worldEvals: map[eval.World]*eval.Evaluator{},
		},
		interfaces: interfaceReading{calls: map[*ssa.CallCommon]*interfaceCall{}, sending: map[*types.Func][]implementationSummary{}},
		scripts:    scriptReading{read: map[*ssa.CallCommon]readScript{}, embedded: embeddedStrings(pass), parsed: map[string]parsedScript{}},
	}
	r.Eval = eval.New(pkg, funcs, pass.TypesInfo, src, r.scripts.embedded, r)
	r.topo = topology.New(r.Eval, pass.Pkg, pkg, funcs, calleeTopology{r}, opts.IncludeSingleNode, opts.Target.Proxy != "")
	return r
}

// Differ says whether every alternative of x is on another slot than every
// alternative of y: proved for every value, or (unless the configuration
// wants proofs only) near-sure.
func (r *Package) Differ(x, y keymodel.Arg) (keymodel.Difference, bool) {
	return keymodel.Differ(x, y, r.Options.Claims)
}

// Where is a position as "file.go:line".
func (r *Package) Where(pos token.Pos) string {
	p := r.Pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// CalleeName names a wrapper in messages: pair, Repo.rename, store.Pair.
func (r *Package) CalleeName(fn *types.Func) string {
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
	if fn.Pkg() != nil && fn.Pkg() != r.Pass.Pkg {
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

// TopologyAt is what the client of a call talks to there (see
// topology.Reader.TopologyAt): a type check on the client decides the calls
// it dominates, and no others.
func (r *Package) TopologyAt(site *clients.Site) topology.Topology {
	return r.topo.TopologyAt(site.Call, site.Client())
}

// Undecided reports a call whose client's problems that only a cluster has
// are counted as undecided, not reported (see
// topology.Reader.UndecidedAt).
func (r *Package) Undecided(site *clients.Site) bool {
	return r.topo.UndecidedAt(site.Call, site.Client())
}

// calleeTopology answers the topology's questions about called functions
// from their summaries (this package's, or facts).
type calleeTopology struct{ r *Package }

func (c calleeTopology) ReturnsSingleNode(common *ssa.CallCommon) bool {
	s := c.r.calleeSummary(common)
	return s != nil && s.singleNodeResult
}

func (c calleeTopology) RunsOnSingleNode(common *ssa.CallCommon, j int) bool {
	called, ok := c.r.calledFunction(common)
	if !ok {
		return false
	}
	// The receiver of a call through an interface comes first in the
	// called function's arguments, as the implementation numbers its
	// parameters.
	j += len(called.common.Args) - len(common.Args)
	return slices.Contains(called.summary.singleNodeCallbacks, j+1)
}
