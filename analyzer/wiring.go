package analyzer

import (
	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
)

// A finding on a client that the wiring decides (see reading.WiringOf) is
// judged where the client is given, not where the command is. deferral is
// the layer of pass.Report that holds such findings back: wiringUnit, the
// first unit of every event, tells it which client the event's findings
// are about; a finding of a check that only a cluster has is deferred to
// the wiring, and the rest (a malformed tag is malformed on every server)
// is reported.
type deferral struct {
	reading *reading.Package
	current reading.Wiring
	// setting: the finding being reported holds while this option, which
	// code out of sight may set, stays at its default (see
	// unitPass.reportOnSetting).
	setting string
	report  func(analysis.Diagnostic)
}

// install puts the layer under pass.Report; the directives' layer goes on
// top of it, so a finding a directive silences is never deferred.
func (d *deferral) install(pass *analysis.Pass) {
	d.report = pass.Report
	pass.Report = func(diag analysis.Diagnostic) {
		if d.reading != nil && clusterOnly(diag.Category) && d.reading.Defer(d.current, d.setting, diag) {
			return
		}
		d.report(diag)
	}
}

// clusterOnly: the check's findings are problems of a cluster only.
func clusterOnly(category string) bool {
	switch category {
	case CategoryEmptyTag, CategoryDoubleTag, CategoryUnclosedTag, CategoryDirective:
		return false
	}
	return true
}

// wiringUnit tells the deferral the client of each event.
type wiringUnit struct {
	hooks
	d *deferral
}

func (u wiringUnit) Key(c *reading.Command, _ keymodel.Arg) { u.d.current = c.Wired }
func (u wiringUnit) Command(c *reading.Command)             { u.d.current = c.Wired }
func (u wiringUnit) Transaction(t *reading.Transaction)     { u.d.current = t.Wired }
func (u wiringUnit) ClientMade(*reading.ClientMade)         { u.d.current = nil }
func (u wiringUnit) Forwarded(*reading.Forwarded)           { u.d.current = nil }
