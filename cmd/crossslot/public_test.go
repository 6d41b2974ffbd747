package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/analyzer"
	"github.com/crossslot/crossslot/internal/finding"
)

// publicFindings is the hand-triaged list of public modules and findings.
const publicFindings = "../../testdata/public/findings.txt"

// A publicModule is one module of the list: what to vet, and the findings
// it must give ("file:line:col category message").
type publicModule struct {
	spec     string // MODULE@VERSION, as listed
	patterns []string
	findings []string
	// everyCheck: the findings only the opt-in checks add
	everyCheck []string
	// unprovable is how many unprovable sites every check counts in the
	// module (a line "\tunprovable: N"), -1 when not recorded: they are
	// not triaged one by one, but a change of the count is read.
	unprovable int
}

// TestPublicModules runs the default analyzer over public modules nobody
// here wrote (job queues, rate limiters, locks, caches, session stores,
// clients, a framework's Redis wrapper with tests on miniredis) and asserts
// exactly the findings triaged by hand in testdata/public/findings.txt.
func TestPublicModules(t *testing.T) {
	vetPublicModules(t, nil, func(string) bool { return true })
}

// TestPublicModulesEveryCheck turns every opt-in check on: the hottag
// check adds no finding to the triaged ones, and neither does any other
// check but unprovable, whose findings say only that keys are not proved
// to share a slot (counted, not triaged).
func TestPublicModulesEveryCheck(t *testing.T) {
	var flags []string
	for _, c := range analyzer.Checks() {
		if c.Flag != "" {
			flags = append(flags, "-crossslot."+c.Flag)
		}
	}
	if len(flags) < 2 {
		t.Fatalf("opt-in flags: %v", flags)
	}
	vetPublicModules(t, flags, func(category string) bool { return category != analyzer.CategoryUnprovable })
}

// vetPublicModules vets each module of the list with the flags and
// compares the findings of the categories asserted with the triaged ones.
func vetPublicModules(t *testing.T, flags []string, asserted func(category string) bool) {
	if os.Getenv("CI") == "" && os.Getenv("CROSSSLOT_PUBLIC_MODULES") == "" {
		t.Skip("downloads and vets the public modules of testdata/public (minutes on a cold module cache): CI runs it, or set CROSSSLOT_PUBLIC_MODULES=1")
	}
	modules := readPublicModules(t)
	if len(modules) < 12 {
		t.Fatalf("only %d modules in %s", len(modules), publicFindings)
	}
	total, counted := 0, map[string]int{}
	for _, m := range modules {
		t.Run(m.spec, func(t *testing.T) {
			var got []string
			unprovable := 0
			defer func() {
				if len(flags) > 0 && m.unprovable >= 0 && unprovable != m.unprovable {
					t.Errorf("%d unprovable sites, %d recorded in %s: read what changed, then record the count", unprovable, m.unprovable, publicFindings)
				}
			}()
			for _, byAnalyzer := range vetJSON(t, fetchModule(t, m.spec), m.patterns, flags...) {
				for _, d := range byAnalyzer["crossslot"] {
					if !asserted(d.Category) {
						counted[d.Category]++
						if d.Category == analyzer.CategoryUnprovable {
							unprovable++
						}
						continue
					}
					got = append(got, relativePosn(d.Posn)+" "+d.Category+" "+d.Message)
				}
			}
			slices.Sort(got)
			got = slices.Compact(got) // a package and its test variant report a finding twice
			want := slices.Clone(m.findings)
			if len(flags) > 0 {
				want = append(want, m.everyCheck...)
			}
			slices.Sort(want)
			for _, g := range got {
				if !slices.Contains(want, g) {
					t.Errorf("new finding, not triaged in %s:\n\t%s", publicFindings, g)
				}
			}
			for _, w := range want {
				if !slices.Contains(got, w) {
					t.Errorf("triaged finding no longer reported:\n\t%s", w)
				}
			}
			total += len(got)
		})
	}
	t.Logf("%d public modules with %v: %d findings, each triaged in %s; counted, not triaged: %v", len(modules), flags, total, publicFindings, counted)
}

