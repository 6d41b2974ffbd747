package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsLinks: every relative link of the README and its pages in docs/
// reaches a file that exists, and every #anchor a heading of its page.
func TestDocsLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	if len(pages) < 4 {
		t.Fatalf("the README's pages in docs/: %v", pages)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := page
			if path != "" {
				file = filepath.Join(filepath.Dir(page), filepath.FromSlash(path))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: the link %s reaches nothing: %v", filepath.Base(page), target, err)
					continue
				}
			}
			if anchor != "" && !headingAnchors(t, file)[anchor] {
				t.Errorf("%s: the link %s names no heading of %s", filepath.Base(page), target, filepath.Base(file))
			}
		}
	}
}

// headingAnchors are the anchors GitHub gives a Markdown file's headings.
func headingAnchors(t *testing.T, file string) map[string]bool {
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fence := false
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
		}
		heading, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if fence || !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}

// readmeMaxLines is the README's budget: a user's guide that walks the
// migration path, with the reference in docs/.
const readmeMaxLines = 400

// TestReadmeLength keeps the README within readmeMaxLines, and its first
// screen with the two commands a fresh clone runs: the analyzer on the
// bundled example, and the tests exactly as .ci/run runs them (less the
// -count=1 and -v CI adds), which docs/testing.md repeats.
func TestReadmeLength(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > readmeMaxLines {
		t.Errorf("README.md has %d lines, more than %d: move reference material to a page in docs/", len(lines), readmeMaxLines)
	}
	screen := strings.Join(lines[:min(len(lines), 30)], "\n")
	const example = "go build -o crossslot ./cmd/crossslot && (cd testdata/example && ../../crossslot ./...)"
	if !strings.Contains(screen, "\n"+example+"\n") {
		t.Errorf("the README's first screen lacks the example's command %q", example)
	}
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\{ (go test .*); \} >`).FindSubmatch(ci)
	if m == nil {
		t.Fatal(".ci/run has no test command of the form { go test ...; } >log")
	}
	command := strings.NewReplacer(" -count=1", "", " -v", "").Replace(string(m[1]))
	if !strings.Contains(screen, "\n"+command+"\n") {
		t.Errorf("the README's first screen lacks the test command .ci/run runs:\n%s", command)
	}
	page, err := os.ReadFile("../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "\n"+command+"\n") {
		t.Errorf("docs/testing.md lacks the test command .ci/run runs:\n%s", command)
	}
}
