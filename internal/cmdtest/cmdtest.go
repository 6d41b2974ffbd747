// Package cmdtest runs commands and copies fixture trees for end-to-end
// tests.
package cmdtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Run runs name with args in dir and env and returns its standard output,
// standard error and exit code; a command that cannot start fails the test.
func Run(t testing.TB, dir string, env []string, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.String(), errOut.String(), code
}

// CopyDir copies the regular files of the tree src into a new temporary
// directory and returns it, so tests that change files leave the checkout
// alone.
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// ModuleEnv is the environment for go commands run in a fixture module of
// its own: no enclosing workspace, and downloads through the module proxy
// allowed.
func ModuleEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
}

// Marked reads the Go files of dir for lines ending in "// MARKER: NAME",
// for any of markers, and returns them as "file:line: NAME", sorted: the
// findings a fixture expects.
func Marked(t testing.TB, dir string, markers ...string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixture files in %s: %v", dir, err)
	}
	var res []*regexp.Regexp
	for _, m := range markers {
		res = append(res, regexp.MustCompile(`// `+regexp.QuoteMeta(m)+`: (\w+)$`))
	}
	var want []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, re := range res {
				if m := re.FindStringSubmatch(line); m != nil {
					want = append(want, fmt.Sprintf("%s:%d: %s", filepath.Base(f), i+1, m[1]))
				}
			}
		}
	}
	sort.Strings(want)
	return want
}

// ReadmeRecipe returns the code block that follows the README's
// "<!-- recipe: NAME -->" line, its indentation removed.
func ReadmeRecipe(t testing.TB, readme, name string) string {
	t.Helper()
	// The README's pages (docs/*.md beside it) hold recipes too.
	pages, err := filepath.Glob(filepath.Join(filepath.Dir(readme), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rest string
	ok := false
	for _, page := range append([]string{readme}, pages...) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if _, rest, ok = strings.Cut(string(b), "<!-- recipe: "+name+" -->\n"); ok {
			break
		}
	}
	if !ok {
		t.Fatalf("neither the README nor its pages in docs/ have a recipe %q", name)
	}
	lines := strings.Split(rest, "\n")
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "```") {
		t.Fatalf("recipe %q is not followed by a code block", name)
	}
	var code []string
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "```" {
			return strings.Join(code, "\n") + "\n"
		}
		if len(l) >= indent {
			l = l[indent:]
		}
		code = append(code, l)
	}
	t.Fatalf("recipe %q: the code block does not end", name)
	return ""
}
