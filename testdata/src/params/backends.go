package params

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A store behind an interface with two implementations (a Redis one and an
// in-memory one beside it): a call through it is judged with each, since
// either may run. The in-memory one sends nothing.
type Cache interface {
	DelMany(ctx context.Context, keys ...string) error
}

type redisCache struct{ rdb redis.UniversalClient }

func (c *redisCache) DelMany(ctx context.Context, keys ...string) error { // want DelMany:`sink Del\(p3\.\.\.\)`
	return c.rdb.Del(ctx, keys...).Err()
}

type memCache struct{ m map[string]string }

func (c *memCache) DelMany(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		delete(c.m, k)
	}
	return nil
}

type Users struct{ cache Cache }

func (u *Users) Forget(ctx context.Context, id, email string) error {
	return u.cache.DelMany(ctx, "user:"+id, "user:email:"+email) // want `Del keys "user:<id>" and "user:email:<email>" are on different hash slots for all but about 1 in 16384 pairs of values of id and email \(assuming id and email hold no brace\) in redisCache.DelMany`
}

func (u *Users) ForgetTagged(ctx context.Context, id string) error { // want ForgetTagged:`sink Del`
	return u.cache.DelMany(ctx, "user:{"+id+"}", "user:{"+id+"}:sessions")
}
