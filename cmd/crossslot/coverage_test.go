package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoverageReport runs go vet with -crossslot.coverage on the example
// module and sums the file: every crossslot diagnostic go vet printed is a
// reported batch, the total adds up, and the text shows the reasons.
func TestCoverageReport(t *testing.T) {
	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	diags := vetModule(t, exampleDir, "example.com/shop", "-crossslot.coverage="+file)
	crossslots := 0
	for _, d := range diags {
		if d.Category == "crossslot" {
			crossslots++
		}
	}
	stdout, stderr, code := runIn(t, ".", nil, crossslotBin, "coverage", "-json", file)
	if code != 0 {
		t.Fatalf("crossslot coverage -json: exit %d\n%s", code, stderr)
	}
	var report struct {
		Packages []struct {
			Package                                             string
			Commands, Transactions, Proved, Reported, Undecided int
		}
		Total struct {
			Commands, Transactions, Proved, Reported, Undecided int
			Reasons                                             map[string]int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	var shop bool
	for _, p := range report.Packages {
		if p.Package == "example.com/shop" {
			shop = true
			if p.Reported != crossslots {
				t.Errorf("example.com/shop: %d reported, go vet printed %d crossslot diagnostics", p.Reported, crossslots)
			}
		}
	}
	tot := report.Total
	if !shop || tot.Proved+tot.Reported+tot.Undecided != tot.Commands+tot.Transactions || tot.Proved == 0 || tot.Undecided == 0 {
		t.Errorf("report does not add up: %s", stdout)
	}
	text, _, _ := runIn(t, ".", nil, crossslotBin, "coverage", file)
	if !strings.Contains(text, "total") || !strings.Contains(text, "undecided, by reason:") {
		t.Errorf("text report:\n%s", text)
	}
	if _, _, code := runIn(t, ".", nil, crossslotBin, "coverage"); code != 2 {
		t.Errorf("crossslot coverage without a file: exit %d, want 2", code)
	}
}

// TestCoverageReportNamesPanics: a package left unchecked after an internal
// error is listed with its message and the way to see the stack; the same
// package's other analysis does not hide it.
func TestCoverageReportNamesPanics(t *testing.T) {
	file := filepath.Join(t.TempDir(), "coverage.jsonl")
	lines := `{"package":"example.com/a","commands":2,"proved":2}
{"package":"example.com/b","panics":1,"panic":"runtime error: index out of range [3] with length 3"}
{"package":"example.com/b","commands":1,"reported":1}
`
	if err := os.WriteFile(file, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := coverageReport([]string{file}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "not checked after an internal error of crossslot (set CROSSSLOT_DEBUG=1 to print its stack, and report it):\n" +
		"  example.com/b: runtime error: index out of range [3] with length 3\n"
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("report:\n%s\nwant it to contain:\n%s", stdout.String(), want)
	}
}
