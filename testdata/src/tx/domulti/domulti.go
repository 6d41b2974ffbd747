// Package domulti sends MULTI ... EXEC with DoMulti, its commands built in a
// loop between them.
package domulti

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

func stock(sku string) string           { return "stock:" + sku }
func cartStock(cart, sku string) string { return "cart:{" + cart + "}:stock:" + sku }

// Restock increments each SKU's stock in one transaction: two SKUs' keys
// are on two slots.
func Restock(ctx context.Context, c valkey.Client, delivery map[string]int64) {
	cmds := make([]valkey.Completed, 0, len(delivery)+2)
	cmds = append(cmds, c.B().Multi().Build())
	for sku := range delivery {
		cmds = append(cmds, c.B().Incr().Key(stock(sku)).Build()) // want `^DoMulti keys "stock:<sku>" \(INCR\) and "stock:<sku>" \(INCR\) for two different elements of a loop are on different hash slots`
	}
	cmds = append(cmds, c.B().Exec().Build())
	c.DoMulti(ctx, cmds...)
}

// RestockCart keeps one cart's keys under its tag: one slot.
func RestockCart(ctx context.Context, c valkey.Client, cart string, skus []string) {
	cmds := []valkey.Completed{c.B().Multi().Build()}
	for _, sku := range skus {
		cmds = append(cmds, c.B().Incr().Key(cartStock(cart, sku)).Build())
	}
	cmds = append(cmds, c.B().Exec().Build())
	c.DoMulti(ctx, cmds...)
}

// Touch is the same over rueidis, a slice of SKUs.
func Touch(ctx context.Context, c rueidis.Client, skus []string) {
	cmds := rueidis.Commands{c.B().Multi().Build()}
	for _, sku := range skus {
		cmds = append(cmds, c.B().Incr().Key("seen:"+sku).Build()) // want `^DoMulti keys "seen:<skus\[i\]>" \(INCR\) and "seen:<skus\[i\]>" \(INCR\) for two different elements of a loop are on different hash slots`
	}
	cmds = append(cmds, c.B().Exec().Build())
	c.DoMulti(ctx, cmds...)
}

// Pipelined sends the loop's commands without MULTI: a pipeline.
func Pipelined(ctx context.Context, c rueidis.Client, skus []string) {
	var cmds rueidis.Commands
	for _, sku := range skus {
		cmds = append(cmds, c.B().Incr().Key("seen:"+sku).Build())
	}
	c.DoMulti(ctx, cmds...)
}
