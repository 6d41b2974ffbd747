package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/readiness"
	"github.com/crossslot/crossslot/analyzer/internal/reading"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
	"github.com/crossslot/crossslot/internal/luascript"
)

// A view is what the checks ask of the reading besides its events
// (reading.Visitor): whether two keys differ, what a client talks to, and
// what a script sends.
type view interface {
	Differ(x, y keymodel.Arg) (keymodel.Difference, bool)
	TopologyAt(site *clients.Site) topology.Topology
	Undecided(site *clients.Site) bool
	TaglessSetting(fn *ssa.Function, keys []keymodel.Arg) string
	DatabaseSetting(db ssa.Value) string
	SetterSetting(fn *ssa.Function, keys []keymodel.Arg) string
	Harmless(p readiness.ClusterProblem) bool
	ReadScript(site *clients.Site) (reading.ScriptSource, *luascript.Script, bool)
	TouchedKeys(site *clients.Site, script *luascript.Script, declared []keymodel.Arg) []reading.ScriptKey
	BuilderResult(fn *types.Func) ([]keymodel.Key, bool)
}
