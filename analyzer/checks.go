package analyzer

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

// checks is the table of checks. Each row is one diagnostic category: its
// documentation is doc.go's "# Check NAME" section, and the front ends take
// from this table the check names (-checks, -explain, //lint:ignore, SARIF
// rules), which checks fail a run by default, the opt-in flags and their
// golangci-lint settings, and the rows of the readiness summary. A row names
// the units that report it: a unit is one file of this package, with its own
// state for one package, run over the package's shared reading (see run).
// The order of the rows is the order of the documentation and of the
// reports of one call: a command's keys, then the command, check by check.
var checks = []check{
	{Name: CategoryCrossSlot, Targets: "every target; behind a proxy (`azure-enterprise`, `redis-software`) DEL, EXISTS, MGET, MSET, TOUCH and UNLINK are split, not refused", Units: units(crossSlotCommands, crossSlotTransactions), Error: true, Readiness: true},
	{Name: CategoryEmptyTag, Units: units(tagProblems), Error: true},
	{Name: CategoryDoubleTag, Units: units(tagProblems), Error: true},
	{Name: CategoryUnclosedTag, Units: units(tagProblems), Error: true},
	{Name: CategoryUnprovable, Units: units(unprovableBatches), OptIn: &optIn{Flag: "strict", On: func(c *Config) *bool { return &c.Strict },
		Usage: "also report (check unprovable) multi-key commands and transactions whose keys are not proved to share a slot"}},
	{Name: CategoryScriptSlot, Units: units(scriptKeys), Error: true},
	{Name: CategoryUndeclaredKey, Units: units(scriptKeys), Error: true},
	{Name: CategoryMissingKey, Units: units(scriptKeys), Error: true},
	{Name: CategoryHotTag, Units: units(hotTags), OptIn: &optIn{Flag: "hot-tags", On: func(c *Config) *bool { return &c.HotTags },
		Usage: "also report (check hottag) keys whose hash tag is one constant while a per-entity value sits outside it, putting every entity on one slot"}},
	{Name: CategoryDatabase, Targets: "every target; `valkey:9.0:dbN` and later accept databases 0 to N-1", Units: units(clusterProblems), Error: true, Readiness: true},
	{Name: CategorySortPattern, Targets: "every target, by release: before `redis:7.4` and `valkey:8.0` every pattern; from them a pattern off the sorted key's slot; GET # accepted from `redis:7.4.2` and `valkey:8.1`", Units: units(clusterProblems), Error: true, Readiness: true},
	{Name: CategoryOneNode, Targets: "every target but a proxy, which runs them on every shard; on `valkey:9.1` the fix names CLUSTERSCAN", Units: units(clusterProblems), Error: true, Readiness: true},
	{Name: CategoryShardedPubSub, Units: units(shardedChannels), Error: true, Readiness: true},
	{Name: CategoryKeyspace, Units: units(keyspaceNotifications), Error: true, Readiness: true},
	{Name: CategoryRingShard, Units: units(crossSlotCommands, crossSlotTransactions), Error: true},
	{Name: CategoryDirective}, // reported as the directives are read (see honourIgnores), by no unit
}

// A check is one row of the table.
type check struct {
	Name  string
	Units []*unitKind
	// Error: what the check finds fails on a cluster (CROSSSLOT, or another
	// error) or silently does something else there (a command that runs on
	// one node of several, a tag that does not co-locate): its findings
	// are errors, not warnings, in every front end (the editor, SARIF, the
	// standalone command's formats). The warnings are the opt-in checks'
	// (a batch not proved, a tag that crowds one slot) and the directives'.
	// Every finding fails a run, an error or a warning, in every front end
	// alike (go vet and golangci-lint fail on any; the standalone
	// command's -fail narrows it).
	Error bool
	// Readiness: the check is a row of `crossslot readiness`.
	Readiness bool
	// OptIn is the flag that turns the check on; nil when it is on by
	// default.
	OptIn *optIn
	// Targets says on which targets (-crossslot.target) the check applies
	// and how it changes with them; "" is every target alike.
	Targets string
}

// An optIn is a check's flag (and golangci-lint setting, of the same name).
type optIn struct {
	Flag  string
	Usage string
	On    func(*Config) *bool
}

// enabled reports whether the configuration runs the check.
func (c check) enabled(cfg *Config) bool {
	return c.OptIn == nil || *c.OptIn.On(cfg)
}

// newCheckUnits makes the units of the checks the configuration enables,
// each once, in the order of the table.
func newCheckUnits(p *unitPass) checkUnits {
	var out checkUnits
	made := map[*unitKind]bool{}
	for _, c := range checks {
		if !c.enabled(p.cfg) {
			continue
		}
		for _, kind := range c.Units {
			if !made[kind] {
				made[kind] = true
				out = append(out, kind.new(p))
			}
		}
	}
	return out
}

// A Check documents one category of findings; the standalone command uses
// it as a check (for -checks, -explain and //lint:ignore).
type Check struct {
	Name  string // the diagnostic category, e.g. "emptytag"
	Title string // one line, e.g. "a key's hash tag is empty, so the whole key is hashed"
	Text  string // what it means and how to fix it, with examples
	// Error: its findings fail the standalone command's run by default.
	Error bool
	// Readiness: it is a row of `crossslot readiness`.
	Readiness bool
	// Flag is the analyzer flag (and golangci-lint setting) that turns it
	// on, "" when it is on by default.
	Flag string
	// Targets says how the check follows -crossslot.target: "every
	// target", or how the rule changes by release and proxy.
	Targets string
}

// Checks returns every check, documented by doc.go's "# Check NAME"
// sections, in the order of the table.
func Checks() []Check { return slices.Clone(documentedChecks()) }

// documentedChecks is computed on first use, not at start: go vet starts the
// tool once per package of the build, and most of those runs never read
// the documentation.
var documentedChecks = sync.OnceValue(func() []Check {
	sections := docSections()
	var out []Check
	for _, c := range checks {
		text := sections["Check "+c.Name]
		title, body, _ := strings.Cut(text, "\n\n")
		doc := Check{Name: c.Name, Title: strings.TrimPrefix(title, c.Name+": "), Text: body, Error: c.Error, Readiness: c.Readiness, Targets: c.Targets}
		if doc.Targets == "" {
			doc.Targets = "every target"
		}
		if c.OptIn != nil {
			doc.Flag = c.OptIn.Flag
		}
		out = append(out, doc)
	}
	return out
})

// analysisDoc derives Analyzer.Doc from doc.go, so -help and the package
// documentation say the same: the "# Analyzer crossslot" section, without its
// "crossslot: " prefix, and its examples.
var analysisDoc = sync.OnceValue(func() string {
	text := strings.Replace(docSection("Analyzer crossslot"), "crossslot: ", "", 1)
	return text + "\n\n# Examples\n\n" + docSection("Examples")
})

// docSection is one section of doc.go's package comment, as docSections
// gives it, found without splitting the rest: the analyzer's Doc is made
// in every run of the tool.
func docSection(heading string) string {
	start := strings.Index(doc, "\n// # "+heading+"\n")
	if start < 0 {
		return ""
	}
	body := doc[start+len("\n// # "+heading+"\n"):]
	if end := strings.Index(body, "\n// # "); end >= 0 {
		body = body[:end+1]
	} else if end := strings.Index(body, "\npackage "); end >= 0 {
		body = body[:end+1]
	}
	var b strings.Builder
	b.Grow(len(body))
	for line := range strings.Lines(body) {
		if !strings.HasPrefix(line, "//") {
			break
		}
		b.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "//"), " "))
	}
	return strings.Trim(b.String(), "\n")
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
