// Package redigocluster reaches redisc: its redigo connections may be a
// cluster's, and those redisc hands out are.
package redigocluster

import (
	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

var cluster = &redisc.Cluster{StartupNodes: []string{":7000"}}

func send(c redis.Conn) {
	c.Do("MGET", "a", "b") // want `either`
	own := cluster.Get()
	own.Do("MGET", "a", "b") // want `cluster`
}
