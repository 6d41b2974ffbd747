package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
)

// readinessChecks are the rows of the readiness summary, in the order of
// the table of checks: the CROSSSLOT check (multi-key commands and
// transactions), then what else a cluster refuses or does differently.
var readinessChecks = sync.OnceValue(func() []string {
	var out []string
	for _, c := range analyzer.Checks() {
		if c.Readiness {
			out = append(out, c.Name)
		}
	}
	return out
})

// readinessReport runs the analysis over packages and prints, per module,
// what moving to a cluster breaks: each check's call sites, how many are
// fine on a cluster, reported, suppressed by a directive, or undecided,
// then the undecided, reported and suppressed sites. Every client is judged
// as the cluster it moves to, single-node clients included: a team on one
// server today runs it before it moves.
//
//	crossslot readiness [-f text|md|json] [-include-single-node=false] [-fail] [packages]
func readinessReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("crossslot readiness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("f", "text", "output `format`: text, md (Markdown, to paste into a pull request or an issue) or json (one JSON line a site, in a stable order, to diff two runs)")
	md := fs.Bool("md", false, "print Markdown: the same as -f md")
	single := fs.Bool("include-single-node", true, "judge single-node clients (*redis.Client, a redigo pool of one server, ...) as the cluster they move to; false judges only clients that may reach a cluster, as the plain run does")
	fail := fs.Bool("fail", false, "exit 1 when anything is reported, to gate a migration in CI")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: crossslot readiness [-f text|md|json] [-include-single-node=false] [-fail] [packages]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *md {
		*format = "md"
	}
	switch *format {
	case "text", "md", "json":
	default:
		fmt.Fprintf(stderr, "crossslot readiness: unsupported output format %q; the formats are text, md and json\n", *format)
		return exitUsage
	}
	pkgs := fs.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./..."}
	}
	modules, err := listModules(pkgs)
	if err != nil {
		fmt.Fprintln(stderr, "crossslot readiness:", err)
		return exitUsage
	}
	findings, coverage, inventory, notAnalyzed, err := analyzeForReadiness(pkgs, *single, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "crossslot readiness:", err)
		return exitCode(err) // the analysis's own
	}
	byPackage, _, err := analyzer.SumCoverage(coverage)
	if err != nil {
		fmt.Fprintln(stderr, "crossslot readiness:", err)
		return 1
	}
	summaries := modules.summarize(byPackage, findings)
	usesByModule, err := modules.keyUses(inventory)
	if err != nil {
		fmt.Fprintln(stderr, "crossslot readiness:", err)
		return 1
	}
	for _, s := range summaries {
		s.keys = countFamilies(keyFamilies(usesByModule[s.module]))
	}
	reported := 0
	for i, s := range summaries {
		s.singleNode = *single
		switch *format {
		case "json":
			if err := s.json(stdout); err != nil {
				fmt.Fprintln(stderr, "crossslot readiness:", err)
				return 1
			}
		case "md":
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			s.markdown(stdout)
		default:
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			s.text(stdout)
		}
		reported += len(s.reported)
	}
	if len(notAnalyzed) > 0 {
		// The summary covers what was analyzed; say what was not, and fail
		// as the analysis does, so that CI does not take a part for the whole.
		fmt.Fprintf(stdout, "\nnot analyzed (%d), so not in the table above:\n", len(notAnalyzed))
		for _, f := range notAnalyzed {
			fmt.Fprintf(stdout, "  %s\n", strings.ReplaceAll(strings.TrimSpace(f.Message), "\n", "\n    "))
		}
		return notAnalyzedExit(notAnalyzed)
	}
	if *fail && reported > 0 {
		return exitFindings
	}
	return exitClean
}

