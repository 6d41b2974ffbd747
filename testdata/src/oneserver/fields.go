package oneserver

import (
	"errors"
	"sync"

	"github.com/redis/go-redis/v9"
)

// A field only ever set from redis.NewClient stays one server when the
// struct is copied with it.
type Store struct {
	rds    redis.UniversalClient
	prefix string
}

func NewStore(addr string) *Store {
	return &Store{rds: redis.NewClient(&redis.Options{Addr: addr})}
}

func (s *Store) WithPrefix(p string) *Store { return &Store{rds: s.rds, prefix: p} }

func (s *Store) Clear() {
	s.rds.Scan(ctx, 0, "x*", 10)
	s.rds.Rename(ctx, "a", "b")
}

// Its twin is also set from a cluster client.
type Mixed struct{ rds redis.UniversalClient }

func NewMixed(addr string) *Mixed { return &Mixed{rds: redis.NewClient(&redis.Options{Addr: addr})} }
func NewMixedCluster(addrs []string) *Mixed {
	return &Mixed{rds: redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})}
}
func (m *Mixed) Copy() *Mixed { return &Mixed{rds: m.rds} }

func (m *Mixed) Clear() {
	m.rds.Scan(ctx, 0, "x*", 10) // want `SCAN on a cluster client runs on one node`
	m.rds.Rename(ctx, "a", "b")  // want `Rename keys "a" \(slot 15495\) and "b" \(slot 3300\)`
}

// A package variable set once, in a sync.Once, to a plain client, and
// returned by a getter (its fact says so to other packages).
var (
	shared redis.Cmdable
	once   sync.Once
)

func Shared() redis.Cmdable { // want Shared:"returns a single-node client"
	once.Do(func() { shared = redis.NewClient(&redis.Options{Addr: "localhost:6379"}) })
	return shared
}

func useShared() {
	Shared().FlushAll(ctx)
	Shared().MGet(ctx, "a", "b")
	shared.Del(ctx, "a", "b")
}

// Its twin is set in init to a plain client and in a setter to anything.
var any redis.Cmdable

func init()                     { any = redis.NewClient(&redis.Options{}) }
func SetClient(c redis.Cmdable) { any = c }

func useAny() {
	any.FlushAll(ctx)       // want `FLUSHALL on a cluster client runs on one node`
	any.MGet(ctx, "a", "b") // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\)`
}

// A variable whose address is passed on may be set by anything.
var addressed redis.Cmdable = redis.NewClient(&redis.Options{})

func fill(c *redis.Cmdable) {}

func useAddressed() {
	fill(&addressed)
	addressed.Del(ctx, "a", "b") // want `Del keys "a" \(slot 15495\) and "b" \(slot 3300\)`
}

// A constructor that refuses a cluster client: what it stores talks to
// one server.
type Queue struct{ rdb redis.UniversalClient }

func NewQueue(c redis.UniversalClient) (*Queue, error) {
	if _, ok := c.(*redis.ClusterClient); ok {
		return nil, errors.New("queue: cluster clients are not supported")
	}
	return &Queue{rdb: c}, nil
}

func (q *Queue) Move() {
	q.rdb.Rename(ctx, "q:ready", "q:done")
	q.rdb.FlushDB(ctx)
}

// One that accepts only a *redis.Client, by a comma-ok assertion.
type Plain struct{ rdb redis.UniversalClient }

func NewPlain(c redis.UniversalClient) (*Plain, error) {
	if _, ok := c.(*redis.Client); !ok {
		return nil, errors.New("only *redis.Client is supported")
	}
	return &Plain{rdb: c}, nil
}

func (p *Plain) Move() { p.rdb.Rename(ctx, "q:ready", "q:done") }

// Its twin only logs the cluster client and keeps it.
type Lenient struct{ rdb redis.UniversalClient }

func NewLenient(c redis.UniversalClient, warn func(string)) *Lenient {
	if _, ok := c.(*redis.ClusterClient); ok {
		warn("cluster clients are not tested")
	}
	return &Lenient{rdb: c}
}

func (l *Lenient) Move() { l.rdb.Rename(ctx, "q:ready", "q:done") } // want `Rename keys "q:ready" \(slot \d+\) and "q:done" \(slot \d+\)`

// A store whose every constructor makes a client of one server (a
// Sentinel group's, or a plain one), through a helper that returns it with
// an error and another that keeps it.
type KV struct{ client redis.UniversalClient }

func NewKV(endpoints []string, master string, cluster bool) (*KV, error) {
	client, err := newKVClient(endpoints, master, cluster)
	if err != nil {
		return nil, err
	}
	return makeKV(client), nil
}

func newKVClient(endpoints []string, master string, cluster bool) (redis.UniversalClient, error) {
	if master != "" {
		cfg := &redis.FailoverOptions{MasterName: master, SentinelAddrs: endpoints}
		if cluster {
			return redis.NewFailoverClusterClient(cfg), nil
		}
		return redis.NewFailoverClient(cfg), nil
	}
	if len(endpoints) > 1 {
		return nil, errors.New("one endpoint only")
	}
	return redis.NewClient(&redis.Options{Addr: endpoints[0]}), nil
}

func makeKV(client redis.UniversalClient) *KV {
	client.ConfigSet(ctx, "notify-keyspace-events", "KEA")
	return &KV{client: client}
}

func (r *KV) keys(pattern string) []string {
	keys, _, _ := r.client.Scan(ctx, 0, pattern, 10).Result()
	return keys
}

func (r *KV) List(dir string) []string { return r.keys(dir + "*") }

func (r *KV) Clear() { r.keys("tmp:*") }

// Its twin keeps a client given from outside beside one it makes.
type KVGiven struct{ client redis.UniversalClient }

func NewKVGiven(c redis.UniversalClient) *KVGiven { return &KVGiven{client: c} }
func NewKVOwn() *KVGiven                          { return &KVGiven{client: redis.NewClient(&redis.Options{})} }

func (r *KVGiven) Clear() {
	r.client.Scan(ctx, 0, "tmp:*", 10) // want `SCAN on a cluster client runs on one node`
}
