// Package redigocalls uses redigo through redisc, a cluster library: its
// command lines, scripts and MULTI/EXEC transactions are checked.
package redigocalls

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

var rateScript = redis.NewScript(2, "return 1")

func commands(id string) {
	c := cluster.Get()
	defer c.Close()
	c.Do("MGET", "user:1:a", "user:2:a") // want `MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
	c.Do("mget", "user:{1}:a", "user:{1}:b")
	c.Do("SET", "user:{}:a", "x")                                // want `SET key "user:\{\}:a" has an empty hash tag`
	c.Send("RENAME", "src", "dst")                               // want `RENAME keys "src" \(slot 13222\) and "dst" \(slot 9394\)`
	c.Do("ZUNIONSTORE", "out", 2, "z:1", "z:2", "WEIGHTS", 1, 2) // want `ZUNIONSTORE keys "out" \(slot \d+\) and "z:1" \(slot \d+\)`
	c.Do("EVAL", "return 1", 2, "k1", "k2")                      // want `EVAL keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
	c.Do("EVAL", "return 1", 1, "k1", "k2")
	c.Do("XREAD", "COUNT", 1, "STREAMS", "s1", "s2", "0", "0") // want `XREAD keys "s1" \(slot 15224\) and "s2" \(slot 2843\)`
	c.Do("MGET", id, "x")
	rateScript.Do(c, "rate:1", "rate:2", 10) // want `Script.Do keys "rate:1" \(slot \d+\) and "rate:2" \(slot \d+\)`
	rateScript.Do(c, "{rate}:1", "{rate}:2", "rate:3")
	redis.NewScript(1, "return 1").Do(c, "k1", "k2")
	redis.NewScript(2, "return 1").Send(c, "k1", "k2") // want `Script.Send keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
}

// redis.Args built in one expression: its elements are the command's.
func argsAdded(a, b string) {
	c := cluster.Get()
	defer c.Close()
	c.Do("MGET", redis.Args{}.Add("guild:{"+a+"}:name", "guild:{"+b+"}:name")...) // want `MGET keys "guild:\{<a>\}:name" and "guild:\{<b>\}:name" are on different hash slots`
	c.Do("MGET", redis.Args{}.Add("guild:{"+a+"}:name", "guild:{"+a+"}:motto")...)
	c.Do("DEL", redis.Args{"guild:{" + a + "}:name"}.Add("guild:{"+b+"}:name")...) // want `DEL keys "guild:\{<a>\}:name" and "guild:\{<b>\}:name" are on different hash slots`
}

// redis.Args.AddFlat of a slice of keys appends the slice's elements, as
// Add(keys...) does; a map is flattened into its keys and values, which
// are not all keys.
func argsFlat(a, b string) {
	c := cluster.Get()
	defer c.Close()
	keys := []string{"guild:{" + a + "}:name", "guild:{" + b + "}:name"}
	c.Do("MGET", redis.Args{}.AddFlat(keys)...) // want `MGET keys "guild:\{<a>\}:name" and "guild:\{<b>\}:name" are on different hash slots`
	same := []string{"guild:{" + a + "}:name", "guild:{" + a + "}:motto"}
	c.Do("MGET", redis.Args{}.AddFlat(same)...)
	c.Do("DEL", redis.Args{"guild:{" + a + "}:name"}.AddFlat([]string{"guild:{" + b + "}:name"})...) // want `DEL keys "guild:\{<a>\}:name" and "guild:\{<b>\}:name" are on different hash slots`
	c.Do("HSET", redis.Args{"guild:{" + a + "}:name"}.AddFlat(map[string]string{"guild:{" + b + "}:name": "x"})...)
	pairs := map[string]string{"guild:{" + a + "}:name": "x", "guild:{" + b + "}:name": "y"}
	c.Do("MSET", redis.Args{}.AddFlat(pairs)...) // want `MSET keys "guild:\{<a>\}:name" and "guild:\{<b>\}:name" are on different hash slots`
	mine := map[string]string{"guild:{" + a + "}:name": "x", "guild:{" + a + "}:motto": "y"}
	c.Do("MSET", redis.Args{}.AddFlat(mine)...)
}

// Near-miss: a map set again after it is handed on is not the one read.
func argsFlatLate(a, b string) {
	c := cluster.Get()
	defer c.Close()
	pairs := map[string]string{"guild:{" + a + "}:name": "x"}
	if a != "" {
		pairs["guild:{"+b+"}:name"] = "y"
	}
	c.Do("MSET", redis.Args{}.AddFlat(pairs)...)
}

