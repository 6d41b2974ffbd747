// Command precision runs the shapes that crossslot leaves alone because
// their client talks to one node, and their twins that it reports, against
// real servers. Functions named oneNode* run on a single node (a plain
// redis-server) and must succeed; good* run on the cluster and must
// succeed; bad* run on the cluster, crossslot reports them, and the cluster
// must refuse them. The single node's address is in $PRECISION_SINGLE_ADDR.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
)

type env struct {
	singleAddr string
	single     *redis.Client
	cluster    *redis.ClusterClient
	rc         *redisc.Cluster
}

// setBatch runs a script on the keys it is given, on the client it is given.
func setBatch(ctx context.Context, s redis.Scripter, keys []string) error {
	return s.Eval(ctx, "redis.call('SET', KEYS[1], 1) return redis.call('SET', KEYS[2], 2)", keys).Err()
}

func oneNodeScriptWrapper(ctx context.Context, e env) error {
	return setBatch(ctx, e.single, []string{"key1", "key2"})
}

func badScriptWrapper(ctx context.Context, e env) error {
	return setBatch(ctx, e.cluster, []string{"key1", "key2"})
}

var both = redis.NewScript("redis.call('INCR', KEYS[1]) return redis.call('INCR', KEYS[2])")

func oneNodeScriptRun(ctx context.Context, e env) error {
	return both.Run(ctx, e.single, []string{"key1", "key2"}).Err()
}

func badScriptRun(ctx context.Context, e env) error {
	return both.Run(ctx, e.cluster, []string{"key1", "key2"}).Err()
}

// newSingle returns a client of one node behind a universal interface.
func newSingle(addr string) redis.UniversalClient {
	return redis.NewClient(&redis.Options{Addr: addr})
}

func oneNodeHelperClient(ctx context.Context, e env) error {
	rdb := newSingle(e.singleAddr)
	defer rdb.Close()
	return rdb.MGet(ctx, "key1", "key2").Err()
}

// service holds its client in a field.
type service struct {
	rdb redis.UniversalClient
}

type singleService struct {
	rdb redis.UniversalClient
}

func newSingleService(addr string) *singleService {
	return &singleService{rdb: redis.NewClient(&redis.Options{Addr: addr})}
}

func oneNodeField(ctx context.Context, e env) error {
	s := newSingleService(e.singleAddr)
	defer s.rdb.Close()
	return s.rdb.MGet(ctx, "key1", "key2").Err()
}

func badField(ctx context.Context, e env) error {
	s := &service{rdb: e.cluster}
	return s.rdb.MGet(ctx, "key1", "key2").Err()
}

// read guards on the client's kind: one command per key on a cluster.
func (s *service) read(ctx context.Context) error {
	if _, ok := s.rdb.(*redis.ClusterClient); ok {
		for _, k := range []string{"key1", "key2"} {
			if err := s.rdb.Get(ctx, k).Err(); err != nil && err != redis.Nil {
				return err
			}
		}
		return nil
	}
	return s.rdb.MGet(ctx, "key1", "key2").Err()
}

func oneNodeGuard(ctx context.Context, e env) error {
	return (&service{rdb: e.single}).read(ctx)
}

func goodGuardOnCluster(ctx context.Context, e env) error {
	return (&service{rdb: e.cluster}).read(ctx)
}

// A guard on another client says nothing of this one.
func badOtherGuard(ctx context.Context, e env) error {
	var other redis.UniversalClient = e.single
	s := &service{rdb: e.cluster}
	if _, ok := other.(*redis.ClusterClient); !ok {
		return s.rdb.MGet(ctx, "key1", "key2").Err()
	}
	return nil
}

// meta runs transactions on its one node; anyMeta on whatever it is given.
type meta struct{ rdb *redis.Client }

func (m *meta) txn(ctx context.Context, f func(*redis.Tx) error, keys ...string) error {
	return m.rdb.Watch(ctx, f, keys...)
}

