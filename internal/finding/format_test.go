package finding_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/finding"
	"github.com/crossslot/crossslot/internal/finding/findingtest"
)

// notShown says, per format, which fields of a finding it leaves out and
// why. Every other field must appear in the format's output.
var notShown = map[string]map[string]string{
	"text": {
		"Severity":            "text marks only what a directive silenced (\"ignored\"); -fail decides the rest, and the exit code says it",
		"End.*":               "lintcmd's text format gives where a finding starts",
		"Related[0].End.*":    "as End",
		"Fixes[0].Edits[0].*": "a fix is named by its message; go fix and the editor apply it",
	},
	"stylish": {
		"Severity":            "as text",
		"End.*":               "as text",
		"Related[0].End.*":    "as text",
		"Related[0].Pos.File": "stylish gives a related position's line and column under its finding's file, as lintcmd does",
		"Fixes[0].Edits[0].*": "as text",
	},
	"json":  {},
	"sarif": {},
}

func TestEveryFormatShowsEveryField(t *testing.T) {
	f := findingtest.Sample()
	formats := map[string]func(*bytes.Buffer) error{
		"text": func(b *bytes.Buffer) error { return finding.WriteText(b, []finding.Finding{f}, "") },
		"stylish": func(b *bytes.Buffer) error {
			return finding.WriteStylish(b, []finding.Finding{f}, finding.Count([]finding.Finding{f}))
		},
		"json": func(b *bytes.Buffer) error { return finding.WriteJSON(b, []finding.Finding{f}) },
		"sarif": func(b *bytes.Buffer) error {
			return finding.WriteSARIF(b, []finding.Finding{f}, finding.SARIFRun{Tool: "t", Root: "/", Cwd: "/"})
		},
	}
	for name, write := range formats {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, leaf := range findingtest.Leaves(f) {
				if _, why := excused(notShown[name], leaf.Path); why {
					continue
				}
				if !strings.Contains(out, shown(name, leaf)) {
					t.Errorf("%s does not show %s (%v), nor says why in notShown:\n%s", name, leaf.Path, leaf.Value, out)
				}
			}
		})
	}
}

// shown is how a format writes a leaf's value.
func shown(format string, leaf findingtest.Leaf) string {
	switch {
	case leaf.Path == "Severity" && format == "sarif":
		return `"level":"error"`
	case format == "sarif" && strings.HasSuffix(leaf.Path, ".File"):
		return strings.TrimPrefix(fmt.Sprint(leaf.Value), "/") // relative to %SRCROOT%
	}
	return fmt.Sprint(leaf.Value)
}

// excused reports whether a table of fields left out names path, exactly or
// by a prefix ending in ".*".
func excused(table map[string]string, path string) (string, bool) {
	for pattern, why := range table {
		if pattern == path || strings.HasSuffix(pattern, ".*") && strings.HasPrefix(path, strings.TrimSuffix(pattern, "*")) {
			return why, true
		}
	}
	return "", false
}

// TestExcusesHaveReasons keeps the table honest: each field left out says
// why, and names a field that exists.
func TestExcusesHaveReasons(t *testing.T) {
	paths := map[string]bool{}
	for _, leaf := range findingtest.Leaves(findingtest.Sample()) {
		paths[leaf.Path] = true
	}
	for format, table := range notShown {
		for pattern, why := range table {
			if why == "" {
				t.Errorf("%s leaves out %s without saying why", format, pattern)
			}
			found := false
			for p := range paths {
				if _, ok := excused(map[string]string{pattern: why}, p); ok {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s names no field of a finding", format, pattern)
			}
		}
	}
}
