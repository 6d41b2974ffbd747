// Package scripts sends Lua: the keys the script touches are checked
// against the keys the call declares. Findings are reported in the script,
// on the line of the key (here the last line of each script, where a comment
// can follow), with the call as related information.
package scripts

import (
	"context"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

const pushScript = `redis.call('LPUSH', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[1] .. ':wait')` // want `Eval script's INCR key "queue:1:wait" \(slot 7970\) and the declared key "queue:1" \(slot 657\) are on different hash slots; on a cluster the script fails where they are on different nodes \(non local key\)`

var bump = goredis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1])
return redis.call('INCR', 'stats:global')`) // want `Run script's INCR key "stats:global" \(slot 654\) and the declared key "user:\{1\}" \(slot 9842\) are on different hash slots`

var tagged = goredis.NewScript(`
redis.call('SET', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[1] .. ':count')`)

var fromArgv = goredis.NewScript(`return redis.call('DEL', ARGV[1] .. 'wait')`) // want `Run script's DEL key ARGV\[1\] .. "wait" is not declared in KEYS and not proved to be on the declared keys' slot`

var allowed = goredis.NewScript(`#!lua flags=allow-cross-slot-keys
return redis.call('INCR', 'stats:global')`)

var readOnly = goredis.NewScript(`return redis.call('GET', KEYS[1])`) // want `Run script reads KEYS\[1\], but the call passes 0 keys: it gets nil`

var lua = rueidis.NewLuaScript(`return redis.call('INCR', KEYS[1] .. ':wait')`) // want `Lua.Exec script's INCR key "queue:1:wait" \(slot 7970\) and the declared key "queue:1" \(slot 657\)`

var cluster = &redisc.Cluster{}

func scripts(ctx context.Context, rdb *goredis.ClusterClient, c rueidis.Client, input string) {
	rdb.Eval(ctx, pushScript, []string{"queue:1"}, "job")
	rdb.Eval(ctx, pushScript, []string{"{queue:1}"}, "job") // derived inside the tag: silent
	bump.Run(ctx, rdb, []string{"user:{1}"}, "x")
	tagged.Run(ctx, rdb, []string{"user:{1}"}, "x")
	fromArgv.Run(ctx, rdb, []string{"jobs"}, input)
	allowed.Run(ctx, rdb, []string{"user:{1}"}) // allow-cross-slot-keys: not checked for slots
	readOnly.Run(ctx, rdb, []string{"user:{1}"})
	readOnly.Run(ctx, rdb, []string{})
	rdb.Eval(ctx, "return redis.call('SET', KEYS[1], ARGV[1])", []string{"a"}, "b") // ARGV as a value: silent
	rdb.Eval(ctx, "return redis.call(", []string{"a"})                              // not Lua: silent
	lua.Exec(ctx, c, []string{"queue:1"}, nil)
	conn := cluster.Get()
	redis.NewScript(1, "return redis.call('SET', 'c', '1')").Do(conn, "b") // want `Script.Do script's SET key "c" \(slot 7365\) and the declared key "b" \(slot 3300\)`
}

// Keys passed in ARGV with the declared keys' tag, as job queues do: the
// script builds ARGV[1] .. id, on the tag's slot whatever the queue.
var moveTask = goredis.NewScript(`local id = redis.call('LPOP', KEYS[1])
return redis.call('HSET', ARGV[1] .. id, 'state', 'active')`)

var argvOtherTag = goredis.NewScript(`local id = redis.call('LPOP', KEYS[1])
return redis.call('HSET', ARGV[1] .. id, 'state', 'active')`) // want `Run script's HSET key "jobs:other:t:<id>" and the declared key "jobs:\{q\}:pending" are on different hash slots for all but about 1 in 16384 values of id \(assuming id holds no brace\);`

func queues(ctx context.Context, rdb *goredis.ClusterClient, qname string) {
	moveTask.Run(ctx, rdb, []string{"asynq:{" + qname + "}:pending"}, "asynq:{"+qname+"}:t:")
	argvOtherTag.Run(ctx, rdb, []string{"jobs:{q}:pending"}, "jobs:other:t:")
}
