// Package profile caches member profiles from the CRM. The cache is a plain
// Redis server next to the API pods: it is rebuilt from the CRM on a miss, so
// it does not need the cluster.
package profile

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/loyalty/internal/keys"
)

// Profile is the part of the CRM record the apps show.
type Profile struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	HomeStore string `json:"home_store"`
}

// Cache is a read-through profile cache.
type Cache struct {
	rdb *redis.Client
	ttl time.Duration
}

// NewCache returns a Cache over a single-node client.
func NewCache(rdb *redis.Client, ttl time.Duration) *Cache { return &Cache{rdb: rdb, ttl: ttl} }

func profileKey(m keys.MemberID) string { return "profile:" + string(m) }

// GetMany returns the cached profiles of the given members; missing ones are
// absent from the map.
func (c *Cache) GetMany(ctx context.Context, ms []keys.MemberID) (map[keys.MemberID]Profile, error) {
	// case L31: none
	ks := make([]string, len(ms))
	for i, m := range ms {
		ks[i] = profileKey(m)
	}
	vals, err := c.rdb.MGet(ctx, ks...).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[keys.MemberID]Profile)
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		var p Profile
		if json.Unmarshal([]byte(s), &p) == nil {
			out[ms[i]] = p
		}
	}
	return out, nil
}

// Warm stores profiles loaded from the CRM that nobody cached meanwhile.
func (c *Cache) Warm(ctx context.Context, ps map[keys.MemberID]Profile) error {
	// case L32: none
	args := make([]any, 0, 2*len(ps))
	for m, p := range ps {
		b, _ := json.Marshal(p)
		args = append(args, profileKey(m), string(b))
	}
	if _, err := c.rdb.MSetNX(ctx, args...).Result(); err != nil {
		return err
	}
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for m := range ps {
			p.Expire(ctx, profileKey(m), c.ttl)
		}
		return nil
	})
	return err
}