func transactions() {
	c := cluster.Get()
	c.Send("MULTI")
	c.Send("SET", "a", 1)
	c.Send("SET", "b", 2) // want `MULTI/EXEC keys "a" \(slot 15495, SET\) and "b" \(slot 3300, SET\) are on different hash slots; the server refuses the transaction at EXEC \(CROSSSLOT\)`
	c.Do("EXEC")

	c.Send("MULTI")
	c.Send("SET", "{a}1", 1)
	c.Send("INCR", "{a}2")
	c.Do("EXEC")

	c.Send("SET", "a", 1) // before MULTI: not in the transaction
	c.Send("MULTI")
	c.Send("SET", "b", 1)
	c.Do("EXEC")
}

// A connection held in a field: each q.conn is one connection.
type session struct{ conn redis.Conn }

func (s *session) transfer() {
	s.conn.Send("MULTI")
	s.conn.Send("DECR", "acct:1")
	s.conn.Send("INCR", "acct:2") // want `MULTI/EXEC keys "acct:1" \(slot \d+, DECR\) and "acct:2" \(slot \d+, INCR\) are on different hash slots`
	s.conn.Do("EXEC")
}

func (s *session) transferTagged(other *session) {
	s.conn.Send("MULTI")
	s.conn.Send("DECR", "acct:{1}:a")
	other.conn.Send("INCR", "acct:2") // another connection: not in this transaction
	s.conn.Send("INCR", "acct:{1}:b")
	s.conn.Do("EXEC")
}

// A connection a closure captures: each use loads the one variable.
func capturedConn() {
	c := cluster.Get()
	defer func() { c.Close() }()
	c.Send("MULTI")
	c.Send("SET", "a", 1)
	c.Send("SET", "b", 2) // want `MULTI/EXEC keys "a" \(slot 15495, SET\) and "b" \(slot 3300, SET\) are on different hash slots`
	c.Do("EXEC")
}

// WAIT takes numbers, never keys: nothing to compare in the transaction.
func waitInTransaction() {
	c := cluster.Get()
	c.Send("MULTI")
	c.Send("INCR", "{acct}:1")
	c.Send("WAIT", "1", "0")
	c.Send("INCR", "{acct}:2")
	c.Do("EXEC")
}

// pools: a redigo pool dials its connections. One that redigo's own Dial,
// DialContext or DialURL dials talks to one server, as a *redis.Client
// does, even in a package that reaches redisc: its commands are skipped.
// One dialled otherwise (redisc's Dial, a function from elsewhere) may be
// a cluster's.
func pools(ctx context.Context, addr string, dial func() (redis.Conn, error)) {
	heat := &redis.Pool{MaxIdle: 2, Dial: func() (redis.Conn, error) { return redis.Dial("tcp", addr) }}
	c := heat.Get()
	c.Do("MGET", "user:1:a", "user:2:a")

	checked := &redis.Pool{Dial: func() (redis.Conn, error) {
		c, err := redis.DialURL("redis://" + addr)
		if err != nil {
			return nil, err
		}
		return c, nil
	}}
	c2, _ := checked.GetContext(ctx)
	c2.Do("MGET", "user:1:a", "user:2:a")

	ctxPool := &redis.Pool{DialContext: func(ctx context.Context) (redis.Conn, error) { return redis.DialContext(ctx, "tcp", addr) }}
	ctxPool.Get().Do("MGET", "user:1:a", "user:2:a")
	redis.NewPool(func() (redis.Conn, error) { return redis.Dial("tcp", addr) }, 3).Get().Do("MGET", "user:1:a", "user:2:a")

	viaCluster := &redis.Pool{Dial: cluster.Dial}
	viaCluster.Get().Do("MGET", "user:1:a", "user:2:a") // want `MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
	given := &redis.Pool{Dial: dial}
	given.Get().Do("MGET", "user:1:a", "user:2:a") // want `MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
	mixed := &redis.Pool{Dial: func() (redis.Conn, error) {
		if addr == "" {
			return cluster.Dial()
		}
		return redis.Dial("tcp", addr)
	}}
	mixed.Get().Do("MGET", "user:1:a", "user:2:a") // want `MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
}
