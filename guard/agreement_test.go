package guard_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/guard"
	"github.com/crossslot/crossslot/internal/redistest"
)

// corpus holds command lines with two keys, A and B: every multi-key command
// of the command table, a single-key one, and the empty key.
var corpus = []string{
	"MGET A B", "MSET A 1 B 2", "MSETNX A 1 B 2", "DEL A B", "EXISTS A B", "UNLINK A B", "TOUCH A B",
	"RENAME A B", "RENAMENX A B", "COPY A B", "SMOVE A B m", "RPOPLPUSH A B", "LMOVE A B LEFT RIGHT",
	"BLMOVE A B LEFT RIGHT 0.01", "BRPOPLPUSH A B 0.01", "BLPOP A B 0.01", "BRPOP A B 0.01", "BZPOPMIN A B 0.01",
	"BZPOPMAX A B 0.01", "BLMPOP 0.01 2 A B LEFT", "LMPOP 2 A B LEFT", "ZMPOP 2 A B MIN", "BZMPOP 0.01 2 A B MAX",
	"SINTERCARD 2 A B", "ZINTERCARD 2 A B", "SUNION A B", "SINTER A B", "SDIFF A B", "SUNIONSTORE A B",
	"SINTERSTORE A B", "SDIFFSTORE A B", "ZUNIONSTORE A 1 B", "ZINTERSTORE A 1 B WEIGHTS 2", "ZDIFFSTORE A 1 B",
	"ZUNION 2 A B", "ZINTER 2 A B", "ZDIFF 2 A B", "ZRANGESTORE A B 0 1", "PFCOUNT A B", "PFMERGE A B",
	"BITOP AND A B", "BITOP NOT A B", "EVAL return 2 A B", "EVAL_RO return 2 A B", "FCALL_RO nosuchfunction 2 A B",
	"XREAD STREAMS A B 0 0", "XREAD COUNT 1 STREAMS A B 0 0", "GEOSEARCHSTORE A B FROMLONLAT 0 0 BYRADIUS 1 km",
	"GEORADIUS B 0 0 1 km STORE A", "SORT A STORE B", "LCS A B", "WATCH A B", "GET A", "SET A 1",
	"MGET EMPTY A",
}

// keyPairs are the keys put in for A and B: on two slots, on one (a tag),
// and the empty key (slot 0) with one on slot 0.
var keyPairs = [][2]string{{"a", "b"}, {"{t}a", "{t}b"}, {"", "{}"}, {"", "x"}}

func line(tmpl string, a, b string) []interface{} {
	var args []interface{}
	for _, f := range strings.Fields(tmpl) {
		switch f {
		case "A":
			args = append(args, a)
		case "B":
			args = append(args, b)
		case "EMPTY":
			args = append(args, "")
		default:
			args = append(args, f)
		}
	}
	return args
}

func crossSlot(err error) bool {
	return err != nil && (errors.Is(err, redis.ErrCrossSlot) || strings.Contains(err.Error(), "CROSSSLOT"))
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
	for _, tmpl := range corpus {
		for _, kp := range keyPairs {
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
	for _, kp := range keyPairs {
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
