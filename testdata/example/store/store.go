// Package store wraps multi-key commands. Its callers' keys reach the
// commands through parameters; crossslot checks the callers as if they
// called the client.
package store

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Pair reads two keys with one MGET.
func Pair(ctx context.Context, rdb redis.UniversalClient, a, b string) error {
	return rdb.MGet(ctx, a, b).Err()
}

// DelAll deletes its keys with one DEL.
func DelAll(ctx context.Context, rdb redis.UniversalClient, keys ...string) error {
	return rdb.Del(ctx, keys...).Err()
}

// Archive renames a key to key + ":archived": one slot only if it is tagged.
func Archive(ctx context.Context, rdb redis.UniversalClient, key string) error {
	if err := rdb.Set(ctx, key, "x", 0).Err(); err != nil {
		return err
	}
	return rdb.Rename(ctx, key, key+":archived").Err()
}
