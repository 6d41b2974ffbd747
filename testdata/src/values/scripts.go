package values

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// Lua that takes each of KEYS in turn declares them all.
var deleteAll = goredis.NewScript("for _, k in ipairs(KEYS) do\n" +
	"  if redis.call('TYPE', k).ok ~= 'none' then redis.call('DEL', k) end\n" +
	"end\n" +
	"for i = 1, #KEYS, 2 do\n" +
	"  local src = KEYS[i]\n" +
	"  local dst = KEYS[i + 1]\n" +
	"  redis.call('RENAME', src, dst)\n" +
	"end\n" +
	"return redis.call('GET', ARGV[1])\n")

func purge(ctx context.Context, rdb *goredis.ClusterClient, user string) {
	deleteAll.Run(ctx, rdb, []string{"u:{" + user + "}:a", "u:{" + user + "}:b"}, "u:{"+user+"}:c") // its keys declared, ARGV[1] on their slot
	deleteAll.Run(ctx, rdb, []string{"u:{" + user + "}:a"}, "other:"+user)                          // want `Run script's GET key "other:<user>" and the declared key "u:\{<user>\}:a" are on different hash slots`
}

// A redigo script whose key count is decided at run time: how many of the
// values are keys is not known, and no script key is missing.
var claim = redis.NewScript(-1, `return redis.call('GET', KEYS[1])`)

func claimJobs(conn redis.Conn, jobs []string, n int) {
	args := make([]any, 0, len(jobs)+1)
	args = append(args, len(jobs))
	for _, j := range jobs {
		args = append(args, "job:{q}:"+j)
	}
	claim.Do(conn, args...)
	counted := redis.NewScript(n, `return redis.call('GET', KEYS[1])`)
	counted.Do(conn, args...)
}

// A key the script derives by wrapping a declared key in a tag is on its
// slot, for a declared key that holds no brace of its own.
var reentrant = goredis.NewScript("local k = '{' .. KEYS[1] .. '}:count:' .. ARGV[1]\n" +
	"redis.call('INCR', k)\n")

var plain = goredis.NewScript("local k = KEYS[1] .. ':count:' .. ARGV[1]\n" +
	"redis.call('INCR', k)\n")

type lock struct {
	rdb   *goredis.ClusterClient
	key   string
	token string
}

func newLock(rdb *goredis.ClusterClient, key, token string) *lock {
	return &lock{rdb: rdb, key: key, token: token}
}

func (l *lock) acquire(ctx context.Context) {
	reentrant.Run(ctx, l.rdb, []string{l.key}, l.token)
	plain.Run(ctx, l.rdb, []string{l.key}, l.token) // want `Run script.s INCR key "<l.key>:count:<l.token>" and the declared key "<l.key>" are on different hash slots`
}
