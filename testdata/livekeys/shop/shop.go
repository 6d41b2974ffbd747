package shop

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// Profile is what the profile hash stores.
type Profile struct {
	Name    string
	Email   string
	Country string
}

// SettingsTTL is how long a user's settings are cached.
const SettingsTTL = 30 * 24 * time.Hour

// SessionTTL is how long a session lives unless the user asked to be remembered.
const SessionTTL = 12 * time.Hour

// Shop is the service.
type Shop struct {
	rdb redis.UniversalClient
}

// New returns a shop over a go-redis client (a cluster client in production).
func New(rdb redis.UniversalClient) *Shop { return &Shop{rdb: rdb} }

// SaveUser writes a user's profile (kept forever) and settings (cached for
// SettingsTTL) in one transaction: both keys carry the user's tag.
func (s *Shop) SaveUser(ctx context.Context, id string, p Profile, settings string) error {
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.HSet(ctx, ProfileKey(id), "name", p.Name, "email", p.Email, "country", p.Country)
		pipe.Set(ctx, SettingsKey(id), settings, SettingsTTL)
		return nil
	})
	return err
}

// LoadUser reads a user's profile and settings together in one transaction.
func (s *Shop) LoadUser(ctx context.Context, id string) (Profile, string, error) {
	var hget *redis.MapStringStringCmd
	var get *redis.StringCmd
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		hget = pipe.HGetAll(ctx, ProfileKey(id))
		get = pipe.Get(ctx, SettingsKey(id))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return Profile{}, "", err
	}
	m := hget.Val()
	return Profile{Name: m["name"], Email: m["email"], Country: m["country"]}, get.Val(), nil
}

// PlaceOrder stores a user's n-th order. Orders are kept forever.
func (s *Shop) PlaceOrder(ctx context.Context, user string, n int, order string) error {
	return s.rdb.Set(ctx, OrderKey(user, n), order, 0).Err()
}

// Order reads a user's n-th order.
func (s *Shop) Order(ctx context.Context, user string, n int) (string, error) {
	return s.rdb.Get(ctx, OrderKey(user, n)).Result()
}

// StartSession stores a session for a user. A remembered session never
// expires; the others last SessionTTL.
func (s *Shop) StartSession(ctx context.Context, token, user string, remember bool) error {
	ttl := SessionTTL
	if remember {
		ttl = 0
	}
	return s.rdb.Set(ctx, SessionKey(token), user, ttl).Err()
}

// SessionUser returns the user of a session.
func (s *Shop) SessionUser(ctx context.Context, token string) (string, error) {
	return s.rdb.Get(ctx, SessionKey(token)).Result()
}

// Post appends an entry to a feed.
func (s *Shop) Post(ctx context.Context, feed, entry string) error {
	return s.rdb.RPush(ctx, FeedKey(feed), entry).Err()
}

// Pin puts an entry at the head of a feed.
func (s *Shop) Pin(ctx context.Context, feed, entry string) error {
	return s.rdb.LPush(ctx, FeedKey(feed), entry).Err()
}

// Recent returns a feed's first n entries.
func (s *Shop) Recent(ctx context.Context, feed string, n int64) ([]string, error) {
	return s.rdb.LRange(ctx, FeedKey(feed), 0, n-1).Result()
}
