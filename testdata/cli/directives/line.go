// Package directives is the standalone command's fixture for staticcheck-style
// directives. A line that must be reported ends with "// reported: CHECK";
// every other line must not be.
package directives

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func lineDirectives(ctx context.Context, rdb redis.UniversalClient) {
	//lint:ignore crossslot both users are on one shard in this deployment
	rdb.MGet(ctx, "user:1:a", "user:2:a")
	rdb.MGet(ctx, "user:3:a", "user:4:a") // reported: crossslot

	//lint:ignore emptytag kept for compatibility with the old key layout
	rdb.Get(ctx, "legacy:{}:a")

	// A directive for another check silences nothing here, and is itself
	// reported as matching nothing.
	//lint:ignore crossslot wrong check name // reported: directive
	rdb.Get(ctx, "legacy:{}:b") // reported: emptytag

	//lint:ignore crossslot,unclosedtag two checks at once
	rdb.MGet(ctx, "user:{5", "user:6:a")
}
