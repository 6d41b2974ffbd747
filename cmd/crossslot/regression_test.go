package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/finding"
)

// regressionSets are the services written by others that the analyzer is
// measured on, labelled case by case (`// case ID: checks`), and the
// bundled example.
func regressionSets(t *testing.T) []string {
	sets := []string{exampleDir}
	for _, pattern := range []string{"../../testdata/fresh/*/go.mod", "../../testdata/blind/*/go.mod"} {
		mods, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mods {
			sets = append(sets, filepath.Dir(m))
		}
	}
	if len(sets) < 8 {
		t.Fatalf("only %d regression sets: %v", len(sets), sets)
	}
	return sets
}

// TestRegressionSets runs the standalone command and go vet over every
// regression set, the hottag check on:
//   - one gate: they fail alike (exit 1 on findings, 0 without);
//   - one bug, one finding: no labelled case holds two findings of one
//     check (its other places are related positions); hottag's stand
//     apart, each command's advice;
//   - safe advice: no fix tells keys of two entities to share one hash tag
//     or proposes a tag the hottag check objects to (unsafeAdvice).
func TestRegressionSets(t *testing.T) {
	if os.Getenv("CI") == "" && os.Getenv("CROSSSLOT_REGRESSION_SETS") == "" {
		t.Skip("analyzes the regression sets twice each (minutes): CI runs it, or set CROSSSLOT_REGRESSION_SETS=1")
	}
	cache := t.TempDir()
	walked, twoEntities := 0, 0
	defer func() {
		if walked < 290 {
			t.Errorf("the advice of %d findings walked, want the services' 290 or more", walked)
		}
		t.Logf("the advice of %d findings walked, %d of them over keys of two entities", walked, twoEntities)
	}()
	for _, set := range regressionSets(t) {
		t.Run(filepath.Base(set), func(t *testing.T) {
			dir := cmdtest.CopyDir(t, set)
			env := append(fixtureEnv(), "STATICCHECK_CACHE="+cache)
			stdout, stderr, cliCode := runIn(t, dir, env, crossslotBin, "-f", "json", "-crossslot.hot-tags", "./...")
			findings := decodeFindings(t, stdout)
			if len(findings) == 0 {
				t.Fatalf("no findings on a set of planted bugs (exit %d):\n%s", cliCode, stderr)
			}
			if cliCode != exitFindings {
				t.Errorf("the standalone command exits %d with %d findings, want %d:\n%s", cliCode, len(findings), exitFindings, stderr)
			}
			vet := exec.Command("go", "vet", "-vettool="+crossslotBin, "-crossslot.hot-tags", "./...")
			vet.Dir, vet.Env = dir, env
			out, err := vet.CombinedOutput()
			vetCode := 0
			if e, ok := err.(*exec.ExitError); ok {
				vetCode = e.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if vetCode != cliCode {
				t.Errorf("go vet exits %d, the standalone command %d: one gate in both\n%s", vetCode, cliCode, out)
			}

			cases := labelledCases(t, dir)
			perBug := map[string][]string{}
			for _, f := range findings {
				if f.NotAnalyzed() {
					t.Errorf("not analyzed: %s", f.Message)
					continue
				}
				id := cases.at(f.Pos)
				for _, r := range f.Related {
					if id != "" {
						break
					}
					id = cases.at(r.Pos)
				}
				if id != "" && f.Check != "hottag" {
					key := id + " " + f.Check
					perBug[key] = append(perBug[key], fmt.Sprintf("%s:%d: %s", filepath.Base(f.Pos.File), f.Pos.Line, f.Message))
				}
			}
			var keys []string
			for k := range perBug {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if fs := perBug[k]; len(fs) > 1 {
					t.Errorf("case %s: %d findings of one bug, want one with the others related:\n\t%s", k, len(fs), strings.Join(fs, "\n\t"))
				}
			}
			bad, n, two := unsafeAdvice(findings)
			for _, b := range bad {
				t.Error(b)
			}
			walked, twoEntities = walked+n, twoEntities+two
			t.Logf("%d findings in %d labelled cases (%d case-checks)", len(findings), len(cases), len(perBug))
		})
	}
}

// A caseSpan is a labelled case: the function holding its label.
type caseSpan struct {
	file       string
	start, end int
	id         string
}

type caseSpans []caseSpan

var caseLabel = regexp.MustCompile(`// case ([A-Z][0-9]+): ([a-z?, ]+)`)

// labelledCases reads the `// case ID: checks` labels of a service's Go
// files; a case spans the function that holds its label.
func labelledCases(t *testing.T, dir string) caseSpans {
	var out caseSpans
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil // not the test's to judge: the analysis reports it
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := caseLabel.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				for _, decl := range f.Decls {
					if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= c.Pos() && c.Pos() < fd.End() {
						out = append(out, caseSpan{path, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line, m[1]})
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// at is the case holding a position, "" for none.
func (cs caseSpans) at(p finding.Position) string {
	for _, c := range cs {
		if sameFile(c.file, p.File) && c.start <= p.Line && p.Line <= c.end {
			return c.id
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ra, _ := filepath.EvalSymlinks(a)
	rb, _ := filepath.EvalSymlinks(b)
	return ra != "" && ra == rb
}
