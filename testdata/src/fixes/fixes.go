// Package fixes pins the co-location fix: offered when every key is a literal
// of one entity, left out otherwise.
package fixes

import (
	"context"

	"github.com/redis/go-redis/v9"
)

const settings = "user:1:settings"

func entityKeys(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "user:1:profile", "user:1:settings")                           // want `MGet keys "user:1:profile" \(slot \d+\) and "user:1:settings" \(slot \d+\) are on different hash slots`
	rdb.Rename(ctx, `cart:42:items`, "cart:42:items.bak")                        // want `Rename keys`
	rdb.Del(ctx, []string{"order:7:lines", "order:7:total", "order:7:lines"}...) // want `Del keys`
	rdb.MSet(ctx, "acct:9:name", "ann", "acct:9:mail", "a@b")                    // want `MSet keys`
}

func noFix(ctx context.Context, rdb *redis.ClusterClient, cond bool) {
	// Different entities: one tag would pile them on one slot.
	rdb.MGet(ctx, "user:1:a", "user:2:a") // want `MGet keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\)`
	// Shared part without a type: "user" alone is not an entity.
	rdb.MGet(ctx, "user:1", "user:2") // want `MGet keys "user:1" \(slot 10778\) and "user:2" \(slot 6777\)`
	// A key from a constant: rewriting it would not change the constant's other uses.
	rdb.MGet(ctx, "user:1:profile", settings) // want `MGet keys`
	// Keys in a slice built before the call: its literals may feed other calls.
	keys := []string{"order:7:lines", "order:7:total"}
	rdb.Del(ctx, keys...) // want `Del keys`
	// No separator at all.
	rdb.MGet(ctx, "src", "dst") // want `MGet keys`
	// A key that already has a tag.
	rdb.MGet(ctx, "{user:1}:profile", "user:1:x:settings") // want `MGet keys`
	// Several values for one key.
	other := "user:1:b"
	if cond {
		other = "user:1:c"
	}
	rdb.MGet(ctx, "user:1:a", other) // want `MGet keys`
}
