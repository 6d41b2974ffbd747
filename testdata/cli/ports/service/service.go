// Package service is the core of a service laid out as ports and adapters:
// it keeps its orders through Store, a port, and imports no Redis client;
// main wires the adapter (redisstore) in.
package service

import (
	"context"
	"fmt"
)

// Store is the port: redisstore.Store implements it, in a package this one
// does not import.
type Store interface {
	MoveItems(ctx context.Context, src, dst string) error
	Snapshot(ctx context.Context, keys ...string) ([]any, error)
	Log(ctx context.Context, line string) error
}

type Orders struct{ store Store }

func New(store Store) *Orders { return &Orders{store: store} }

// Checkout moves a cart's items to its order: two entities, two slots.
func (o *Orders) Checkout(ctx context.Context, cartID, orderID int) error {
	return o.store.MoveItems(ctx, fmt.Sprintf("cart:%d:items", cartID), fmt.Sprintf("order:%d:items", orderID)) // reported: crossslot
}

// Reorder keeps both keys on one order's tag.
func (o *Orders) Reorder(ctx context.Context, orderID int) error {
	return o.store.MoveItems(ctx, fmt.Sprintf("order:{%d}:items", orderID), fmt.Sprintf("order:{%d}:old", orderID))
}

// Totals reads two constant keys of two entities in one call.
func (o *Orders) Totals(ctx context.Context) ([]any, error) {
	return o.store.Snapshot(ctx, "stats:orders", "stats:carts") // reported: crossslot
}

// Reports reads the keys of one tag.
func (o *Orders) Reports(ctx context.Context) ([]any, error) {
	return o.store.Snapshot(ctx, "{stats}:orders", "{stats}:carts")
}

// Audit passes a line to a method that takes no key.
func (o *Orders) Audit(ctx context.Context, line string) error {
	return o.store.Log(ctx, line)
}

// Archive is silenced where it is.
func (o *Orders) Archive(ctx context.Context, orderID int) error {
	//crossslot:ignore crossslot the archive runs on a single server
	return o.store.MoveItems(ctx, fmt.Sprintf("order:%d:items", orderID), fmt.Sprintf("archive:%d:items", orderID))
}
