// Package coverage has one batch of each kind for the coverage report:
// reported, proved on one slot, and undecided for each reason.
package coverage

import (
	"context"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/redis/go-redis/v9"
)

func batches(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "a", "b") // want `MGet keys "a"`
	rdb.MGet(ctx, "{t}a", "{t}b")
	rdb.MGet(ctx, strings.Fields(os.Getenv("KEYS"))...)
	name := strings.TrimSpace(os.Args[1]) // a command-line argument: a value, not configuration
	rdb.MGet(ctx, name+":a", name+":b")   // want `MGet keys "<name>:a" and "<name>:b" are on different hash slots for every value of name, unless name holds a hash tag`
	id := len(os.Args)
	rdb.MGet(ctx, fmt.Sprintf("x:%d", id), fmt.Sprintf("y:%d", len(os.Environ())))    // want `MGet keys "x:<id>" and "y:<len\(os.Environ\(\)\)>" are on different hash slots for all but about 1 in 16384 pairs of values of id and len\(os.Environ\(\)\)`
	rdb.MGet(ctx, "{"+path.Ext(name)+"}:a", "{"+path.Ext(name)+"}:b")                 // two calls of a function not read: two values
	rdb.MGet(ctx, fmt.Sprintf("{%d}:a", len(name)), fmt.Sprintf("{%d}:b", len(name))) // written the same way: one value, most likely
	rdb.MGet(ctx, "{"+name+"}:a", "{"+name+"}:b")
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "{u}1")
		p.Incr(ctx, "{u}2")
		return nil
	})
	pair(ctx, rdb, "{p}1", "{p}2")
}

func pair(ctx context.Context, rdb *redis.ClusterClient, a, b string) {
	rdb.MGet(ctx, a, b)
}