// readPublicModules reads the list: module lines, their findings indented
// below them, verdict lines and comments skipped.
func readPublicModules(t *testing.T) []publicModule {
	t.Helper()
	f, err := os.Open(publicFindings)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []publicModule
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "verdict:"):
		case strings.HasPrefix(line, "\t"):
			if len(out) == 0 {
				t.Fatalf("%s: a finding before any module: %q", publicFindings, line)
			}
			m := &out[len(out)-1]
			if f, ok := strings.CutPrefix(trimmed, "every-check: "); ok {
				m.everyCheck = append(m.everyCheck, f)
			} else if n, ok := strings.CutPrefix(trimmed, "unprovable: "); ok {
				count, err := strconv.Atoi(n)
				if err != nil {
					t.Fatalf("%s: %q", publicFindings, line)
				}
				m.unprovable = count
			} else {
				m.findings = append(m.findings, trimmed)
			}
		default:
			spec, pats, _ := strings.Cut(trimmed, "#")
			m := publicModule{spec: spec, patterns: []string{"./..."}, unprovable: -1}
			if pats != "" {
				m.patterns = strings.Split(pats, ",")
			}
			out = append(out, m)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// fetchModule downloads MODULE@VERSION through the module proxy and copies
// it to a writable directory, where go vet may resolve its dependencies.
func fetchModule(t *testing.T, spec string) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", spec).Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v", spec, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "module")
	if err := os.CopyFS(dst, os.DirFS(info.Dir)); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chmod(path, map[bool]os.FileMode{true: 0o755, false: 0o644}[d.IsDir()])
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// relativePosn is a position inside the module copy, from its root.
func relativePosn(posn string) string {
	if _, rest, ok := strings.Cut(posn, string(filepath.Separator)+"module"+string(filepath.Separator)); ok {
		return rest
	}
	return posn
}

// TestPublicModulesStandalone runs the standalone command, which reads
// every package of a run as one program, over each public module: none may
// crash, exit with anything but 0 or 1, or leave a package unchecked, and
// every finding it reports must be one triaged in testdata/public (go vet's
// default findings, or those only every check reports), and it fails where
// go vet fails: on any finding. The time and peak
// memory of each are logged. The modules share one analysis cache, as
// dependencies do on a machine that checks several services.
func TestPublicModulesStandalone(t *testing.T) {
	if os.Getenv("CI") == "" && os.Getenv("CROSSSLOT_PUBLIC_MODULES") == "" {
		t.Skip("downloads and analyzes the public modules of testdata/public (minutes): CI runs it, or set CROSSSLOT_PUBLIC_MODULES=1")
	}
	modules := readPublicModules(t)
	cache := t.TempDir()
	var table strings.Builder
	for _, m := range modules {
		t.Run(m.spec, func(t *testing.T) {
			dir := fetchModule(t, m.spec)
			cmd := exec.Command(crossslotBin, append([]string{"-f", "json"}, m.patterns...)...)
			cmd.Dir, cmd.Env = dir, append(fixtureEnv(), "STATICCHECK_CACHE="+cache)
			r := measured(t, cmd)
			fmt.Fprintf(&table, "%-75s %7.1fs %7d MiB\n", m.spec, r.wall.Seconds(), r.peakRSS/1024)
			if sign := crashed(r); sign != "" {
				t.Fatalf("%q in the output:\n%s", sign, r.stderr)
			}
			if r.code != exitClean && r.code != exitFindings {
				t.Fatalf("exit %d:\n%s", r.code, r.stderr)
			}
			triaged := append(slices.Clone(m.findings), m.everyCheck...)
			dec := json.NewDecoder(strings.NewReader(r.stdout))
			reported := 0
			defer func() {
				// one gate: the run fails on any finding, as go vet does on
				// the module's triaged findings (asynq's onenode ones)
				if want := map[bool]int{true: exitFindings, false: exitClean}[reported > 0]; r.code != want {
					t.Errorf("exit %d with %d findings, want %d", r.code, reported, want)
				}
				if len(m.findings) > 0 && r.code != exitFindings {
					t.Errorf("go vet fails on %d findings; the standalone command exits %d", len(m.findings), r.code)
				}
			}()
			for dec.More() {
				var f finding.Finding
				if err := dec.Decode(&f); err != nil {
					t.Fatalf("reading the findings: %v\n%s", err, r.stdout)
				}
				if f.NotAnalyzed() {
					t.Errorf("not analyzed: %s", f.Message)
					continue
				}
				reported++
				got := fmt.Sprintf("%s:%d:%d %s %s", relativePosn(f.Pos.File), f.Pos.Line, f.Pos.Column, f.Check, f.Message)
				if !slices.Contains(triaged, got) {
					t.Errorf("a finding of the standalone command, not triaged in %s:\n\t%s", publicFindings, got)
				}
			}
		})
	}
	t.Logf("the standalone command over the public modules, one shared analysis cache:\n%s", table.String())
}
