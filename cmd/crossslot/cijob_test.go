package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/cmdtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

// A ciStep is one step of a GitHub Actions job, as the README writes it.
type ciStep struct {
	uses, run, cond string
	with            map[string]string
}

// ciSteps reads the steps of a job written in the subset of YAML the
// README uses: "- uses:" or "- run:" items, an "if:", and "with:" keys.
func ciSteps(t *testing.T, yaml string) []ciStep {
	var steps []ciStep
	inSteps, inWith := false, false
	for _, line := range strings.Split(yaml, "\n") {
		trimmed := strings.TrimSpace(line)
		if i := strings.Index(trimmed, " #"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		switch {
		case trimmed == "steps:":
			inSteps = true
		case !inSteps || trimmed == "":
		case strings.HasPrefix(trimmed, "- "):
			steps = append(steps, ciStep{with: map[string]string{}})
			inWith = false
			trimmed = strings.TrimPrefix(trimmed, "- ")
			fallthrough
		default:
			key, value, _ := strings.Cut(trimmed, ":")
			value = strings.Trim(strings.TrimSpace(value), `"`)
			if len(steps) == 0 {
				t.Fatalf("a step key before any step: %q", line)
			}
			st := &steps[len(steps)-1]
			switch {
			case key == "uses":
				st.uses = value
			case key == "run":
				st.run = value
			case key == "if":
				st.cond = value
			case key == "with":
				inWith = true
			case inWith:
				st.with[key] = value
			default:
				t.Fatalf("unexpected key in %q", line)
			}
		}
	}
	return steps
}

// TestReadmeCIJob runs the README's GitHub Actions job in a copy of the
// example, as GitHub would: the repository's checkout is the copy, the
// second checkout a link to this repository, setup-go the Go installed,
// each run step a bash step with the install directory on PATH, and a failed step
// skips the later ones that do not ask to run after a failure. The upload
// reads the SARIF file. The job must upload the example's findings and fail.
func TestReadmeCIJob(t *testing.T) {
	redistest.Slow(t)
	t.Parallel() // independent, and slow on a cold cache: overlaps the others' waits
	if runtime.GOOS == "windows" {
		t.Skip("the job runs on ubuntu-latest")
	}
	root := repoRoot(t)
	steps := ciSteps(t, readmeRecipe(t, "github-actions"))
	if len(steps) < 6 {
		t.Fatalf("%d steps: %+v", len(steps), steps)
	}
	work := cmdtest.CopyDir(t, exampleDir)
	// setup-go puts $(go env GOPATH)/bin on PATH; GOBIN stands in for it,
	// keeping the module cache.
	bin := t.TempDir()
	env := append(fixtureEnv(), "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	failed, uploaded := false, 0
	for _, st := range steps {
		if failed && !strings.Contains(st.cond, "failure()") && !strings.Contains(st.cond, "always()") {
			t.Logf("skipped after a failure: %s%s", st.uses, st.run)
			continue
		}
		switch {
		case st.uses == "actions/checkout@v4" && st.with["repository"] == "":
			// the copy of the example is the repository's checkout
		case st.uses == "actions/checkout@v4" && st.with["repository"] == "crossslot/crossslot":
			if err := os.Symlink(root, filepath.Join(work, st.with["path"])); err != nil {
				t.Fatal(err)
			}
		case st.uses == "actions/setup-go@v5":
			if v := runtime.Version(); !strings.HasPrefix(v, "go"+st.with["go-version"]) {
				t.Fatalf("setup-go asks for Go %s; the tests run %s", st.with["go-version"], v)
			}
		case st.uses == "github/codeql-action/upload-sarif@v3":
			b, err := os.ReadFile(filepath.Join(work, st.with["sarif_file"]))
			if err != nil {
				t.Fatalf("upload: %v", err)
			}
			var sarif struct {
				Runs []struct {
					Results []struct{ RuleID string }
				}
			}
			if err := json.Unmarshal(b, &sarif); err != nil || len(sarif.Runs) != 1 {
				t.Fatalf("upload: not a SARIF log of one run: %v\n%.300s", err, b)
			}
			uploaded = len(sarif.Runs[0].Results)
		case st.run != "":
			stdout, stderr, code := runIn(t, work, env, "bash", "-e", "-c", st.run)
			t.Logf("run: %s: exit %d", st.run, code)
			if code != 0 {
				failed = true
				if !strings.HasPrefix(st.run, "crossslot ./...") {
					t.Errorf("step %q failed: exit %d\n%s%s", st.run, code, stdout, stderr)
				} else if !strings.Contains(stdout+stderr, `MGet keys "user:1:a" (slot 323)`) {
					t.Errorf("the last step failed without listing the findings:\n%s%s", stdout, stderr)
				}
			}
		default:
			t.Fatalf("a step the test does not know: %+v", st)
		}
	}
	if uploaded < 20 {
		t.Errorf("uploaded %d results, want the example's findings", uploaded)
	}
	if !failed {
		t.Error("the job did not fail on the example's findings")
	}
}
