// Package garyburdcalls uses redigo under its old import path,
// github.com/garyburd/redigo: the same API, read the same way. Run with
// -include-single-node, since redigo alone talks to one node.
package garyburdcalls

import "github.com/garyburd/redigo/redis"

func calls(pool *redis.Pool) {
	c := pool.Get()
	defer c.Close()
	c.Do("MGET", "user:1:a", "user:2:a") // want `MGET keys "user:1:a" \(slot 323\) and "user:2:a" \(slot 6163\) are on different hash slots`
	c.Do("MGET", "user:{1}:a", "user:{1}:b")
	c.Do("SELECT", 2) // want `SELECT 2 needs a database other than 0`
	c.Do("SELECT", 0)
	c.Do("KEYS", "user:*") // want `KEYS on a cluster client runs on one node`
	c.Do("GET", "user:1:a")
	redis.NewScript(2, "return 1").Do(c, "k1", "k2") // want `Script.Do keys "k1" \(slot 12706\) and "k2" \(slot 449\)`
}
