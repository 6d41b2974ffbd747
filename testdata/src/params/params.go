// Package params pins keys built from a function's own parameters: judged
// where they are built, in every check that compares keys, whoever calls the
// function; each beside a near-miss that stays silent.
package params

import (
	"context"
	"fmt"
	"strconv"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// The package reaches redisc: its redigo connections may be a cluster's.
var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

type Shop struct {
	rdb *redis.ClusterClient
	rc  rueidis.Client
}

func wish(user string) string { return "wishlist:" + user }

// Two ids in one command: on one slot for about 1 in 16384 pairs of them.
func (s *Shop) Merge(ctx context.Context, guest, user string) error {
	return s.rdb.SUnionStore(ctx, wish(user), wish(user), wish(guest)).Err() // want `SUnionStore keys "wishlist:<user>" and "wishlist:<guest>" are on different hash slots for all but about 1 in 16384 pairs of different values of user and guest \(assuming user and guest hold no brace\); read each key, compute the result in the client and write it to the destination, or tag both keys with an entity they belong to \(a group, a room, a month\), never with one constant tag, which puts every such key on one slot$`
}

func (s *Shop) MergeTagged(ctx context.Context, guest, user string) error { // want MergeTagged:`sink SUnionStore`
	return s.rdb.SUnionStore(ctx, "wishlist:{"+user+"}", "wishlist:{"+user+"}:guest").Err() // both tagged with one parameter
}

func (s *Shop) Checkout(ctx context.Context, user string, order int64) error {
	return s.rdb.Rename(ctx, "cart:{"+user+"}:items", fmt.Sprintf("order:{%d}:items", order)).Err() // want `Rename keys "cart:\{<user>\}:items" and "order:\{<order>\}:items" are on different hash slots for all but about 1 in 16384 pairs of different values of user and order`
}

func (s *Shop) Touch(ctx context.Context, user string) error { // want Touch:`sink Rename`
	return s.rdb.Rename(ctx, "cart:"+user+":items", "cart:"+user+":items").Err() // the same parameter twice: one key
}

// A whole key, or the start of one, is the caller's to fill: judged at each call.
func (s *Shop) Move(ctx context.Context, src, dst string) error { // want Move:`sink Rename\(p3, p4\)`
	return s.rdb.Rename(ctx, src, dst).Err()
}

func (s *Shop) MoveIn(ctx context.Context, ns, a, b string) error { // want MoveIn:`sink Rename\(p3\+p4, p3\+p5\)`
	return s.rdb.Rename(ctx, ns+a, ns+b).Err()
}

func (s *Shop) callers(ctx context.Context) {
	s.Move(ctx, "{u1}:cart", "{u1}:order")
	s.Move(ctx, "cart:1", "order:1") // want `Rename keys "cart:1" \(slot \d+\) and "order:1" \(slot \d+\) are on different hash slots in Shop.Move`
	s.MoveIn(ctx, "{shop}:", "a", "b")
}

// Transactions: TxPipeline with Exec, TxPipelined, Watch's callback.
func (s *Shop) Cancel(ctx context.Context, id int64, userID string) error {
	pipe := s.rdb.TxPipeline()
	pipe.Set(ctx, "order:"+strconv.FormatInt(id, 10), "cancelled", 0)
	pipe.Incr(ctx, "user:"+userID+":orders") // want `TxPipeline keys "order:<strconv.FormatInt\(id, 10\)>" \(Set\) and "user:<userID>:orders" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of values of strconv.FormatInt\(id, 10\) and userID`
	_, err := pipe.Exec(ctx)
	return err
}

func (s *Shop) CancelTagged(ctx context.Context, id int64, userID string) error {
	pipe := s.rdb.TxPipeline()
	pipe.Set(ctx, "user:{"+userID+"}:order:"+strconv.FormatInt(id, 10), "cancelled", 0)
	pipe.Incr(ctx, "user:{"+userID+"}:orders")
	_, err := pipe.Exec(ctx)
	return err
}

func (s *Shop) Transfer(ctx context.Context, from, to string, n int64) error {
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, "bal:"+from)
		p.Incr(ctx, "bal:"+to) // want `TxPipelined keys "bal:<from>" \(Incr\) and "bal:<to>" \(Incr\) are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
		return nil
	})
	return err
}