// analyzeForReadiness runs the standalone analysis and returns its
// findings, its coverage file, its inventory file, and what it could not
// analyze (packages that do not load or type-check: the others are
// analyzed).
func analyzeForReadiness(pkgs []string, single bool, stderr io.Writer) (findings []finding.Finding, coverage, inventory []byte, notAnalyzed []finding.Finding, err error) {
	dir, err := os.MkdirTemp("", "crossslot-readiness")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	defer os.RemoveAll(dir)
	coverageFile, inventoryFile := filepath.Join(dir, "coverage.jsonl"), filepath.Join(dir, "inventory.jsonl")
	args := []string{"-crossslot.coverage=" + coverageFile, "-crossslot.inventory=" + inventoryFile}
	if single {
		args = append(args, "-crossslot.include-single-node")
	}
	findings, notAnalyzed, err = analyzePackages(append(args, pkgs...))
	if err != nil {
		return nil, nil, nil, nil, err
	}
	data, err := os.ReadFile(coverageFile)
	if errors.Is(err, os.ErrNotExist) {
		err = nil // no package could hold a command
	}
	inventory, ierr := os.ReadFile(inventoryFile)
	if errors.Is(ierr, os.ErrNotExist) {
		ierr = nil // no package sends keys
	}
	return findings, data, inventory, notAnalyzed, errors.Join(err, ierr)
}

// moduleIndex says which module each package and directory belongs to.
type moduleIndex struct {
	ofPackage map[string]string
	dirs      map[string]string // package directory to module
	order     []string          // modules in the order go list gives them
}

func listModules(pkgs []string) (moduleIndex, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{with .Module}}{{.Path}}{{end}}"}, pkgs...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return moduleIndex{}, fmt.Errorf("go list: %v\n%s", err, stderr.String())
	}
	idx := moduleIndex{ofPackage: map[string]string{}, dirs: map[string]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		mod := f[2]
		if mod == "" {
			mod = "(no module)"
		}
		if _, seen := idx.dirs[f[1]]; !seen && !slices.Contains(idx.order, mod) {
			idx.order = append(idx.order, mod)
		}
		idx.ofPackage[f[0]], idx.dirs[f[1]] = mod, mod
	}
	return idx, nil
}

// A moduleReadiness is one module's table and reported sites.
type moduleReadiness struct {
	module   string
	packages int
	rows     map[string]analyzer.Tally
	// others counts the findings of the checks that count no sites (tags,
	// scripts, and the opt-in ones): rows of the table when there are any.
	others   map[string]int
	reported []finding.Finding
	// suppressed are the findings a directive silenced, by check too, and
	// singleNode says the run judged single-node clients as a cluster's.
	suppressed      []finding.Finding
	suppressedCheck map[string]int
	singleNode      bool
	keys            familyCounts // the key inventory's counts (crossslot keys)
	// assumed counts the fine multi-key sites whose keys share one tag of
	// one value; undecided is where the undecided ones are, and why.
	assumed   int
	undecided []analyzer.Site
}

// isCheck reports whether a finding's code is a check's, not a directive's
// or a load error's.
func isCheck(code string) bool {
	return slices.ContainsFunc(analyzer.Checks(), func(c analyzer.Check) bool { return c.Name == code })
}

