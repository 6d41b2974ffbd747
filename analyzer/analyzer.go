package analyzer

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// Analyzer is the crossslot analyzer with default settings, its flags bound.
var Analyzer = New(&Config{})

// New returns a crossslot analyzer for cfg. Each has its own flags and
// settings; none share mutable state.
func New(cfg *Config) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name: "crossslot",
		Doc:  analysisDoc(),
		URL:  "https://pkg.go.dev/github.com/crossslot/crossslot/analyzer",
		// No required analyzers: buildssa would build SSA (and ctrlflow
		// compute facts) for every package, the standard library included;
		// crossslot builds SSA itself, only where keys can be (see needOf).
		FactTypes: []analysis.Fact{new(keyFacts)},
	}
	a.Flags.BoolVar(&cfg.IncludeSingleNode, "include-single-node", cfg.IncludeSingleNode,
		"also check calls on *redis.Client and *redis.Conn (single-node clients), e.g. before moving to Cluster")
	a.Flags.BoolVar(&cfg.IncludeTests, "include-tests", cfg.IncludeTests,
		"also check calls in _test.go files whose client is not proved to be a cluster client (tests mostly run on one server or miniredis)")
	a.Flags.BoolVar(&cfg.ProofsOnly, "proofs-only", cfg.ProofsOnly,
		"report only keys proved to be on different slots for every value, not those on different slots for all but about 1 in 16384 values")
	a.Flags.BoolVar(&cfg.Strict, "strict", cfg.Strict,
		"also report (check unprovable) multi-key commands and transactions whose keys are not proved to share a slot")
	a.Flags.BoolVar(&cfg.HotTags, "hot-tags", cfg.HotTags,
		"also report (check hottag) keys whose hash tag is one constant while a per-entity value sits outside it, putting every entity on one slot")
	a.Flags.StringVar(&cfg.Coverage, "coverage", cfg.Coverage,
		"append what each package's analysis checked (multi-key commands and transactions: proved, reported, undecided and why) to this `file`, one JSON line a package; crossslot coverage FILE sums it")
	a.Run = func(pass *analysis.Pass) (any, error) { return run(pass, cfg) }
	return a
}

// Set only by this package's tests (export_test.go): rethrowPanics turns
// the recover off, panicOn makes run panic on one package as a bug would.
var (
	rethrowPanics = false
	panicOn       = ""
)

// panicLog is where CROSSSLOT_DEBUG prints a recovered panic.
var panicLog io.Writer = os.Stderr

func run(pass *analysis.Pass, cfg *Config) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			if rethrowPanics {
				panic(r)
			}
			result, err = nil, recovered(pass, cfg, r)
		}
	}()
	if pass.Pkg.Path() == panicOn {
		panic("crossslot test: a bug on " + panicOn)
	}
	need := needOf(pass)
	if need == nothing {
		return nil, nil // most packages: no SSA is built
	}
	report := pass.Report
	ignored := readIgnores(pass, report)
	pass.Report = func(d analysis.Diagnostic) {
		if !ignored.silences(pass.Fset, d) {
			report(d)
		}
	}
	a := newPackageAnalysis(pass, cfg)
	if need == callsAndSummaries {
		for _, fn := range a.funcs {
			a.checkFunction(fn)
		}
	}
	a.exportFacts()
	a.exportInterfaceFacts()
	if cfg.Coverage != "" && need == callsAndSummaries {
		a.coverage.Package = pass.Pkg.Path()
		if err := a.coverage.appendTo(cfg.Coverage); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// recovered handles a panic of the analysis, a bug on code it did not
// expect. The analyzer must never crash a user's go vet: the package is left
// unchecked, silently by default, but counted in the coverage report and,
// with CROSSSLOT_DEBUG set, printed with its stack, so that a user who sees
// no finding can tell why and report it.
func recovered(pass *analysis.Pass, cfg *Config, r any) error {
	if d := os.Getenv("CROSSSLOT_DEBUG"); d != "" && d != "0" {
		fmt.Fprintf(panicLog, "crossslot: internal error; package %s is not checked: %v\n%s", pass.Pkg.Path(), r, debug.Stack())
	}
	if cfg.Coverage != "" {
		c := Coverage{Package: pass.Pkg.Path(), Panics: 1, Panic: fmt.Sprint(r)}
		if err := c.appendTo(cfg.Coverage); err != nil {
			return err
		}
	}
	return nil
}
