// Package idem stores idempotency keys for the public API: a request with a
// key that was seen before gets the stored response.
package idem

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Key is a client-supplied idempotency key within a scope ("payments",
// "trips", ...).
type Key struct {
	Scope string
	Value string
}

func (k Key) lock() string { return fmt.Sprintf("idem:%s:%s", k.Scope, k.Value) }
func (k Key) resp() string { return fmt.Sprintf("idem:%s:%s:resp", k.Scope, k.Value) }

// tag keeps a key's records on one slot.
func (k Key) tag() string { return "idem:{" + k.Scope + ":" + k.Value + "}" }

// legacy is the layout of the v0 API gateway, which still writes some keys.
func (k Key) legacy(part string) string {
	return fmt.Sprintf("idem:{%s:%s:%s", k.Scope, k.Value, part)
}

// Store is the idempotency store.
type Store struct {
	rdb redis.Cmdable
	ttl time.Duration
}

// New returns a Store.
func New(rdb redis.Cmdable, ttl time.Duration) *Store { return &Store{rdb: rdb, ttl: ttl} }

var reserve = redis.NewScript(`
local r = redis.call('GET', KEYS[2])
if r then return {1, r} end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {0, ''} end
return {2, ''}
`)

func decode(v any) (state int64, resp string) {
	arr, _ := v.([]any)
	if len(arr) != 2 {
		return -1, ""
	}
	state, _ = arr[0].(int64)
	resp, _ = arr[1].(string)
	return state, resp
}

// Reserve claims a key for owner; it returns 1 and the stored response when
// the request was already served, 2 when another request holds it.
func (s *Store) Reserve(ctx context.Context, k Key, owner string) (int64, string, error) {
	// case F80: crossslot
	v, err := reserve.Run(ctx, s.rdb, []string{k.lock(), k.resp()}, owner, s.ttl.Milliseconds()).Result()
	if err != nil {
		return 0, "", err
	}
	st, resp := decode(v)
	return st, resp, nil
}

// ReserveV2 claims a key for owner.
func (s *Store) ReserveV2(ctx context.Context, k Key, owner string) (int64, string, error) {
	// case F81: none
	t := k.tag()
	v, err := reserve.Run(ctx, s.rdb, []string{t + ":lock", t + ":resp"}, owner, s.ttl.Milliseconds()).Result()
	if err != nil {
		return 0, "", err
	}
	st, resp := decode(v)
	return st, resp, nil
}

// Complete stores the response of a served request.
func (s *Store) Complete(ctx context.Context, k Key, resp string) error {
	// case F82: crossslot
	return s.rdb.MSet(ctx, k.lock(), "done", k.resp(), resp).Err()
}

// CompleteV2 stores the response of a served request.
func (s *Store) CompleteV2(ctx context.Context, k Key, resp string) error {
	// case F83: none
	t := k.tag()
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.MSet(ctx, t+":lock", "done", t+":resp", resp)
		p.PExpire(ctx, t+":lock", s.ttl)
		p.PExpire(ctx, t+":resp", s.ttl)
		return nil
	})
	return err
}

// FetchLegacy reads what the v0 gateway stored for a key.
func (s *Store) FetchLegacy(ctx context.Context, k Key) ([]any, error) {
	// case F84: unclosedtag, crossslot
	return s.rdb.MGet(ctx, k.legacy("status"), k.legacy("resp")).Result()
}

// Forget drops a key's records (the client asked to retry from scratch).
func (s *Store) Forget(ctx context.Context, k Key) error {
	// case F85: none
	t := k.tag()
	return s.rdb.Del(ctx, t+":lock", t+":resp").Err()
}
