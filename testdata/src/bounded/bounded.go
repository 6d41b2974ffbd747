// Package bounded is read under a small bound of work (TestWorkBound):
// early is read in full and reported, deep passes the bound, and nothing
// after it is reported, late included, though it is the same bug as early.
package bounded

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func early(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "a", "b") // want `MGet keys "a" \(slot 15495\) and "b" \(slot 3300\) are on different hash slots`
}

func k1(id string) string { return "user:" + k2(id) }
func k2(id string) string { return k3(id) + ":" }
func k3(id string) string { return k4(id) + "x" }
func k4(id string) string { return k5(id) + "y" }
func k5(id string) string { return k6(id) + "z" }
func k6(id string) string { return k7(id) + "w" }
func k7(id string) string { return k8(id) + "v" }
func k8(id string) string { return id + "u" }

func deep(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, k1("1")+"a", k1("1")+"b")
}

func late(ctx context.Context, rdb *redis.ClusterClient) {
	rdb.MGet(ctx, "a", "b")
}