// otherRows are a module's rows of checks that count no sites, in the order
// of the table of checks.
func (s *moduleReadiness) otherRows() []string {
	var out []string
	for _, c := range analyzer.Checks() {
		if s.others[c.Name] > 0 || !c.Readiness && s.suppressedCheck[c.Name] > 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

func (idx moduleIndex) summarize(coverage []analyzer.Coverage, findings []finding.Finding) []*moduleReadiness {
	byModule := map[string]*moduleReadiness{}
	get := func(mod string) *moduleReadiness {
		if s, ok := byModule[mod]; ok {
			return s
		}
		s := &moduleReadiness{module: mod, rows: map[string]analyzer.Tally{}, others: map[string]int{}, suppressedCheck: map[string]int{}}
		byModule[mod] = s
		return s
	}
	for _, mod := range idx.order {
		get(mod)
	}
	for _, c := range coverage {
		mod, ok := idx.ofPackage[strings.TrimSuffix(c.Package, "_test")]
		if !ok {
			continue // a dependency's package, analyzed for its facts
		}
		s := get(mod)
		s.packages++
		s.rows[analyzer.CategoryCrossSlot] = s.rows[analyzer.CategoryCrossSlot].Plus(analyzer.Tally{
			Sites: c.Commands + c.Transactions, Fine: c.Proved, Reported: c.Reported, Undecided: c.Undecided})
		for check, t := range c.Readiness {
			s.rows[check] = s.rows[check].Plus(t)
		}
		s.assumed += c.Assumed
		s.undecided = append(s.undecided, c.UndecidedAt...)
	}
	for _, f := range findings {
		if !isCheck(f.Check) {
			continue
		}
		if mod, ok := idx.dirs[filepath.Dir(f.Pos.File)]; ok {
			s := get(mod)
			if f.Severity == finding.Ignored {
				s.suppressed = append(s.suppressed, f)
				s.suppressedCheck[f.Check]++
				continue
			}
			s.reported = append(s.reported, f)
			if !slices.Contains(readinessChecks(), f.Check) {
				s.others[f.Check]++
			}
		}
	}
	var out []*moduleReadiness
	for _, mod := range idx.order {
		s := byModule[mod]
		for _, fs := range [][]finding.Finding{s.reported, s.suppressed} {
			sort.SliceStable(fs, func(i, j int) bool {
				a, b := fs[i].Pos, fs[j].Pos
				return a.File < b.File || a.File == b.File && (a.Line < b.Line || a.Line == b.Line && a.Column < b.Column)
			})
		}
		// a suppressed finding of a row was counted as reported by the
		// analysis, which runs before the directives are read
		for check, n := range s.suppressedCheck {
			if r, ok := s.rows[check]; ok {
				moved := min(n, r.Reported)
				r.Reported -= moved
				s.rows[check] = r
			}
		}
		sort.SliceStable(s.undecided, func(i, j int) bool {
			a, b := s.undecided[i], s.undecided[j]
			return a.File < b.File || a.File == b.File && (a.Line < b.Line || a.Line == b.Line && (a.Column < b.Column || a.Column == b.Column && a.Check < b.Check))
		})
		out = append(out, s)
	}
	return out
}

// where is a finding's place relative to the working directory.
// located prefixes a message with its position, when it has one: a
// package that could not be loaded may have none.
func located(p finding.Position, message string) string {
	if p.File == "" {
		return message
	}
	return where(p) + ": " + message
}

func where(p finding.Position) string {
	file := p.File
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Column)
}

func (s *moduleReadiness) text(w io.Writer) {
	fmt.Fprintf(w, "cluster readiness of %s (%s with Redis calls)\n%s\n\n", s.module, packagesText(s.packages), s.judging())
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "check\tsites\tfine\treported\tsuppressed\tundecided\t")
	for _, check := range readinessChecks() {
		r := s.rows[check]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", check, r.Sites, r.Fine, r.Reported, s.suppressedCheck[check], r.Undecided)
	}
	for _, check := range s.otherRows() {
		fmt.Fprintf(tw, "%s\t-\t-\t%d\t%d\t-\t\n", check, s.others[check], s.suppressedCheck[check])
	}
	tw.Flush()
	if s.assumed > 0 {
		fmt.Fprintf(w, "\n%s\n", s.assumption())
	}
	fmt.Fprintf(w, "\n%s\n", s.keys)
	if len(s.undecided) > 0 {
		fmt.Fprintf(w, "\nundecided (%d):\n", len(s.undecided))
		for _, u := range s.undecided {
			fmt.Fprintf(w, "  %s: %s (%s)\n", where(finding.Position{File: u.File, Line: u.Line, Column: u.Column}), u.Reason, siteCheck(u))
		}
	}
	if len(s.suppressed) > 0 {
		fmt.Fprintf(w, "\nsuppressed (%d):\n", len(s.suppressed))
		for _, f := range s.suppressed {
			fmt.Fprintf(w, "  %s: %s (%s; %s)\n", where(f.Pos), f.Message, f.Check, suppressedBecause(f))
		}
	}
	if len(s.reported) == 0 {
		fmt.Fprintln(w, "\nnothing reported")
		return
	}
	fmt.Fprintf(w, "\nreported (%d):\n", len(s.reported))
	for _, f := range s.reported {
		fmt.Fprintf(w, "  %s: %s (%s)\n", where(f.Pos), f.Message, f.Check)
	}
}

// judging says which clients the summary judged as a cluster's.
func (s *moduleReadiness) judging() string {
	if s.singleNode {
		return "every client judged as a cluster client, single-node ones (*redis.Client, a redigo pool of one server, ...) included"
	}
	return "clients that may reach a cluster judged; single-node ones left out (-include-single-node=false)"
}

