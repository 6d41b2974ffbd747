package readiness

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/clients"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// A command that is the problem whatever its arguments (KEYS, FLUSHDB) on a
// client that may or may not be a cluster's is reported, unless the call
// is not the code's own: it passes on what its function was given
// (Forwards), or it is a mock's recording of a command (Records).

// Forwards reports a call that passes on what its function was given: a
// text argument (or a builder method's, for rueidis) is, or starts with, a
// parameter of the enclosing function other than its receiver and a
// context, as a key its callers fill does. A library's Keys(pattern)
// method, a mock's ExpectKeys(prefix+"*"): the command is its callers',
// which may or may not hold a cluster client. A pattern with text of its
// own before the parameter ("sess:"+user+":*") is the function's, judged
// where it is built; so is a SCAN whose cursor or count alone is a
// parameter.
func Forwards(site *clients.Site) bool {
	return len(ForwardedParams(site.Common.Args[site.RecvArgs():])) > 0
}

// ForwardedParams are the parameters of the enclosing functions, other than
// a method's receiver, a context and numbers (a cursor, a count), that the
// values are or start with: through conversions, a captured variable, a
// variadic argument's elements, a builder's chain and the left operand of
// +, but not through text built before them.
func ForwardedParams(start []ssa.Value) []*ssa.Parameter {
	values := slices.Clone(start)
	var params []*ssa.Parameter
	seen := map[ssa.Value]bool{}
	for len(values) > 0 {
		v := values[len(values)-1]
		values = values[:len(values)-1]
		if v == nil || seen[v] {
			continue
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Parameter:
			fn := v.Parent()
			if fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == v {
				continue // the receiver: the library's own object
			}
			if isContext(v.Type()) || isNumber(v.Type()) {
				continue
			}
			params = append(params, v)
		case *ssa.FreeVar:
			values = append(values, ssaread.ClosureBindings(v)...) // what the enclosing function captured
		case *ssa.UnOp:
			if v.Op == token.MUL {
				values = append(values, v.X) // a captured variable's load
			}
		case *ssa.MakeInterface:
			values = append(values, v.X)
		case *ssa.ChangeType:
			values = append(values, v.X)
		case *ssa.Convert:
			values = append(values, v.X)
		case *ssa.Slice:
			values = append(values, v.X)
		case *ssa.BinOp:
			if v.Op == token.ADD {
				values = append(values, v.X) // what the text starts with
			}
		case *ssa.Call:
			// a builder's chain (a static method's receiver is its first
			// argument; the client an interface's B() is called on is not
			// followed); not fmt.Sprintf or strings.Join, which build text
			if fn := v.Call.StaticCallee(); fn != nil && fn.Signature.Recv() != nil && fn.Pkg != nil && clients.IsClientCode(fn.Pkg.Pkg.Path()) {
				values = append(values, v.Call.Args...)
			}
		case *ssa.Alloc:
			for _, ref := range *v.Referrers() {
				if ia, ok := ref.(*ssa.IndexAddr); ok {
					for _, use := range *ia.Referrers() {
						if st, ok := use.(*ssa.Store); ok && st.Addr == ia {
							values = append(values, st.Val) // a variadic argument's elements
						}
					}
				}
			}
		}
	}
	return params
}

// isNumber: a number, as a SCAN's cursor and count are.
func isNumber(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// isContext reports a context.Context.
func isContext(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context"
}

// Records reports a call whose command object is kept in a struct field
// rather than read: a mock that builds expected commands (redismock's
// e.cmd = m.factory.FlushAll(ctx)), not code that runs them.
func Records(site *clients.Site) bool {
	v, ok := site.Call.(*ssa.Call)
	if !ok {
		return false
	}
	values := []ssa.Value{v}
	for len(values) > 0 {
		x := values[0]
		values = values[1:]
		if x.Referrers() == nil {
			continue
		}
		for _, ref := range *x.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if _, field := ref.Addr.(*ssa.FieldAddr); field && ref.Val == x {
					return true
				}
			case *ssa.MakeInterface: // stored as a redis.Cmder
				values = append(values, ref)
			case *ssa.ChangeInterface:
				values = append(values, ref)
			}
		}
	}
	return false
}
