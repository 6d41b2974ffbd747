package reading

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/topology"
)

// Tests mostly run on one server or on miniredis (which answers cluster
// commands but checks no slots), where any keys may be combined: a finding
// whose call is in a _test.go file, directly or at a wrapper's call, is
// reported only when the client there is proved to be a cluster client.
// Config.IncludeTests reports them all.

// testOffCluster reports a call at pos in a _test.go file whose client is
// not proved to talk to a cluster, which is then not checked.
func (r *Package) testOffCluster(pos token.Pos, client ssa.Value) bool {
	if r.Options.IncludeTests || !strings.HasSuffix(r.Pass.Fset.Position(pos).Filename, "_test.go") {
		return false
	}
	return !r.topo.Is(client, topology.Cluster)
}

// clusterMentions tells which bodies may hold a client proved to be a
// cluster client (see provedCluster and allOrigins): those that name what a
// proof starts from (clients.StartsClusterProof), or read a holder, a field
// or package variable that some assignment of the package fills with an
// expression that does, directly or through another holder. Nothing else
// can be proved a cluster client.
type clusterMentions struct {
	info    *types.Info
	starts  map[types.Object]bool
	holders map[*types.Var]bool
}

func newClusterMentions(pass *analysis.Pass) *clusterMentions {
	m := &clusterMentions{info: pass.TypesInfo, starts: map[types.Object]bool{}, holders: map[*types.Var]bool{}}
	type fill struct {
		holder *types.Var
		value  ast.Expr
	}
	var fills []fill // every assignment to a field or package variable
	add := func(target ast.Expr, value ast.Expr) {
		if v, ok := heldIn(m.info, target); ok && value != nil {
			fills = append(fills, fill{v, value})
		}
	}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					add(lhs, valueOf(n.Rhs, i))
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					add(name, valueOf(n.Values, i))
				}
			case *ast.CompositeLit:
				t := m.info.TypeOf(n)
				if t == nil {
					return true
				}
				st, ok := t.Underlying().(*types.Struct)
				if !ok {
					return true
				}
				for i, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						add(kv.Key, kv.Value)
					} else if i < st.NumFields() {
						fills = append(fills, fill{st.Field(i), elt})
					}
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fills {
			if !m.holders[f.holder] && m.in(f.value) {
				m.holders[f.holder] = true
				changed = true
			}
		}
	}
	return m
}

// in: the syntax n names what a cluster proof starts from, or reads a
// holder.
func (m *clusterMentions) in(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		obj := m.info.Uses[id]
		if obj == nil {
			return true
		}
		if v, ok := obj.(*types.Var); ok && m.holders[v] {
			found = true
			return false
		}
		starts, seen := m.starts[obj]
		if !seen {
			starts = clients.StartsClusterProof(obj)
			m.starts[obj] = starts
		}
		found = starts
		return !found
	})
	return found
}

// valueOf is what the i-th target of an assignment is given: its own value,
// or the one call that gives them all; nil for none.
func valueOf(values []ast.Expr, i int) ast.Expr {
	switch {
	case i < len(values) && len(values) > 1:
		return values[i]
	case len(values) == 1:
		return values[0]
	}
	return nil
}

// heldIn is the field or package variable an assignment to e fills.
func heldIn(info *types.Info, e ast.Expr) (*types.Var, bool) {
	var v *types.Var
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ = info.ObjectOf(e).(*types.Var)
	case *ast.SelectorExpr:
		v, _ = info.ObjectOf(e.Sel).(*types.Var)
	}
	return v, v != nil && (v.IsField() || v.Pkg() != nil && v.Parent() == v.Pkg().Scope())
}
