package guard_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/guard"
	"github.com/crossslot/crossslot/internal/guardtest"
	"github.com/crossslot/crossslot/internal/redistest"
)

// line is a corpus line as go-redis's Do takes it.
func line(tmpl string, a, b string) []interface{} {
	var args []interface{}
	for _, f := range guardtest.Line(tmpl, a, b) {
		args = append(args, f)
	}
	return args
}

func crossSlot(err error) bool {
	return errors.Is(err, redis.ErrCrossSlot) || guardtest.CrossSlot(err)
}

// TestSameVerdictAsTheCluster sends the corpus, transactions and scripts to
// a guarded client of a plain redis-server and to the cluster-enabled one:
// the guard must refuse exactly what the cluster refuses.
func TestSameVerdictAsTheCluster(t *testing.T) {
	plainAddr, clusterAddr := redistest.PlainAddr(t), redistest.Addr(t)
	ctx := context.Background()
	guarded := redis.NewClient(&redis.Options{Addr: plainAddr, ReadTimeout: 5 * time.Second})
	guarded.AddHook(guard.New(guard.Options{}))
	cluster := redis.NewClient(&redis.Options{Addr: clusterAddr, ReadTimeout: 5 * time.Second})
	defer guarded.Close()
	defer cluster.Close()

	compare := func(what string, g, c error) {
		t.Helper()
		if crossSlot(g) != crossSlot(c) {
			t.Errorf("%s: guarded single node says %v, the cluster says %v", what, g, c)
		}
	}
	checked, refused := 0, 0
	for _, tmpl := range guardtest.Corpus {
		for _, kp := range guardtest.KeyPairs {
			args := line(tmpl, kp[0], kp[1])
			g := guarded.Do(ctx, args...).Err()
			c := cluster.Do(ctx, args...).Err()
			compare(fmt.Sprint(args...), g, c)
			checked++
			if crossSlot(c) {
				refused++
			}
		}
	}
	for _, kp := range guardtest.KeyPairs {
		tx := func(rdb *redis.Client) error {
			_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, kp[0], "1", 0)
				p.Ping(ctx)
				p.Incr(ctx, kp[1])
				return nil
			})
			return err
		}
		compare("TxPipelined SET "+kp[0]+", INCR "+kp[1], tx(guarded), tx(cluster))
		script := redis.NewScript("return #KEYS")
		compare("Script.Run "+kp[0]+" "+kp[1], script.Run(ctx, guarded, []string{kp[0], kp[1]}).Err(), script.Run(ctx, cluster, []string{kp[0], kp[1]}).Err())
		checked += 2
	}
	t.Logf("%d commands, transactions and scripts: the guarded single node and the cluster agree on each (%d refused)", checked, refused)
}
