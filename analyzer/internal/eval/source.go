package eval

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
)

// Source is the syntax SSA points back to: call expressions by their '('
// (for receivers and arguments as written), the variable a call's result
// is assigned to (to name the value in messages), and string literals,
// calls and concatenations by their range (for fixes that rewrite a key).
type Source struct {
	Calls    map[token.Pos]*ast.CallExpr
	Assigned map[token.Pos]string // by the call's '(' or the index's '[': acct := drawID(...), from := req["from"]
	Literals map[keymodel.Range]*ast.BasicLit
	Exprs    map[keymodel.Range]ast.Expr
	// Ranges are the range statements that name their key, for the index
	// of a range over an integer, which SSA does not name.
	Ranges []RangeStmt
}

// A RangeStmt is `for Key := range X { Body }`.
type RangeStmt struct {
	Body   keymodel.Range
	Key, X string
}

func IndexSource(files []*ast.File) Source {
	src := Source{Calls: map[token.Pos]*ast.CallExpr{}, Assigned: map[token.Pos]string{},
		Literals: map[keymodel.Range]*ast.BasicLit{}, Exprs: map[keymodel.Range]ast.Expr{}}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && len(n.Rhs) == 1 && len(n.Lhs) > 1 {
					if id, isIdent := n.Lhs[0].(*ast.Ident); isIdent && id.Name != "_" {
						src.Assigned[call.Lparen] = id.Name // ids, err := rdb.SMembers(...): the first result
					}
					break
				}
				if len(n.Lhs) != len(n.Rhs) {
					break
				}
				for i, lhs := range n.Lhs {
					id, isIdent := lhs.(*ast.Ident)
					if !isIdent || id.Name == "_" {
						continue
					}
					switch rhs := ast.Unparen(n.Rhs[i]).(type) {
					case *ast.CallExpr:
						src.Assigned[rhs.Lparen] = id.Name
					case *ast.IndexExpr:
						src.Assigned[rhs.Lbrack] = id.Name
					}
				}
			case *ast.RangeStmt:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name != "_" {
					src.Ranges = append(src.Ranges, RangeStmt{Body: keymodel.RangeOf(n.Body), Key: id.Name, X: types.ExprString(n.X)})
				}
			case *ast.CallExpr:
				src.Calls[n.Lparen] = n
				src.Exprs[keymodel.RangeOf(n)] = n
			case *ast.BinaryExpr:
				src.Exprs[keymodel.RangeOf(n)] = n
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					src.Literals[keymodel.RangeOf(n)] = n
				}
			}
			return true
		})
	}
	return src
}