// siteCheck is the check of an undecided site: the crossslot check's
// batches name none.
func siteCheck(u analyzer.Site) string {
	if u.Check == "" {
		return analyzer.CategoryCrossSlot
	}
	return u.Check
}

func (s *moduleReadiness) markdown(w io.Writer) {
	fmt.Fprintf(w, "### Cluster readiness of `%s`\n\n", s.module)
	fmt.Fprintf(w, "%s with Redis calls, checked by crossslot: %s.\n\n", capitalized(packagesText(s.packages)), s.judging())
	fmt.Fprintln(w, "| check | sites | fine | reported | suppressed | undecided |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|")
	for _, check := range readinessChecks() {
		r := s.rows[check]
		fmt.Fprintf(w, "| `%s` | %d | %d | %d | %d | %d |\n", check, r.Sites, r.Fine, r.Reported, s.suppressedCheck[check], r.Undecided)
	}
	for _, check := range s.otherRows() {
		fmt.Fprintf(w, "| `%s` | - | - | %d | %d | - |\n", check, s.others[check], s.suppressedCheck[check])
	}
	if s.assumed > 0 {
		fmt.Fprintf(w, "\n%s\n", capitalized(s.assumption()))
	}
	fmt.Fprintf(w, "\n%s (`crossslot keys` lists them).\n", capitalized(s.keys.String()))
	if len(s.undecided) > 0 {
		fmt.Fprintf(w, "\n**Undecided (%d)**\n\n", len(s.undecided))
		for _, u := range s.undecided {
			fmt.Fprintf(w, "- `%s` **%s**: %s\n", where(finding.Position{File: u.File, Line: u.Line, Column: u.Column}), siteCheck(u), u.Reason)
		}
	}
	if len(s.suppressed) > 0 {
		fmt.Fprintf(w, "\n**Suppressed (%d)**\n\n", len(s.suppressed))
		for _, f := range s.suppressed {
			fmt.Fprintf(w, "- `%s` **%s**: %s (%s)\n", where(f.Pos), f.Check, strings.ReplaceAll(f.Message, "|", "\\|"), suppressedBecause(f))
		}
	}
	if len(s.reported) == 0 {
		fmt.Fprintln(w, "\nNothing reported.")
		return
	}
	fmt.Fprintf(w, "\n**Reported (%d)**\n\n", len(s.reported))
	for _, f := range s.reported {
		fmt.Fprintf(w, "- [ ] `%s` **%s**: %s\n", where(f.Pos), f.Check, strings.ReplaceAll(f.Message, "|", "\\|"))
	}
}

// assumption says once what the fine count of the crossslot row takes for
// granted.
func (s *moduleReadiness) assumption() string {
	sites := "sites"
	if s.assumed == 1 {
		sites = "site"
	}
	return fmt.Sprintf("fine includes %d %s whose keys share one hash tag of one value (\"acct:{<id>}:balance\", \"acct:{<id>}:ledger\"): one slot, unless that value is empty or starts with '}'", s.assumed, sites)
}

func packagesText(n int) string {
	if n == 1 {
		return "1 package"
	}
	return fmt.Sprintf("%d packages", n)
}

