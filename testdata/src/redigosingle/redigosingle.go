// Package redigosingle uses redigo alone, which talks to one node: its calls
// are skipped unless single-node clients are included.
package redigosingle

import "github.com/gomodule/redigo/redis"

func single(c redis.Conn) {
	c.Do("MGET", "user:1:a", "user:2:a")
}
