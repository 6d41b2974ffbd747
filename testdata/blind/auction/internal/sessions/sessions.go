// Package sessions stores bidder login sessions and display preferences.
package sessions

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/auction/internal/keys"
)

// Store keeps bidder sessions. On the old single server they lived in their
// own logical database so a session purge could not touch auction data.
type Store struct {
	rdb redis.UniversalClient
	ttl time.Duration
}

func NewStore(rdb redis.UniversalClient, ttl time.Duration) *Store {
	return &Store{rdb: rdb, ttl: ttl}
}

// Save stores a session token.
func (s *Store) Save(ctx context.Context, b keys.BidderID, token string) error {
	// case B39: database
	return s.rdb.Set(ctx, b.Session(), token, s.ttl).Err()
}

// Lookup returns the session token, "" when logged out.
func (s *Store) Lookup(ctx context.Context, b keys.BidderID) (string, error) {
	tok, err := s.rdb.Get(ctx, b.Session()).Result()
	if err == redis.Nil {
		return "", nil
	}
	return tok, err
}

// Prefs keeps display preferences (currency, language, alerts).
type Prefs struct {
	rdb redis.UniversalClient
}

func NewPrefs(rdb redis.UniversalClient) *Prefs { return &Prefs{rdb: rdb} }

// Save stores the preferences hash of a bidder.
func (p *Prefs) Save(ctx context.Context, b keys.BidderID, prefs map[string]string) error {
	// case B40: none
	return p.rdb.HSet(ctx, b.Prefs(), prefs).Err()
}
