// Package redis stubs github.com/go-redis/redis/v8 for the analyzer's tests:
// the transaction calls, which v8 splits per slot on a cluster.
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

// UniversalOptions and NewUniversalClient: v8 makes a failover client for
// a MasterName, a cluster client for two or more Addrs, else a plain one.
type UniversalOptions struct {
	Addrs      []string
	DB         int
	MasterName string
}

type UniversalClient interface {
	Cmdable
	TxPipeline() Pipeliner
}

func NewUniversalClient(opts *UniversalOptions) UniversalClient { return nil }
