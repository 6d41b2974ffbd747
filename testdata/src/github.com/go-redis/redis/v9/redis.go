// Package redis stubs github.com/go-redis/redis/v9, the path of go-redis
// v9's betas and release candidates (before the module moved to
// github.com/redis/go-redis/v9), for the analyzer's tests: the transaction
// calls, which those versions split per slot on a cluster.
package redis

import "context"

type Cmder interface{ Err() error }

type cmd struct{}

func (cmd) Err() error { return nil }

type (
	IntCmd    struct{ cmd }
	StatusCmd struct{ cmd }
)

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Incr(ctx context.Context, key string) *IntCmd    { return nil }
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd { return nil }

type Cmdable interface {
	Incr(ctx context.Context, key string) *IntCmd
	Del(ctx context.Context, keys ...string) *IntCmd
}

type Pipeliner interface {
	Cmdable
	Exec(ctx context.Context) ([]Cmder, error)
}

type ClusterClient struct{ cmdable }

func (c *ClusterClient) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c *ClusterClient) TxPipeline() Pipeliner { return nil }
