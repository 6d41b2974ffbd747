// Package budget bounds the work of reading one package, so that no code,
// however it recurses, can make the analysis overflow its stack or run for
// minutes.
//
// Every cycle of calls among the readers (the evaluator, the summaries, the
// topology, the clients' sites) passes through a function that enters the
// package's Work first; a test of the analyzer's own call graph keeps it
// so. Entering fails past a depth of nested entries or past a total of
// entries for the package. A reader whose entry fails treats the value it
// was asked for as unknown, and once an entry has failed the package is
// exhausted: the rest of it is not read and nothing more is reported from
// it, so a bound never becomes the ground of a finding.
package budget

// The bounds. MaxDepth is far beyond the nesting real code needs (the
// deepest seen on the regression sets and public modules is 29 entries)
// and far below what fills a goroutine's stack. MaxSteps is about fifty
// times the most any package seen takes (85,452 entries, rueidiscompat).
// They are variables so that the analyzer's tests can make a bound small.
var (
	MaxDepth = 600
	MaxSteps = 4_000_000
)

// Work counts the entries of one package's reading. The zero value is ready
// to use.
type Work struct {
	depth, steps int
	// Where is what the first failed entry was reading (a function's
	// name), for the coverage report.
	Where     string
	exhausted bool
	reading   string
}

// Enter starts one nested step of reading; it reports false, and counts
// nothing, when the work is over a bound or was before. Every true Enter is
// followed by one Leave.
func (w *Work) Enter() bool {
	if w.exhausted {
		return false
	}
	if w.depth >= MaxDepth || w.steps >= MaxSteps {
		w.exhausted, w.Where = true, w.reading
		return false
	}
	w.depth++
	w.steps++
	return true
}

// Leave ends the step the last true Enter started.
func (w *Work) Leave() { w.depth-- }

// Exhausted reports whether an entry failed: what was read after it is
// unknown.
func (w *Work) Exhausted() bool { return w != nil && w.exhausted }

// Reading names what is being read now (a function), for Where.
func (w *Work) Reading(name string) { w.reading = name }
