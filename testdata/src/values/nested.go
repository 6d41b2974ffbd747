package values

import (
	"context"

	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// A field of a struct field, read through a pointer (s.opts.Prefix), is one
// value of the object, in every method and at every call.

type sessionOptions struct{ Prefix string }

type sessions struct {
	rdb  *goredis.ClusterClient
	rc   rueidis.Client
	opts sessionOptions
}

func newSessions(rdb *goredis.ClusterClient, rc rueidis.Client, opts sessionOptions) *sessions {
	return &sessions{rdb: rdb, rc: rc, opts: opts}
}

func (s *sessions) tokenKey(t string) string   { return s.opts.Prefix + "sess:" + t }
func (s *sessions) userKey(u, f string) string { return s.opts.Prefix + "user:{" + u + "}:" + f }

func (s *sessions) rotate(ctx context.Context, old, next string) {
	s.rdb.Rename(ctx, s.tokenKey(old), s.tokenKey(next))        // want `Rename keys "<s.opts.Prefix>sess:<old>" and "<s.opts.Prefix>sess:<next>" are on different hash slots for all but about 1 in 16384 pairs of different values of old and next \(assuming old and next hold no brace\), unless s.opts.Prefix holds a hash tag`
	s.rdb.Rename(ctx, s.userKey(old, "a"), s.userKey(old, "b")) // one user's tag
}

func (s *sessions) login(ctx context.Context, u, t string) {
	s.rc.Do(ctx, s.rc.B().Mget().Key(s.tokenKey(t), s.userKey(u, "sessions")).Build()) // want `MGET keys "<s.opts.Prefix>sess:<t>" and "<s.opts.Prefix>user:\{<u>\}:sessions" are on different hash slots`
	s.rc.Do(ctx, s.rc.B().Mget().Key(s.userKey(u, "a"), s.userKey(u, "b")).Build())    // one user's tag
}
