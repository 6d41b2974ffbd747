package analyzer

import (
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/budget"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/clustertarget"
)

// Analyzer is the crossslot analyzer with default settings, its flags bound.
var Analyzer = New(&Config{})

// New returns a crossslot analyzer for cfg. Each has its own flags and
// settings; none share mutable state.
func New(cfg *Config) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name: "crossslot",
		Doc:  analysisDoc(),
		URL:  "https://github.com/crossslot/crossslot#readme",
		// No required analyzers: buildssa would build SSA (and ctrlflow
		// compute facts) for every package, the standard library included;
		// crossslot builds SSA itself, only where keys can be (see
		// reading.NeedOf).
		FactTypes: reading.FactTypes(),
	}
	cfg.bindFlags(&a.Flags)
	a.Run = func(pass *analysis.Pass) (any, error) { return run(pass, cfg) }
	return a
}

// A Gate tells a driver that type-checks packages itself (the language
// server), given them dependencies first, which packages the analyzer reads
// nothing of but their types: the standard library, the clients' own code,
// and the packages of versioned dependency modules that reach neither a
// client nor a package with key facts. It may type-check those without
// their function bodies; the analyzer returns at once on them.
type Gate = reading.Gate

// NewGate is the gate of an analyzer made for cfg.
func NewGate(cfg *Config) *Gate {
	return &Gate{Pending: cfg.readingOptions(clustertarget.Target{}).Pending}
}

// bindFlags binds the settings to flags, named as users type them after
// "crossslot." and as the golangci-lint plugin's settings: the reading's
// settings, then each opt-in check's flag from the table of checks.
func (cfg *Config) bindFlags(fs *flag.FlagSet) {
	fs.BoolVar(&cfg.IncludeSingleNode, "include-single-node", cfg.IncludeSingleNode,
		"also check calls on *redis.Client and *redis.Conn (single-node clients), e.g. before moving to Cluster")
	fs.BoolVar(&cfg.IncludeTests, "include-tests", cfg.IncludeTests,
		"also check calls in _test.go files whose client is not proved to be a cluster client (tests mostly run on one server or miniredis)")
	fs.BoolVar(&cfg.ProofsOnly, "proofs-only", cfg.ProofsOnly,
		"report only keys proved to be on different slots for every value, not those on different slots for all but about 1 in 16384 values")
	fs.BoolVar(&cfg.SameValuesOnly, "same-values-only", cfg.SameValuesOnly,
		"report keys on different slots only where they hash the same values: leave out keys of two different values (on one slot for about 1 in 16384 pairs) and keys that start with a value that may hold a hash tag")
	fs.Var(&cfg.Target, "target", targetUsage)
	for _, c := range checks {
		if c.OptIn != nil {
			on := c.OptIn.On(cfg)
			fs.BoolVar(on, c.OptIn.Flag, *on, c.OptIn.Usage)
		}
	}
	fs.StringVar(&cfg.Inventory, "inventory", cfg.Inventory,
		"append the keys each package builds and the commands and transactions that use them to this `file`, one JSON line a package; crossslot keys reads it")
	fs.StringVar(&cfg.Coverage, "coverage", cfg.Coverage,
		"append what each package's analysis checked (multi-key commands and transactions: proved, reported, undecided and why) to this `file`, one JSON line a package; crossslot coverage FILE sums it")
}

// Set only by this package's tests (export_test.go): rethrowPanics turns
// the recover off, panicOn makes run panic on one package as a bug would.
var (
	rethrowPanics = false
	panicOn       = ""
)

// panicLog is where CROSSSLOT_DEBUG prints a recovered panic.
var panicLog io.Writer = os.Stderr

