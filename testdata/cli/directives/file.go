//lint:file-ignore doubletag the {tenant}:{user} layout is deliberate here

package directives

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func fileDirective(ctx context.Context, rdb redis.UniversalClient) {
	rdb.Get(ctx, "{acme}:{7}:profile")
	rdb.Get(ctx, "{acme}:{8}:profile")
	rdb.Del(ctx, "cart:9", "orders:9") // reported: crossslot
}
