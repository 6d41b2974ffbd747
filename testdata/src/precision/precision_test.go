package precision

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"precision/store"
)

// Tests mostly run on one server or miniredis: a client the test does not
// prove to be a cluster client is not checked.
func TestOnOneServer(t *testing.T) {
	ctx := context.Background()
	rdb := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: strings.Split(os.Getenv("REDIS_ADDRS"), ",")})
	rdb.MGet(ctx, "key1", "key2")
	store.SetBatch(ctx, rdb, []string{"key1", "key2"})
	store.NewShared(rdb).GetMany(ctx, "key1", "key2")
	newService(rdb).read(ctx)
	var any redis.UniversalClient
	any.Del(ctx, "key1", "key2")
	_, _ = any.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "key1")
		p.Incr(ctx, "key2")
		return nil
	})
}

// A test that makes a cluster client is checked.
func TestOnCluster(t *testing.T) {
	ctx := context.Background()
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"localhost:7000"}})
	cluster.MGet(ctx, "key1", "key2")                      // want `MGet keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	store.SetBatch(ctx, cluster, []string{"key1", "key2"}) // want `EvalSha keys "key1" \(slot 9189\) and "key2" \(slot 4998\) are on different hash slots in store.SetBatch`
	universal := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:7000", "localhost:7001"}})
	universal.Del(ctx, "key1", "key2") // want `Del keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	_, _ = universal.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "key1")
		p.Incr(ctx, "key2") // want `TxPipelined keys "key1" \(slot 9189, Incr\) and "key2" \(slot 4998, Incr\) are on different hash slots`
		return nil
	})
	failover := redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:7000", "localhost:7001"}, MasterName: "m"})
	failover.Del(ctx, "key1", "key2")
}

// A cluster client a test reads from a package variable or a field that the
// package fills with one (through another holder, too) is a cluster client:
// the test is checked, though its own body names no cluster.
var (
	sharedCluster redis.UniversalClient
	sharedAgain   redis.UniversalClient
	sharedServer  redis.UniversalClient
)

func init() {
	sharedCluster = redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"localhost:7000"}})
	sharedAgain = sharedCluster
	sharedServer = redis.NewClient(&redis.Options{Addr: "localhost:6379"})
}

type suite struct{ rdb redis.Cmdable }

func newSuite() *suite {
	return &suite{rdb: redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{"localhost:7000", "localhost:7001"}})}
}

func TestThroughHolders(t *testing.T) {
	ctx := context.Background()
	sharedCluster.MGet(ctx, "key1", "key2") // want `MGet keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	sharedAgain.Del(ctx, "key1", "key2")    // want `Del keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	newSuite().rdb.Del(ctx, "key1", "key2") // want `Del keys "key1" \(slot 9189\) and "key2" \(slot 4998\)`
	sharedServer.Del(ctx, "key1", "key2")
}
