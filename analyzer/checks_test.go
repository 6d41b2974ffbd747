package analyzer

import "testing"

// TestDocSection: the section finder that makes the analyzer's Doc at start
// gives each section as the full split does.
func TestDocSection(t *testing.T) {
	sections := docSections()
	if len(sections) < 10 {
		t.Fatalf("doc.go has %d sections; the split is broken", len(sections))
	}
	for heading, want := range sections {
		if got := docSection(heading); got != want {
			t.Errorf("docSection(%q) = %.80q..., want %.80q...", heading, got, want)
		}
	}
	if got := docSection("No such heading"); got != "" {
		t.Errorf("docSection of a missing heading = %q, want empty", got)
	}
}