func (s *Shop) Reserve(ctx context.Context, sku, order string) error {
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "stock:"+sku)
			p.Incr(ctx, "reservation:"+order) // want `Watch keys "stock:<sku>" and Incr key "reservation:<order>" are on different hash slots for all but about 1 in 16384 pairs of values of sku and order`
			return nil
		})
		return err
	}, "stock:"+sku)
}

func (s *Shop) ReserveTagged(ctx context.Context, sku, order string) error {
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Incr(ctx, "stock:{"+sku+"}:holds")
			p.Incr(ctx, "stock:{"+sku+"}:reservation:"+order)
			return nil
		})
		return err
	}, "stock:{"+sku+"}")
}

// rueidis: a command and DoMulti's MULTI ... EXEC.
func (s *Shop) Swap(ctx context.Context, a, b string) { // want Swap:`sink RENAME`
	s.rc.Do(ctx, s.rc.B().Rename().Key("item:"+a).Newkey("item:"+b).Build()) // want `RENAME keys "item:<a>" and "item:<b>" are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	s.rc.Do(ctx, s.rc.B().Rename().Key("item:{"+a+"}").Newkey("item:{"+a+"}:old").Build())
	s.rc.DoMulti(ctx, s.rc.B().Multi().Build(), s.rc.B().Incr().Key("n:"+a).Build(), s.rc.B().Incr().Key("n:"+b).Build(), s.rc.B().Exec().Build()) // want `DoMulti keys "n:<a>" \(INCR\) and "n:<b>" \(INCR\) are on different hash slots for all but about 1 in 16384 pairs of different values of a and b`
	s.rc.DoMulti(ctx, s.rc.B().Multi().Build(), s.rc.B().Incr().Key("n:{"+a+"}").Build(), s.rc.B().Incr().Key("m:{"+a+"}").Build(), s.rc.B().Exec().Build())
}

// redigo on a cluster library's connections: a command and MULTI/EXEC.
func Pay(conn redigo.Conn, payer, payee string) { // want Pay:`sink RENAME`
	conn.Do("RENAME", "acct:"+payer, "acct:"+payee) // want `RENAME keys "acct:<payer>" and "acct:<payee>" are on different hash slots for all but about 1 in 16384 pairs of different values of payer and payee`
	conn.Send("MULTI")
	conn.Send("INCR", "acct:"+payer)
	conn.Send("INCR", "acct:"+payee) // want `MULTI/EXEC keys "acct:<payer>" \(INCR\) and "acct:<payee>" \(INCR\) are on different hash slots`
	conn.Do("EXEC")
	conn.Do("RENAME", "acct:{"+payer+"}", "acct:{"+payer+"}:old")
}

// A script's KEYS, and sharded channels.
func (s *Shop) Scripted(ctx context.Context, from, to string) { // want Scripted:`sink Eval.*; sink SSubscribe`
	s.rdb.Eval(ctx, "return redis.call('RENAME', KEYS[1], KEYS[2])", []string{"acct:" + from, "acct:" + to}) // want `Eval keys "acct:<from>" and "acct:<to>" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
	s.rdb.Eval(ctx, "return redis.call('RENAME', KEYS[1], KEYS[2])", []string{"acct:{" + from + "}", "acct:{" + from + "}:old"})
	s.rdb.SSubscribe(ctx, "room:"+from, "room:"+to) // want `SSubscribe channels "room:<from>" and "room:<to>" are on different hash slots for all but about 1 in 16384 pairs of different values of from and to`
	s.rdb.SSubscribe(ctx, "room:{"+from+"}", "room:{"+from+"}:typing")
}
