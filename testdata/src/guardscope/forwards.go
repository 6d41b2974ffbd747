package guardscope

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A function that sends KEYS with its caller's pattern on the client it is
// given: judged at each call, where a check of that client decides.
func keysOf(ctx context.Context, c redis.UniversalClient, pattern string) []string {
	return c.Keys(ctx, pattern).Val()
}

type Sweeper struct{ rdb redis.UniversalClient }

func NewSweeper(rdb redis.UniversalClient) *Sweeper { return &Sweeper{rdb: rdb} }

func (s *Sweeper) sweep(ctx context.Context) []string {
	if _, ok := s.rdb.(*redis.ClusterClient); ok {
		return nil
	}
	return keysOf(ctx, s.rdb, "tmp:*")
}

func (s *Sweeper) Sweep(ctx context.Context) []string {
	return keysOf(ctx, s.rdb, "tmp:*") // want `keysOf sends KEYS .* on a client that may be a cluster client`
}

// A function that sends its caller's keys in one MGET: the same.
func pairOf(ctx context.Context, c redis.UniversalClient, a, b string) {
	c.MGet(ctx, a, b)
}

func (s *Sweeper) pair(ctx context.Context) {
	if _, ok := s.rdb.(*redis.ClusterClient); !ok {
		pairOf(ctx, s.rdb, "a:1", "b:2")
	}
}

func (s *Sweeper) Pair(ctx context.Context) {
	pairOf(ctx, s.rdb, "a:1", "b:2") // want `MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
}

// On a client made for one server, the function's MGET is judged only
// where a check ruled a cluster client in.
type LocalSweeper struct{ rdb redis.UniversalClient }

func NewLocalSweeper(addr string) *LocalSweeper {
	return &LocalSweeper{rdb: redis.NewClient(&redis.Options{Addr: addr})}
}

func (s *LocalSweeper) Pair(ctx context.Context) {
	if _, ok := s.rdb.(*redis.ClusterClient); ok {
		pairOf(ctx, s.rdb, "a:1", "b:2") // want `MGet keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
	}
	pairOf(ctx, s.rdb, "a:1", "b:2")
}