func capitalized(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// keyUses reads the inventory file's lines and groups the uses by module.
func (m moduleIndex) keyUses(inventory []byte) (map[string][]analyzer.KeyUse, error) {
	out := map[string][]analyzer.KeyUse{}
	err := readInventory(inventory, func(inv analyzer.Inventory) {
		mod := m.ofPackage[inv.Package]
		out[mod] = append(out[mod], inv.Uses...)
	})
	return out, err
}

// suppressedBecause says which directive silenced a finding, and its
// reason: a //crossslot:ignore marks its finding with where it is; a
// //lint:ignore stands on the line above the finding, a //lint:file-ignore
// anywhere in its file.
func suppressedBecause(f finding.Finding) string {
	for _, r := range f.Related {
		if strings.HasPrefix(r.Message, analyzer.SilencedBy) {
			if text, ok := directiveAt(r.Pos.File, r.Pos.Line, "//crossslot:ignore"); ok {
				return text
			}
		}
	}
	if text, ok := directiveAt(f.Pos.File, f.Pos.Line-1, "//lint:ignore"); ok {
		return text
	}
	if text, ok := directiveAt(f.Pos.File, 0, "//lint:file-ignore"); ok {
		return text
	}
	return "silenced by a directive"
}

// directiveAt finds a directive in a file, on a line (0: any line), and
// returns it from its name on: "//lint:ignore crossslot one shard here".
func directiveAt(file string, line int, name string) (string, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	for i, text := range strings.Split(string(data), "\n") {
		if line > 0 && i+1 != line {
			continue
		}
		if at := strings.Index(text, name); at >= 0 {
			return strings.TrimSpace(text[at:]), true
		}
	}
	return "", false
}

// A readinessRecord is one line of `crossslot readiness -f json`: a site
// that needs a look (reported, suppressed or undecided), or a check's
// counts (verdict "summary").
type readinessRecord struct {
	Module  string `json:"module"`
	Check   string `json:"check"`
	Verdict string `json:"verdict"` // reported, suppressed, undecided, summary
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	// Message is the finding's; Reason why a site is undecided or which
	// directive suppressed it.
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Keys are the keys the finding quotes, in its order.
	Keys []string `json:"keys,omitempty"`
	// The counts of a summary record.
	Sites      *int `json:"sites,omitempty"`
	Fine       *int `json:"fine,omitempty"`
	Reported   *int `json:"reported,omitempty"`
	Suppressed *int `json:"suppressed,omitempty"`
	Undecided  *int `json:"undecided,omitempty"`
}

// json writes the module's records, one JSON line each: the summary of
// every check, then its sites ordered by file, line, column and check, so
// that two runs diff line by line. Positions are relative to the working
// directory.
func (s *moduleReadiness) json(w io.Writer) error {
	var out []readinessRecord
	count := func(n int) *int { return &n }
	for _, check := range readinessChecks() {
		r := s.rows[check]
		out = append(out, readinessRecord{Module: s.module, Check: check, Verdict: "summary",
			Sites: count(r.Sites), Fine: count(r.Fine), Reported: count(r.Reported), Suppressed: count(s.suppressedCheck[check]), Undecided: count(r.Undecided)})
	}
	for _, check := range s.otherRows() {
		out = append(out, readinessRecord{Module: s.module, Check: check, Verdict: "summary",
			Reported: count(s.others[check]), Suppressed: count(s.suppressedCheck[check])})
	}
	var sites []readinessRecord
	for _, u := range s.undecided {
		file, line, col := relativeSpot(finding.Position{File: u.File, Line: u.Line, Column: u.Column})
		sites = append(sites, readinessRecord{Module: s.module, Check: siteCheck(u), Verdict: "undecided", File: file, Line: line, Column: col, Reason: u.Reason})
	}
	for _, f := range s.reported {
		file, line, col := relativeSpot(f.Pos)
		sites = append(sites, readinessRecord{Module: s.module, Check: f.Check, Verdict: "reported", File: file, Line: line, Column: col, Message: f.Message, Keys: quotedKeys(f.Message)})
	}
	for _, f := range s.suppressed {
		file, line, col := relativeSpot(f.Pos)
		sites = append(sites, readinessRecord{Module: s.module, Check: f.Check, Verdict: "suppressed", File: file, Line: line, Column: col, Message: f.Message, Keys: quotedKeys(f.Message), Reason: suppressedBecause(f)})
	}
	slices.SortStableFunc(sites, func(a, b readinessRecord) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Check, b.Check), cmp.Compare(a.Verdict, b.Verdict))
	})
	enc := json.NewEncoder(w)
	for _, r := range append(out, sites...) {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// relativeSpot is a position's file relative to the working directory (as
// where gives it), line and column.
func relativeSpot(p finding.Position) (string, int, int) {
	file := p.File
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return filepath.ToSlash(file), p.Line, p.Column
}

// quotedKeys are the keys a finding's message quotes before its fix:
// `MGet keys "user:1:a" (slot 323) and "user:2:a" ...` gives user:1:a and
// user:2:a.
func quotedKeys(message string) []string {
	before, _, _ := strings.Cut(message, "; ")
	var out []string
	for _, m := range quotedKey.FindAllStringSubmatch(before, -1) {
		if k, err := strconv.Unquote(m[0]); err == nil && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

var quotedKey = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
