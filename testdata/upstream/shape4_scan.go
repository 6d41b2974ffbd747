package main

// Shape 4: keys that came back from KEYS or SCAN, passed to a multi-key
// command (delete by pattern).

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// ---------------------------------------------------------------------------
// Source: github.com/fabiocicerchia/go-proxy-cache,
// cache/engine/client/client_wildcard.go (DelWildcard, deleteKeys,
// doDeleteKeys); fix PR https://github.com/fabiocicerchia/go-proxy-cache/pull/155
// ("added redis cluster support": KEYS per shard with ForEachShard, then DEL
// key by key). Shape 4. Bug: purging a URL pattern ran KEYS pattern and one
// DEL of every key that came back. The circuit breaker around each call and
// the purge lock are left out.

// RedisClient is go-proxy-cache's client.
type proxyRedisClient struct {
	Client redis.UniversalClient
	Name   string
}

// execute stands for circuitbreaker.CB(rdb.Name, rdb.logger).Execute.
func execute(fn func() (interface{}, error)) (interface{}, error) {
	return fn()
}

// DelWildcard removes the matching keys based on a pattern, before the fix.
func (rdb *proxyRedisClient) DelWildcard(ctx context.Context, key string) (int, error) {
	k, err := execute(func() (interface{}, error) {
		keys, err := rdb.Client.Keys(ctx, key).Result()
		return keys, err
	})
	if err != nil {
		return 0, nil
	}

	return rdb.deleteKeys(ctx, key, k.([]string))
}

func (rdb *proxyRedisClient) deleteKeys(ctx context.Context, keyID string, keys []string) (int, error) {
	l := len(keys)
	if l == 0 {
		return 0, nil
	}

	_, errDel := execute(rdb.doDeleteKeys(ctx, keyID, keys))

	return l, errDel
}

func (rdb *proxyRedisClient) doDeleteKeys(ctx context.Context, keyID string, keys []string) func() (interface{}, error) {
	return func() (interface{}, error) {
		err := rdb.Client.Del(ctx, keys...).Err()
		return nil, err
	}
}

// DelWildcardFixed removes the matching keys based on a pattern, after the fix.
func (rdb *proxyRedisClient) DelWildcardFixed(ctx context.Context, key string) (int, error) {
	if rdb.Client.ClusterSlots(ctx).Err() == nil {
		return rdb.deleteClusterKeys(ctx, key)
	}
	k, err := execute(func() (interface{}, error) {
		keys, err := rdb.Client.Keys(ctx, key).Result()
		return keys, err
	})
	if err != nil {
		return 0, nil
	}
	return rdb.deleteKeysFixed(ctx, key, k.([]string))
}

func (rdb *proxyRedisClient) deleteClusterKeys(ctx context.Context, key string) (int, error) {
	clusterClient := rdb.Client.(*redis.ClusterClient)
	deletedKeys := 0

	err := clusterClient.ForEachShard(ctx, func(ctx context.Context, client *redis.Client) error {
		_, err := execute(func() (interface{}, error) {
			keys, err := client.Keys(ctx, key).Result()
			if err != nil {
				return nil, err
			}
			deletedKeysByNode, err := rdb.deleteKeysFixed(ctx, key, keys)
			if err == nil {
				deletedKeys += deletedKeysByNode
			}
			return nil, err
		})
		return err
	})
	if err != nil {
		return 0, err
	}

	return deletedKeys, nil
}

func (rdb *proxyRedisClient) deleteKeysFixed(ctx context.Context, keyID string, keys []string) (int, error) {
	l := len(keys)
	var errDel error

	if l == 0 {
		return 0, nil
	}

	if rdb.Client.ClusterSlots(ctx).Err() != nil {
		_, errDel = execute(rdb.doDeleteKeys(ctx, keyID, keys))
	} else {
		_, errDel = execute(rdb.doDeleteNodeKeys(ctx, keys))
	}

	return l, errDel
}

func (rdb *proxyRedisClient) doDeleteNodeKeys(ctx context.Context, keys []string) func() (interface{}, error) {
	return func() (interface{}, error) {
		var removingError error

		for _, currentKey := range keys {
			removingError = rdb.Client.Del(ctx, currentKey).Err()
		}

		return nil, removingError
	}
}

// seedPages stores n cached pages under one URL's prefix; with 30 keys every
// node holds several, on several slots.
func seedPages(ctx context.Context, rdb redis.UniversalClient, prefix string, n int) error {
	for i := 0; i < n; i++ {
		if err := rdb.Set(ctx, prefix+strconv.Itoa(i), "page", 0).Err(); err != nil {
			return err
		}
	}
	return nil
}

func badProxyCacheDelWildcard(ctx context.Context, e env) error {
	prefix := "DATA@@GET@@https://example.com/" + newID() + "@@"
	if err := seedPages(ctx, e.rdb, prefix, 30); err != nil {
		return err
	}
	rdb := &proxyRedisClient{Client: e.rdb, Name: "default"}
	_, err := rdb.DelWildcard(ctx, prefix+"*")
	return err
}

func goodProxyCacheDelWildcard(ctx context.Context, e env) error {
	prefix := "DATA@@GET@@https://example.com/" + newID() + "@@"
	if err := seedPages(ctx, e.rdb, prefix, 30); err != nil {
		return err
	}
	rdb := &proxyRedisClient{Client: e.rdb, Name: "default"}
	_, err := rdb.DelWildcardFixed(ctx, prefix+"*")
	return err
}
