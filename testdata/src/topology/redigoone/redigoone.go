// Package redigoone reaches no cluster library built on redigo: its
// connections talk to one server.
package redigoone

import "github.com/gomodule/redigo/redis"

func send(c redis.Conn) {
	c.Do("MGET", "a", "b") // want `one server`
}
