// Package store holds a key builder and a wrapper, so that the fixture shows
// facts crossing packages under golangci-lint.
package store

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Cart is a key builder.
func Cart(id int) string { return fmt.Sprintf("cart:%d", id) }

// Pair reads two keys with one MGET.
func Pair(ctx context.Context, rdb redis.UniversalClient, a, b string) error {
	return rdb.MGet(ctx, a, b).Err()
}
