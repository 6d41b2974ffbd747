package oneserver

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A function literal handed the client only where a type check ruled a
// cluster client out, and each master's node: SCAN on one node is right.
type scanner struct{ rdb redis.UniversalClient }

func (s *scanner) keysEverywhere(ctx context.Context) {
	scan := func(ctx context.Context, c redis.Cmdable) {
		c.Scan(ctx, 0, "drv:*", 100)
	}
	cc, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		scan(ctx, s.rdb)
		return
	}
	cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		scan(ctx, node)
		return nil
	})
}

// The same literal handed the cluster client itself.
func (s *scanner) keysOnOneNode(ctx context.Context) {
	scan := func(ctx context.Context, c redis.Cmdable) {
		c.Scan(ctx, 0, "drv:*", 100) // want `SCAN on a cluster client runs on one node`
	}
	scan(ctx, s.rdb)
}
