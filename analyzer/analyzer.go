package analyzer

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"
)

//go:embed doc.go
var doc string

// Diagnostic categories.
const (
	CategoryCrossSlot   = "crossslot"
	CategoryEmptyTag    = "emptytag"
	CategoryDoubleTag   = "doubletag"
	CategoryUnclosedTag = "unclosedtag"
)

// Config holds the analyzer's settings.
type Config struct {
	// IncludeSingleNode also checks calls on *redis.Client and *redis.Conn.
	IncludeSingleNode bool
}

// Analyzer is the crossslot analyzer with default settings, its flags bound.
var Analyzer = New(&Config{})

// New returns a crossslot analyzer for cfg. Each has its own flags and
// settings; none share mutable state.
func New(cfg *Config) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:     "crossslot",
		Doc:      analysisDoc(),
		URL:      "https://pkg.go.dev/github.com/crossslot/crossslot/analyzer",
		Requires: []*analysis.Analyzer{inspect.Analyzer, buildssa.Analyzer},
	}
	a.Flags.BoolVar(&cfg.IncludeSingleNode, "include-single-node", cfg.IncludeSingleNode,
		"also check calls on *redis.Client and *redis.Conn (single-node clients), e.g. before moving to Cluster")
	a.Run = func(pass *analysis.Pass) (any, error) { return run(pass, cfg) }
	return a
}

// analysisDoc derives Analyzer.Doc from doc.go, so -help and the package
// documentation say the same: the "# Analyzer crossslot" section, without its
// "crossslot: " prefix, and its examples.
func analysisDoc() string {
	sections := docSections()
	text := strings.Replace(sections["Analyzer crossslot"], "crossslot: ", "", 1)
	return text + "\n\n# Examples\n\n" + sections["Examples"]
}

// A Check documents one category of findings; the standalone command uses
// it as a check (for -checks, -explain and //lint:ignore).
type Check struct {
	Name  string // the diagnostic category, e.g. "emptytag"
	Title string // one line, e.g. "a key's hash tag is empty, so the whole key is hashed"
	Text  string // what it means and how to fix it, with examples
}

// Checks returns the documentation of every category, from doc.go's
// "# Check NAME" sections, in the order doc.go gives them.
func Checks() []Check {
	sections := docSections()
	var checks []Check
	for _, name := range []string{CategoryCrossSlot, CategoryEmptyTag, CategoryDoubleTag, CategoryUnclosedTag} {
		text := sections["Check "+name]
		title, body, _ := strings.Cut(text, "\n\n")
		checks = append(checks, Check{Name: name, Title: strings.TrimPrefix(title, name+": "), Text: body})
	}
	return checks
}

// docSections splits doc.go's package comment at its "# " headings and
// returns each section's text, comment markers removed, by heading.
func docSections() map[string]string {
	sections := map[string]string{}
	heading := ""
	var b strings.Builder
	flush := func() {
		if heading != "" {
			sections[heading] = strings.Trim(b.String(), "\n")
		}
		b.Reset()
	}
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "//") {
			break // the comment ends at "package analyzer"
		}
		line = strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		if h, ok := strings.CutPrefix(line, "# "); ok {
			flush()
			heading = h
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	return sections
}

// rethrowPanics is set only by this package's tests (export_test.go).
var rethrowPanics = false

func run(pass *analysis.Pass, cfg *Config) (result any, err error) {
	// The analyzer must never crash a user's go vet: a panic on code it did
	// not expect becomes silence for this package, not a failed build.
	defer func() {
		if r := recover(); r != nil {
			if rethrowPanics {
				panic(r)
			}
			result, err = nil, nil
		}
	}()
	if !importsGoRedis(pass.Pkg) {
		return nil, nil
	}
	calls, literals := indexSource(pass)
	ev := &evaluator{calls: calls, literals: literals, info: pass.TypesInfo}
	for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if site := goRedisCall(instr, ev, cfg); site != nil {
					check(pass, site)
				}
			}
		}
	}
	return nil, nil
}

func importsGoRedis(pkg *types.Package) bool {
	if goRedisPackages[pkg.Path()] {
		return false // the client's own code is not checked
	}
	for _, imp := range pkg.Imports() {
		if goRedisPackages[imp.Path()] {
			return true
		}
	}
	return false
}

// indexSource finds the syntax SSA points back to: call expressions by their
// '(' (for receivers and arguments as written) and string literals by their
// range (for fixes that rewrite a key).
func indexSource(pass *analysis.Pass) (map[token.Pos]*ast.CallExpr, map[positioned]*ast.BasicLit) {
	calls := map[token.Pos]*ast.CallExpr{}
	literals := map[positioned]*ast.BasicLit{}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	for n := range ins.PreorderSeq((*ast.CallExpr)(nil), (*ast.BasicLit)(nil)) {
		switch n := n.(type) {
		case *ast.CallExpr:
			calls[n.Lparen] = n
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				literals[rangeOf(n)] = n
			}
		}
	}
	return calls, literals
}

