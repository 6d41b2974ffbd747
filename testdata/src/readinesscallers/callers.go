// Package readinesscallers: a client the package makes only for one
// server, or a Sentinel group, is one node wherever it is passed; a command
// a mock keeps in a field runs nothing.
package readinesscallers

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

type store struct{ client redis.UniversalClient }

func newClient(endpoints []string, sentinel, clusterOfReplicas bool) (redis.UniversalClient, error) {
	if sentinel && clusterOfReplicas {
		return redis.NewFailoverClusterClient(&redis.FailoverOptions{MasterName: "m"}), nil
	}
	if sentinel {
		return redis.NewFailoverClient(&redis.FailoverOptions{MasterName: "m"}), nil
	}
	if len(endpoints) > 1 {
		return nil, errors.New("one endpoint only")
	}
	return redis.NewClient(&redis.Options{Addr: endpoints[0]}), nil
}

// New is what users call; makeStore is called from here only.
func New(ctx context.Context, endpoints []string) (*store, error) {
	client, err := newClient(endpoints, false, false)
	if err != nil {
		return nil, err
	}
	return makeStore(ctx, client), nil
}

func makeStore(ctx context.Context, client redis.UniversalClient) *store {
	client.ConfigSet(ctx, "notify-keyspace-events", "KEA")
	client.Keys(ctx, "*")
	return &store{client: client}
}

// MakeStore is exported: callers elsewhere may pass a cluster client.
func MakeStore(ctx context.Context, client redis.UniversalClient) *store {
	client.ConfigSet(ctx, "notify-keyspace-events", "KEA") // want `CONFIG SET notify-keyspace-events on a cluster client configures one node`
	return &store{client: client}
}

// A field set to a Sentinel group's client, or to one server's.
type provider struct{ db redis.UniversalClient }

func newProvider(sentinel bool) *provider {
	if sentinel {
		return &provider{db: redis.NewFailoverClusterClient(&redis.FailoverOptions{MasterName: "m"})}
	}
	return &provider{db: redis.NewClient(&redis.Options{Addr: "a:6379"})}
}

func (p *provider) count(ctx context.Context) int {
	return len(p.db.Keys(ctx, "session:*").Val())
}
