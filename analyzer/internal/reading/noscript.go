package reading

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/crossslot/crossslot/analyzer/internal/readiness"
)

// Harmless reports a cluster problem that the package's own code makes
// harmless: a SCRIPT LOAD where it retries with EVAL (see RetriesWithEval).
// FUNCTION LOAD has no such fallback: an FCALL of a library another node
// lacks fails.
func (r *Package) Harmless(p readiness.ClusterProblem) bool {
	return p.Kind == readiness.OneNode && p.What == "SCRIPT LOAD" && r.RetriesWithEval()
}

// RetriesWithEval reports a package that handles a NOSCRIPT error and sends
// EVAL: code that loads a script with SCRIPT LOAD and, where an EVALSHA of it
// meets a node that does not have it, sends the script itself. On a cluster
// its SCRIPT LOAD reaching one node costs one EVAL on each other node, and
// breaks nothing. It reads the syntax, since the check of the error is
// often a helper of its own (isNoScript(err)) that no client call needs.
func (r *Package) RetriesWithEval() bool {
	if r.scripts.noScriptFallback == nil {
		noScript, eval := false, false
		for _, f := range r.Pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if text, ok := stringConstant(r.Pass.TypesInfo, n); ok {
						noScript = noScript || strings.Contains(strings.ToUpper(text), "NOSCRIPT")
						eval = eval || strings.EqualFold(text, "EVAL") || strings.EqualFold(text, "EVAL_RO")
					}
				case *ast.SelectorExpr:
					if fn, ok := r.Pass.TypesInfo.Uses[n.Sel].(*types.Func); ok && (fn.Name() == "Eval" || fn.Name() == "EvalRO") {
						eval = true
					}
				}
				return !(noScript && eval)
			})
		}
		found := noScript && eval
		r.scripts.noScriptFallback = &found
	}
	return *r.scripts.noScriptFallback
}

func stringConstant(info *types.Info, lit *ast.BasicLit) (string, bool) {
	tv, ok := info.Types[lit]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}