// goRedisCall recognizes a call of a go-redis method, static or through an
// interface, and returns nil for anything else.
func goRedisCall(instr ssa.Instruction, ev *evaluator, cfg *Config) *callSite {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	common := call.Common()
	var method *types.Func
	if common.IsInvoke() {
		method = common.Method
	} else if fn := common.StaticCallee(); fn != nil {
		method, _ = fn.Object().(*types.Func)
	}
	if method == nil || method.Pkg() == nil || !goRedisPackages[method.Pkg().Path()] {
		return nil
	}
	sig := method.Type().(*types.Signature)
	if sig.Recv() == nil {
		return nil
	}
	site := &callSite{method: method.Name(), common: common, sig: sig, expr: ev.calls[common.Pos()], eval: ev}
	if !cfg.IncludeSingleNode && site.onSingleNode() {
		return nil
	}
	return site
}

// onSingleNode reports whether the receiver as written is *redis.Client or
// *redis.Conn.
func (c *callSite) onSingleNode() bool {
	if c.expr == nil {
		return false
	}
	sel, ok := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	return isSingleNodeType(c.eval.typeOf(sel.X))
}

func isSingleNodeType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	return goRedisPackages[named.Obj().Pkg().Path()] && singleNodeTypes[named.Obj().Name()]
}

// check reports the call's malformed tags and, for multi-key methods, the
// first pair of keys proved to be on different slots.
func check(pass *analysis.Pass, site *callSite) {
	rule, multi := multiKeyMethods[site.method]
	var keys []keyArg
	if multi {
		keys = rule(site)
	} else {
		keys = singleKeyArgs(site)
	}
	for _, k := range keys {
		reportTagProblem(pass, site.method, k)
	}
	if multi {
		reportCrossSlot(pass, site, keys)
	}
}

// singleKeyArgs reads the parameters go-redis names as keys, for tag checks.
func singleKeyArgs(site *callSite) []keyArg {
	var out []keyArg
	params := site.sig.Params()
	for i := range params.Len() {
		if name := params.At(i).Name(); singleKeyParams[name] {
			out = append(out, site.keysOfParam(name)...)
		}
	}
	return out
}

func reportTagProblem(pass *analysis.Pass, method string, k keyArg) {
	problem := k.alts[0].tagProblem()
	for _, alt := range k.alts[1:] {
		if alt.tagProblem() != problem {
			return // not every value has it
		}
	}
	key := k.alts[0]
	var category, msg string
	switch problem {
	case emptyTag:
		category, msg = CategoryEmptyTag, fmt.Sprintf("%s key %s has an empty hash tag {}, so the whole key is hashed", method, key.quoted())
	case doubleTag:
		tag, _ := key.hashed()
		category, msg = CategoryDoubleTag, fmt.Sprintf("%s key %s has a second hash tag after {%s}; only the first one counts", method, key.quoted(), tag)
	case unclosedTag:
		category, msg = CategoryUnclosedTag, fmt.Sprintf("%s key %s has a '{' with no '}' after it, so the whole key is hashed", method, key.quoted())
	default:
		return
	}
	pass.Report(analysis.Diagnostic{Pos: k.at.pos, End: k.at.end, Category: category, Message: msg})
}

// reportCrossSlot reports the first key proved to be on another slot than an
// earlier key of the same command, with the earlier key as related.
func reportCrossSlot(pass *analysis.Pass, site *callSite, keys []keyArg) {
	method := site.method
	for j := 1; j < len(keys); j++ {
		for i := range j {
			si, sj, ok := provedDifferent(keys[i], keys[j])
			if !ok {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Pos: keys[j].at.pos, End: keys[j].at.end, Category: CategoryCrossSlot,
				Message: fmt.Sprintf("%s keys %s (slot %d) and %s (slot %d) are on different hash slots",
					method, keys[i].alts[0].quoted(), si, keys[j].alts[0].quoted(), sj),
				Related: []analysis.RelatedInformation{{
					Pos: keys[i].at.pos, End: keys[i].at.end,
					Message: fmt.Sprintf("key %s is on slot %d", keys[i].alts[0].quoted(), si),
				}},
				SuggestedFixes: coLocateFix(keys, site.eval.literals),
			})
			return
		}
	}
}

// provedDifferent holds when every value of a and every value of b have a
// known slot and no two of them agree. It returns the slots of the first
// alternatives for the message.
func provedDifferent(a, b keyArg) (int, int, bool) {
	var first [2]int
	for ia, ka := range a.alts {
		sa, ok := ka.slot()
		if !ok {
			return 0, 0, false
		}
		for ib, kb := range b.alts {
			sb, ok := kb.slot()
			if !ok || sa == sb {
				return 0, 0, false
			}
			if ia == 0 && ib == 0 {
				first = [2]int{sa, sb}
			}
		}
	}
	return first[0], first[1], true
}
