package analyzer

import (
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/crossslot/crossslot/clustertarget"
)

// The flag's usage: its values are package clustertarget's.
const targetUsage = "what runs the cluster, for what it refuses besides CROSSSLOT (SORT patterns, databases, a proxy's splits): " +
	clustertarget.Accepted + "; when not given, the nearest crossslot.conf's target line (see the README)"

// targetOf is the target of a package's code: the flag's, else the nearest
// crossslot.conf's to the package's directory, else target.Latest. A file
// that cannot be read, or a bad target in it, is an error of the run, as a
// bad flag is.
func targetOf(pass *analysis.Pass, cfg *Config) (clustertarget.Target, error) {
	if cfg.Target.Given || len(pass.Files) == 0 {
		return cfg.Target.Target, nil
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	return cfg.Target.For(filepath.Dir(name))
}