// run reads the package once and runs every enabled check over the
// reading: the calls, keys and transactions of each function in turn.
func run(pass *analysis.Pass, cfg *Config) (result any, err error) {
	merger := &bugMerger{}
	defer func() {
		if r := recover(); r != nil {
			if rethrowPanics {
				panic(r)
			}
			merger.flushAfterPanic() // what was found before it stands
			result, err = nil, recovered(pass, cfg, r)
		}
	}()
	if pass.Pkg.Path() == panicOn {
		panic("crossslot test: a bug on " + panicOn)
	}
	t, err := targetOf(pass, cfg)
	if err != nil {
		return nil, err
	}
	opts := cfg.readingOptions(t)
	need := reading.NeedOf(pass, opts)
	if need == reading.Nothing {
		return nil, nil // most packages: no SSA is built
	}
	deferring := &deferral{}
	deferring.install(pass)
	merger.install(pass, deferring)
	ignored := honourIgnores(pass, cfg)
	r := reading.Read(pass, opts)
	deferring.reading = r
	work := r.Eval.Work()
	quietWhenExhausted(pass, work)
	var coverage *Coverage
	var inventory *Inventory
	if need == reading.CallsAndSummaries && !cfg.FactsOnly {
		coverage = &Coverage{Package: pass.Pkg.Path()}
		up := &unitPass{view: r, pass: pass, source: &r.Eval.Source, cfg: cfg, target: t, coverage: coverage, deferral: deferring}
		checks := append(checkUnits{wiringUnit{d: deferring}}, newCheckUnits(up)...)
		if cfg.Inventory != "" || cfg.OnInventory != nil || cfg.Records {
			inventory = &Inventory{Package: pass.Pkg.Path()}
			up.inventory = inventory
			checks = append(checks, keyInventory.new(up))
		}
		units := concerning{checks, merger}
		for _, fn := range r.Functions() {
			if work.Exhausted() {
				break // the rest of the package is unknown
			}
			work.Reading(fn.String())
			r.Walk(fn, units)
		}
		merger.flush() // to the deferral, before the package's own wiring resolves it
		deferring.current = nil
		work.Reading("the calls left for main")
		r.ResolvePending(units)
		merger.flush()
		deferring.current = nil
		work.Reading("main's wiring")
		r.ResolveWiring(pass.Report)
		if !cfg.WholeProgram {
			coverage.OutOfSight = r.Pending()
		}
		coverage.SingleNode = r.SkippedSingleNode()
	}
	merger.close()
	work.Reading("the package's facts")
	r.ExportFacts()
	if coverage != nil && work.Exhausted() {
		coverage.Exhausted = work.Where
	}
	if cfg.WholeProgram {
		r.ExportPending(func(pos token.Pos) bool {
			_, silenced := ignored.silences(pass.Fset, analysis.Diagnostic{Pos: pos, Category: CategoryCrossSlot})
			return !silenced
		})
	}
	if inventory != nil && cfg.OnInventory != nil {
		cfg.OnInventory(inventory)
	}
	if inventory != nil && cfg.Inventory != "" {
		if err := inventory.appendTo(cfg.Inventory); err != nil {
			return nil, err
		}
	}
	if cfg.Coverage != "" && coverage != nil {
		if err := coverage.appendTo(cfg.Coverage); err != nil {
			return nil, err
		}
	}
	if cfg.Records {
		if err := reportRecord(pass, Record{Inventory: inventory, Coverage: coverage}); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// quietWhenExhausted drops what the package's checks report once its
// reading has passed a bound (see budget): a value read past it is
// unknown, so nothing reported after it may stand. Records still go out,
// and the coverage they carry says where the reading stopped.
func quietWhenExhausted(pass *analysis.Pass, work *budget.Work) {
	report := pass.Report
	pass.Report = func(d analysis.Diagnostic) {
		if work.Exhausted() && d.Category != CategoryRecord {
			return
		}
		report(d)
	}
}

// recovered handles a panic of the analysis, a bug on code it did not
// expect. The analyzer must never crash a user's run: the package is left
// unchecked and the run goes on. The standalone command, readiness and
// keys (Config.Records) report it from the coverage record, as a package
// not checked with the panic and its first frames, and exit with their
// code for an internal error; the language server logs it
// (Config.OnInternalError); other drivers (go vet, golangci-lint) print it
// to standard error; with CROSSSLOT_DEBUG set, each prints the whole stack.
func recovered(pass *analysis.Pass, cfg *Config, r any) error {
	c := Coverage{Package: pass.Pkg.Path(), Panics: 1, Panic: fmt.Sprint(r), PanicAt: panicFrames()}
	if cfg.OnInternalError != nil {
		cfg.OnInternalError(c.Package, c.Panic, c.PanicAt)
	}
	if d := os.Getenv("CROSSSLOT_DEBUG"); d != "" && d != "0" {
		fmt.Fprintf(panicLog, "crossslot: internal error; package %s is not checked: %v\n%s", pass.Pkg.Path(), r, debug.Stack())
	} else if !cfg.Records && cfg.OnInternalError == nil {
		fmt.Fprintf(panicLog, "crossslot: internal error; package %s is not checked: %v\n\tat %s\n(set CROSSSLOT_DEBUG=1 for the whole stack, and report it)\n",
			pass.Pkg.Path(), r, strings.Join(c.PanicAt, "\n\tat "))
	}
	if cfg.Coverage != "" {
		if err := c.appendTo(cfg.Coverage); err != nil {
			return err
		}
	}
	if cfg.Records {
		return reportRecord(pass, Record{Coverage: &c})
	}
	return nil
}

// panicFrames is where a recovered panic was raised: up to five frames of
// crossslot's own code, innermost first, as "function (file:line)", called
// from the deferred function that recovered it.
func panicFrames() []string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	var out []string
	for {
		f, more := frames.Next()
		name := strings.TrimPrefix(f.Function, "github.com/crossslot/crossslot/")
		if name != f.Function && !strings.HasPrefix(name, "analyzer.run.func") && !strings.HasPrefix(name, "analyzer.recovered") {
			out = append(out, fmt.Sprintf("%s (%s:%d)", name, filepath.Base(f.File), f.Line))
		}
		if !more || len(out) == 5 {
			return out
		}
	}
}
