// Package sessions stores login sessions: one key per token, and the set of a
// user's tokens for "log out everywhere".
package sessions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/tix/internal/keyspace"
)

// Options configure the store.
type Options struct {
	// Prefix namespaces every key ("tix:" in production).
	Prefix string
	TTL    time.Duration
}

// Store is the session store.
type Store struct {
	rdb  redis.UniversalClient
	opts Options
}

// New returns a session store.
func New(rdb redis.UniversalClient, opts Options) *Store {
	if opts.TTL == 0 {
		opts.TTL = 12 * time.Hour
	}
	return &Store{rdb: rdb, opts: opts}
}

// Token is an opaque session token.
type Token string

// NewToken makes a random token.
func NewToken() Token {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return Token(hex.EncodeToString(b[:]))
}

func (s *Store) tokenKey(t Token) string { return s.opts.Prefix + "sess:" + string(t) }
func (s *Store) userTokens(u keyspace.UserID) string {
	return s.opts.Prefix + "user:{" + string(u) + "}:sessions"
}

// scoped tokens carry their user: "sess:{u1}:<token>".
func (s *Store) scopedKey(u keyspace.UserID, t Token) string {
	return s.opts.Prefix + "sess:{" + string(u) + "}:" + string(t)
}

// Login creates a session and indexes it under the user.
func (s *Store) Login(ctx context.Context, u keyspace.UserID, t Token) error {
	// case T40: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.tokenKey(t), string(u), s.opts.TTL)
		p.SAdd(ctx, s.userTokens(u), string(t))
		p.Expire(ctx, s.userTokens(u), s.opts.TTL)
		return nil
	})
	return err
}

// LoginScoped creates a session whose key carries the user's tag.
func (s *Store) LoginScoped(ctx context.Context, u keyspace.UserID, t Token) error {
	// case T41: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, s.scopedKey(u, t), string(u), s.opts.TTL)
		p.SAdd(ctx, s.userTokens(u), string(t))
		p.Expire(ctx, s.userTokens(u), s.opts.TTL)
		return nil
	})
	return err
}

// LogoutEverywhere drops every session of a user.
func (s *Store) LogoutEverywhere(ctx context.Context, u keyspace.UserID) error {
	// case T42: crossslot
	toks, err := s.rdb.SMembers(ctx, s.userTokens(u)).Result()
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(toks)+1)
	for _, t := range toks {
		keys = append(keys, s.tokenKey(Token(t)))
	}
	keys = append(keys, s.userTokens(u))
	return s.rdb.Del(ctx, keys...).Err()
}

// LogoutEverywhereScoped drops every scoped session of a user in one DEL:
// they all share the user's tag.
func (s *Store) LogoutEverywhereScoped(ctx context.Context, u keyspace.UserID) error {
	// case T43: none
	toks, err := s.rdb.SMembers(ctx, s.userTokens(u)).Result()
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(toks)+1)
	for _, t := range toks {
		keys = append(keys, s.scopedKey(u, Token(t)))
	}
	keys = append(keys, s.userTokens(u))
	return s.rdb.Del(ctx, keys...).Err()
}

// Rotate replaces a token with a new one, keeping its TTL.
func (s *Store) Rotate(ctx context.Context, old, next Token) error {
	// case T44: crossslot
	return s.rdb.Rename(ctx, s.tokenKey(old), s.tokenKey(next)).Err()
}

// RotateScoped replaces a scoped token with a new one of the same user.
func (s *Store) RotateScoped(ctx context.Context, u keyspace.UserID, old, next Token) error {
	// case T45: none
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Rename(ctx, s.scopedKey(u, old), s.scopedKey(u, next))
		p.SRem(ctx, s.userTokens(u), string(old))
		p.SAdd(ctx, s.userTokens(u), string(next))
		return nil
	})
	return err
}

// Touch slides the expiry of the given tokens (the gateway batches them).
func (s *Store) Touch(ctx context.Context, toks ...Token) error {
	// case T46: none
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, t := range toks {
			p.Expire(ctx, s.tokenKey(t), s.opts.TTL)
		}
		return nil
	})
	return err
}

// Active counts live sessions for the ops dashboard.
func (s *Store) Active(ctx context.Context) (int, error) {
	// case T47: onenode
	keys, err := s.rdb.Keys(ctx, s.opts.Prefix+"sess:*").Result()
	return len(keys), err
}

// ActiveAll counts live sessions on every master of the cluster.
func (s *Store) ActiveAll(ctx context.Context) (int, error) {
	// case T48: none
	cc, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		return s.Active(ctx)
	}
	var total = make(chan int, 16)
	err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		n := 0
		it := node.Scan(ctx, 0, s.opts.Prefix+"sess:*", 500).Iterator()
		for it.Next(ctx) {
			n++
		}
		total <- n
		return it.Err()
	})
	close(total)
	sum := 0
	for n := range total {
		sum += n
	}
	return sum, err
}

// Who resolves several tokens to users at once (the websocket gateway).
func (s *Store) Who(ctx context.Context, toks ...Token) ([]string, error) {
	// case T49: crossslot
	keys := make([]string, len(toks))
	for i, t := range toks {
		keys[i] = s.tokenKey(t)
	}
	vals, err := s.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i], _ = v.(string)
	}
	return out, nil
}

// IsScoped reports whether a key is in the scoped layout.
func IsScoped(key string) bool { return strings.Contains(key, "sess:{") }
