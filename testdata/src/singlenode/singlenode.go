package singlenode

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// With -include-single-node, single-node clients are checked too.
func singleNode(ctx context.Context, c *redis.Client, conn *redis.Conn) {
	c.MGet(ctx, "a", "b")   // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots`
	conn.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`
	c.MGet(ctx, "{a}", "{a}b")
}
