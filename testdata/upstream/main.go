// Command upstream reproduces CROSSSLOT bugs that public Go projects had
// and fixed, each minimized to keep the original's shape (struct fields set
// in a constructor, key helpers, batches built in loops, Lua scripts). A
// function named bad* is the code before the fix: a three-master cluster
// refuses it. The good* function beside it is the fixed code, which the
// cluster accepts. CORPUS.md lists the sources. Run-time values are drawn
// at run time; where a bad* call would by chance put its keys on one slot
// (about 1 in 16384), drawApart draws again, and drawOtherNode does where a
// script's own keys must be on another node to be refused.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

type env struct {
	rdb *redis.ClusterClient
	ru  rueidis.Client
}

// drawApart draws an id for which the server puts the two keys build makes
// on different slots.
func (e env) drawApart(ctx context.Context, build func(id string) (string, string)) string {
	for {
		id := newID()
		a, b := build(id)
		sa, _ := e.rdb.ClusterKeySlot(ctx, a).Result()
		sb, _ := e.rdb.ClusterKeySlot(ctx, b).Result()
		if sa != sb {
			return id
		}
	}
}

// drawOtherNode draws an id for which another master serves the second
// key's slot than the first's. A script's undeclared key is refused (as a
// "non local key") only then: Redis 7.0 does not check the slots of the
// keys a script builds itself, only that this node serves them.
func (e env) drawOtherNode(ctx context.Context, build func(id string) (string, string)) string {
	shards, err := e.rdb.ClusterSlots(ctx).Result()
	if err != nil {
		panic(err)
	}
	nodeOf := func(key string) string {
		slot, _ := e.rdb.ClusterKeySlot(ctx, key).Result()
		for _, s := range shards {
			if int64(s.Start) <= slot && slot <= int64(s.End) {
				return s.Nodes[0].Addr
			}
		}
		return ""
	}
	for {
		id := newID()
		a, b := build(id)
		if nodeOf(a) != nodeOf(b) {
			return id
		}
	}
}

// newID draws a run-time value: an id, a name, a token.
func newID() string { return strconv.FormatUint(rand.Uint64(), 36) }

var scenarios = []struct {
	name string
	run  func(context.Context, env) error
}{
	// shape 1: key names built once and kept in struct fields
	{"badDelayQueuePending2Ready", badDelayQueuePending2Ready},
	{"goodDelayQueuePending2Ready", goodDelayQueuePending2Ready},
	{"badRmqConsume", badRmqConsume},
	{"goodRmqConsume", goodRmqConsume},
	{"badLimitersTokenBucketSetState", badLimitersTokenBucketSetState},
	{"goodLimitersTokenBucketSetState", goodLimitersTokenBucketSetState},
	{"badRueidisprobBloomAdd", badRueidisprobBloomAdd},
	{"goodRueidisprobBloomAdd", goodRueidisprobBloomAdd},
	{"badSocketioShardedSubscribe", badSocketioShardedSubscribe},
	{"goodSocketioShardedSubscribe", goodSocketioShardedSubscribe},
	// shape 2: two ids, or one value at the start of two keys
	{"badGiteaRegenerate", badGiteaRegenerate},
	{"goodGiteaRegenerate", goodGiteaRegenerate},
	{"badChproxyPut", badChproxyPut},
	{"goodChproxyPut", goodChproxyPut},
	{"badGoZeroDelCache", badGoZeroDelCache},
	{"goodGoZeroDelCache", goodGoZeroDelCache},
	{"badAsynqDequeueSingle", badAsynqDequeueSingle},
	{"goodAsynqDequeue", goodAsynqDequeue},
	// shape 3: batches built in loops
	{"badDelayQueueGarbageCollect", badDelayQueueGarbageCollect},
	{"goodDelayQueueGarbageCollect", goodDelayQueueGarbageCollect},
	{"badLimitersTokenBucketState", badLimitersTokenBucketState},
	{"goodLimitersTokenBucketState", goodLimitersTokenBucketState},
	{"badMoiraTriggersByTags", badMoiraTriggersByTags},
	{"goodMoiraTriggersByTags", goodMoiraTriggersByTags},
	{"badLokiMGet", badLokiMGet},
	{"goodLokiMGet", goodLokiMGet},
	// shape 4: keys that came back from KEYS/SCAN
	{"badProxyCacheDelWildcard", badProxyCacheDelWildcard},
	{"goodProxyCacheDelWildcard", goodProxyCacheDelWildcard},
	// shape 5: Lua scripts
	{"badOneHubTokenRate", badOneHubTokenRate},
	{"goodOneHubTokenRate", goodOneHubTokenRate},
	{"badRedislockLock", badRedislockLock},
	{"goodRedislockLock", goodRedislockLock},
	{"badAsynqDequeueScript", badAsynqDequeueScript},
}

// run runs one scenario and says how it went; a panic (rueidis's cluster
// builder refuses keys on different slots so) is an error.
func run(ctx context.Context, e env, f func(context.Context, env) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f(ctx, e)
}

func main() {
	addr := flag.String("addr", "", "a node of a Redis Cluster, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: upstream -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	e := env{rdb: redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})}
	defer e.rdb.Close()
	ru, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{*addr}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "upstream:", err)
		os.Exit(1)
	}
	e.ru = ru
	defer e.ru.Close()
	for _, s := range scenarios {
		if err := run(ctx, e, s.run); err != nil && !errors.Is(err, redis.Nil) && !rueidis.IsRedisNil(err) {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\t\n", s.name)
		}
	}
}
