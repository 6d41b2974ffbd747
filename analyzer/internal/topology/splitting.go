package topology

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A go-redis ClusterClient given a command-info resolver splits some
// multi-key commands by slot (see clients.SplitReads): their keys may cross
// slots. The package's calls of SetCommandInfoResolver say which clients:
// the same value, or any client stored in the same field, or the same
// package variable.

// splitsBySlot reports whether the client of a go-redis call was given a
// resolver somewhere in the package.
func (r *Reader) splitsBySlot(client ssa.Value) bool {
	if r.splitting == nil {
		r.splitting = map[any]bool{}
		for _, fn := range r.funcs {
			for call := range ssaread.CallsIn(fn) {
				if recv, ok := clients.SplittingResolverSet(call.Common()); ok {
					if id, ok := clientIdentity(recv); ok {
						r.splitting[id] = true
					}
					for _, f := range fieldsStoredIn(clients.ClientRoot(recv)) {
						r.splitting[f] = true
					}
				}
			}
		}
	}
	return r.splitClient(client, 0)
}

// splitClient: the client was given a resolver, or comes from a function of
// the package that returns only clients that were (func (e env) splitting()
// *redis.ClusterClient).
func (r *Reader) splitClient(client ssa.Value, depth int) bool {
	if len(r.splitting) == 0 || client == nil || depth > 2 {
		return false
	}
	if id, ok := clientIdentity(client); ok && r.splitting[id] {
		return true
	}
	call, ok := clients.ClientRoot(client).(*ssa.Call)
	if !ok {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg != r.ssaPkg || fn.Blocks == nil {
		return false
	}
	returns := 0
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			if !r.splitClient(ret.Results[0], depth+1) {
				return false
			}
			returns++
		}
	}
	return returns > 0
}

// A structField names a struct field: every value stored in it is one client
// for splitsBySlot.
type structField struct {
	owner string
	index int
}

// clientIdentity is what identifies a client across the package: the field
// or package variable it is loaded from, else the value it comes from.
func clientIdentity(v ssa.Value) (any, bool) {
	root := clients.ClientRoot(v)
	switch r := root.(type) {
	case *ssa.UnOp:
		if r.Op != token.MUL {
			return root, true
		}
		switch x := r.X.(type) {
		case *ssa.FieldAddr:
			return structField{types.TypeString(x.X.Type(), nil), x.Field}, true
		case *ssa.Global:
			return x, true
		}
	case *ssa.Field:
		return structField{types.TypeString(types.NewPointer(r.X.Type()), nil), r.Field}, true
	}
	return root, root != nil
}

// fieldsStoredIn lists the fields a client value is stored into, as itself
// or converted to an interface: &shop{rdb: c} after c got its resolver.
func fieldsStoredIn(v ssa.Value) []structField {
	var out []structField
	if v == nil || v.Referrers() == nil {
		return nil
	}
	values := []ssa.Value{v}
	for _, ref := range *v.Referrers() {
		if mi, ok := ref.(*ssa.MakeInterface); ok {
			values = append(values, mi)
		}
	}
	for _, val := range values {
		if val.Referrers() == nil {
			continue
		}
		for _, ref := range *val.Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Val != val {
				continue
			}
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
				out = append(out, structField{types.TypeString(fa.X.Type(), nil), fa.Field})
			}
		}
	}
	return out
}
