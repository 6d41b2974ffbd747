package analyzer

import (
	_ "embed"
	"strings"
)

// analysisDoc derives Analyzer.Doc from doc.go, so -help and the package
// documentation say the same: the "# Analyzer crossslot" section, without its
// "crossslot: " prefix, and its examples.
func analysisDoc() string {
	sections := docSections()
	text := strings.Replace(sections["Analyzer crossslot"], "crossslot: ", "", 1)
	return text + "\n\n# Examples\n\n" + sections["Examples"]
}

// A Check documents one category of findings; the standalone command uses
// it as a check (for -checks, -explain and //lint:ignore).
type Check struct {
	Name  string // the diagnostic category, e.g. "emptytag"
	Title string // one line, e.g. "a key's hash tag is empty, so the whole key is hashed"
	Text  string // what it means and how to fix it, with examples
}

// Checks returns the documentation of every category, from doc.go's
// "# Check NAME" sections, in the order doc.go gives them.
func Checks() []Check {
	sections := docSections()
	var checks []Check
	for _, name := range []string{CategoryCrossSlot, CategoryEmptyTag, CategoryDoubleTag, CategoryUnclosedTag, CategoryUnprovable,
		CategoryScriptSlot, CategoryUndeclaredKey, CategoryMissingKey, CategoryHotTag,
		CategoryDatabase, CategorySortPattern, CategoryOneNode, CategoryShardedPubSub} {
		text := sections["Check "+name]
		title, body, _ := strings.Cut(text, "\n\n")
		checks = append(checks, Check{Name: name, Title: strings.TrimPrefix(title, name+": "), Text: body})
	}
	return checks
}

// docSections splits doc.go's package comment at its "# " headings and
// returns each section's text, comment markers removed, by heading.
func docSections() map[string]string {
	sections := map[string]string{}
	heading := ""
	var b strings.Builder
	flush := func() {
		if heading != "" {
			sections[heading] = strings.Trim(b.String(), "\n")
		}
		b.Reset()
	}
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "//") {
			break // the comment ends at "package analyzer"
		}
		line = strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		if h, ok := strings.CutPrefix(line, "# "); ok {
			flush()
			heading = h
			continue
		}
		b.WriteString(line + "\n")
	}
	flush()
	return sections
}

//go:embed doc.go
var doc string
