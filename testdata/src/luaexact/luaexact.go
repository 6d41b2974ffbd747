// Package luaexact pins how exactly scripts are read: arguments built with
// make and append, KEYS with a computed index, keys passed to the script's
// own functions, aliases of redis.call, and names read from data.
package luaexact

import (
	"context"

	goredis "github.com/redis/go-redis/v9"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

var ack = redis.NewScript(1, `for i = 1, #ARGV do redis.call('SREM', KEYS[1], ARGV[i]) end
return redis.call('SCARD', KEYS[1])`)

// The key list starts with the queue's key: one key is passed, whatever
// the ids that follow; KEYS[1] is there.
func ackAll(queueKey string, ids []string) {
	c := cluster.Get()
	defer c.Close()
	args := make([]interface{}, 0, 1+len(ids))
	args = append(args, queueKey)
	for _, id := range ids {
		args = append(args, id)
	}
	ack.Do(c, args...)
}

var pair = redis.NewScript(2, `return redis.call('SMOVE', KEYS[1], KEYS[2], ARGV[1])`)

// Two known keys first, then unknown arguments: the keys are read.
func movePair(ids []string) {
	c := cluster.Get()
	defer c.Close()
	args := make([]interface{}, 0, 2+len(ids))
	args = append(args, "set:a", "set:b")
	for _, id := range ids {
		args = append(args, id)
	}
	pair.Do(c, args...) // want `Script.Do keys "set:a" \(slot 1234\) and "set:b" \(slot 13489\) are on different hash slots`
}

// The keys themselves come from input: not known, nothing reported (KEYS[2]
// may well be passed).
func moveAny(keys []interface{}) {
	c := cluster.Get()
	defer c.Close()
	pair.Do(c, keys...)
}

var remove = goredis.NewScript(`for i = 1, #ARGV do redis.call('SREM', KEYS[i + 1], ARGV[i]) end
return 1`)

// In an interpreted string the script's lines are not the file's: its
// findings are reported at the call.
var bump = goredis.NewScript("local rcall = redis.call\nlocal function bump(k) rcall('INCR', k) end\nbump(KEYS[2])\nbump(KEYS[1] .. ':total')\nreturn 1")

var bumpTagged = goredis.NewScript(`local function bump(k) redis.call('INCR', k) end
bump(KEYS[1] .. ':total')
return 1`)

var aliased = goredis.NewScript(`local rcall = redis.call
return rcall('INCR', ARGV[1])`) // want `Run script's INCR key "q:b" \(slot 2434\) and the declared key "\{q\}:a" \(slot 11958\) are on different hash slots`

var fromData = goredis.NewScript(`local job = redis.call('HGET', KEYS[1], 'current')
return redis.call('DEL', job)`) // want `Run script's DEL key <job> is read from data \(HGET\) and not declared in KEYS`

func scripts(ctx context.Context, rdb *goredis.ClusterClient) {
	remove.Run(ctx, rdb, []string{"{q}:a", "{q}:b"}, "x")
	bump.Run(ctx, rdb, []string{"{q}:a", "{q}:b"})
	bump.Run(ctx, rdb, []string{"q:a", "{q}:b"}) // want `Run keys "q:a" \(slot \d+\) and "\{q\}:b" \(slot \d+\) are on different hash slots` `Run script's INCR key "q:a:total" \(slot 15848\) and the declared key "q:a" \(slot 14817\) are on different hash slots`
	bumpTagged.Run(ctx, rdb, []string{"{q}:a"})
	aliased.Run(ctx, rdb, []string{"{q}:a"}, "q:b")
	fromData.Run(ctx, rdb, []string{"{q}:a"})
}
