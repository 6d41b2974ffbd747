package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/clustertarget"
)

// A unitKind makes a check unit for one package.
type unitKind struct {
	new func(*unitPass) reading.Visitor
}

func units(kinds ...*unitKind) []*unitKind { return kinds }

// A unitPass is what every unit is given for one package: the shared
// reading, the configuration, and the coverage report it adds to.
type unitPass struct {
	view
	pass      *analysis.Pass
	source    *eval.Source // the syntax, where fixes find what to edit
	cfg       *Config
	target    clustertarget.Target // the package's: the flag's or its crossslot.conf's
	coverage  *Coverage
	inventory *Inventory                    // -crossslot.inventory's: the package's key uses
	builders  map[*types.Func]*ast.FuncDecl // made when a fix first needs them
	deferral  *deferral
}

func (p *unitPass) report(d analysis.Diagnostic) { p.pass.Report(d) }

// reportOnSetting reports a finding that holds while an option stays at
// its default, setting naming the option when code out of sight may set it
// (see eval.World.Setting): the deferral judges it where that code is.
func (p *unitPass) reportOnSetting(setting string, d analysis.Diagnostic) {
	p.withSetting(setting, func() { p.pass.Report(d) })
}

// withSetting runs report, whose findings hold on setting (see
// reportOnSetting).
func (p *unitPass) withSetting(setting string, report func()) {
	if p.deferral != nil {
		p.deferral.setting = setting
		defer func() { p.deferral.setting = "" }()
	}
	report()
}

// keyBuilders are the package's functions, where a fix may find a key's
// template (see templateFix).
func (p *unitPass) keyBuilders() map[*types.Func]*ast.FuncDecl {
	if p.builders == nil {
		p.builders = keyBuilders(p.pass.Files, p.pass.TypesInfo)
	}
	return p.builders
}

// reportInScript reports at a line of the script: in the Go string literal that
// writes it (at want, or the line's first non-blank character), in the
// embedded .lua file, or else at the call. Away from the call, the call is
// related information: a script may serve several calls.
func (p *unitPass) reportInScript(src reading.ScriptSource, line int, want string, site *clients.Site, category, msg string) {
	call := site.CallPos()
	pos := call.Pos
	switch {
	case src.Lit != nil && !strings.Contains(src.Lit.Value, `\`):
		if off, ok := lineOffset(src.Lit.Value[1:len(src.Lit.Value)-1], line, want); ok {
			pos = src.Lit.Pos() + 1 + token.Pos(off)
		}
	case src.File != "":
		if off, ok := lineOffset(src.Text, line, want); ok {
			tf := p.pass.Fset.AddFile(src.File, -1, len(src.Text))
			tf.SetLinesForContent([]byte(src.Text))
			pos = tf.Pos(off)
		}
	}
	d := analysis.Diagnostic{Pos: pos, Category: category, Message: msg}
	if pos != call.Pos {
		d.Related = []analysis.RelatedInformation{{Pos: call.Pos, End: call.End, Message: "the script runs here"}}
	}
	p.report(d)
}

// lineOffset is the offset of want on a 1-based line of text (its first
// non-blank character when want is "" or not there).
func lineOffset(text string, line int, want string) (int, bool) {
	off := 0
	for range line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text) - off
	}
	l := text[off : off+end]
	if want != "" {
		if i := strings.Index(l, want); i >= 0 {
			return off + i, true
		}
	}
	return off + len(l) - len(strings.TrimLeft(l, " \t")), true
}

// hooks are the reading's events a unit does not use: each unit embeds it
// and overrides its own.
type hooks struct{}

func (hooks) Key(*reading.Command, keymodel.Arg)  {}
func (hooks) Command(*reading.Command)            {}
func (hooks) Transaction(*reading.Transaction)    {}
func (hooks) ClientMade(made *reading.ClientMade) {}
func (hooks) Forwarded(*reading.Forwarded)        {}

// checkUnits are the units of one run, in the order of the table of checks:
// every event of the reading goes to each of them in turn.
type checkUnits []reading.Visitor

func (us checkUnits) Key(c *reading.Command, k keymodel.Arg) {
	for _, u := range us {
		u.Key(c, k)
	}
}

func (us checkUnits) Command(c *reading.Command) {
	for _, u := range us {
		u.Command(c)
	}
}

func (us checkUnits) Transaction(t *reading.Transaction) {
	for _, u := range us {
		u.Transaction(t)
	}
}

func (us checkUnits) ClientMade(m *reading.ClientMade) {
	for _, u := range us {
		u.ClientMade(m)
	}
}

func (us checkUnits) Forwarded(f *reading.Forwarded) {
	for _, u := range us {
		u.Forwarded(f)
	}
}

// eachNode is the fix for a keyspace-wide command, by client library.
var eachNode = map[clients.Library]string{
	clients.GoRedis: "run it on each master with ForEachMaster",
	clients.Rueidis: "run it on each node of the client's Nodes()",
	clients.Redigo:  "run it on a connection to each master",
	clients.Glide:   "run it with a standalone client (glide.NewClient) on each primary",
}
