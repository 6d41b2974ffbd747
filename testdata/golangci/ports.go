package shop

import "context"

// Mover is a port: adapter.Mover implements it, in a package shop does not
// import; cmd/app wires them, and golangci-lint, which loads the whole
// program, follows the call there.
type Mover interface {
	Move(ctx context.Context, src, dst string) error
}

func checkout(ctx context.Context, m Mover) {
	m.Move(ctx, "cart:7:items", "order:7:items") // golangci: crossslot
	m.Move(ctx, "{order:7}:cart", "{order:7}:items")
}