type anyMeta struct{ rdb redis.UniversalClient }

func (m *anyMeta) txn(ctx context.Context, f func(*redis.Tx) error, keys ...string) error {
	return m.rdb.Watch(ctx, f, keys...)
}

func oneNodeTxHelper(ctx context.Context, e env) error {
	m := &meta{rdb: e.single}
	return m.txn(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "key1")
			p.Incr(ctx, "key2")
			return nil
		})
		return err
	}, "key1")
}

func badTxHelper(ctx context.Context, e env) error {
	m := &anyMeta{rdb: e.cluster}
	return m.txn(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "key1")
			p.Incr(ctx, "key2")
			return nil
		})
		return err
	}, "key1")
}

// Scripts read exactly: their functions, aliases and computed KEYS indexes
// are followed, so correct scripts stay silent and run on the cluster.
var bumpAll = redis.NewScript(`local rcall = redis.call
local function bump(k) rcall('INCR', k) end
bump(KEYS[1])
for i = 1, #ARGV do rcall('SADD', KEYS[i + 1], ARGV[i]) end
return 1`)

func goodLuaFunctions(ctx context.Context, e env) error {
	return bumpAll.Run(ctx, e.cluster, []string{"{q}:n", "{q}:s"}, "a").Err()
}

var ack = redigo.NewScript(1, `for i = 1, #ARGV do redis.call('SREM', KEYS[1], ARGV[i]) end
return redis.call('SCARD', KEYS[1])`)

func goodRedigoArgs(ctx context.Context, e env) error {
	conn := e.rc.Get()
	defer conn.Close()
	if err := redisc.BindConn(conn, "{q}:pending"); err != nil { // the script runs on its key's node
		return err
	}
	ids := []string{"a", "b"}
	args := make([]interface{}, 0, 1+len(ids))
	args = append(args, "{q}:pending")
	for _, id := range ids {
		args = append(args, id)
	}
	_, err := ack.Do(conn, args...)
	return err
}

var scenarios = []struct {
	name string
	run  func(context.Context, env) error
}{
	{"oneNodeScriptWrapper", oneNodeScriptWrapper},
	{"badScriptWrapper", badScriptWrapper},
	{"oneNodeScriptRun", oneNodeScriptRun},
	{"badScriptRun", badScriptRun},
	{"oneNodeHelperClient", oneNodeHelperClient},
	{"oneNodeField", oneNodeField},
	{"badField", badField},
	{"oneNodeGuard", oneNodeGuard},
	{"goodGuardOnCluster", goodGuardOnCluster},
	{"badOtherGuard", badOtherGuard},
	{"oneNodeTxHelper", oneNodeTxHelper},
	{"badTxHelper", badTxHelper},
	{"goodLuaFunctions", goodLuaFunctions},
	{"goodRedigoArgs", goodRedigoArgs},
}

func main() {
	addr := flag.String("addr", "", "a node of a Redis Cluster, host:port")
	flag.Parse()
	single := os.Getenv("PRECISION_SINGLE_ADDR")
	if *addr == "" || single == "" {
		fmt.Fprintln(os.Stderr, "usage: PRECISION_SINGLE_ADDR=host:port precision -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	e := env{
		singleAddr: single,
		single:     redis.NewClient(&redis.Options{Addr: single}),
		cluster:    redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}}),
		rc: &redisc.Cluster{StartupNodes: []string{*addr}, CreatePool: func(address string, opts ...redigo.DialOption) (*redigo.Pool, error) {
			return &redigo.Pool{MaxIdle: 2, IdleTimeout: time.Minute, Dial: func() (redigo.Conn, error) { return redigo.Dial("tcp", address, opts...) }}, nil
		}},
	}
	defer e.single.Close()
	defer e.cluster.Close()
	defer e.rc.Close()
	if err := e.rc.Refresh(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, s := range scenarios {
		if err := s.run(ctx, e); err != nil && !errors.Is(err, redis.Nil) {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\t\n", s.name)
		}
	}
}
