package readinessclients

import (
	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

// redisc dials every node with the Cluster's DialOptions: a database other
// than 0 there makes each connection's SELECT fail on a cluster node.
func dialOptions(addrs []string, db int) []*redisc.Cluster {
	return []*redisc.Cluster{
		{StartupNodes: addrs, DialOptions: []redis.DialOption{redis.DialDatabase(2)}}, // want `DialDatabase 2 needs a database other than 0, which a cluster does not have \(ERR SELECT is not allowed in cluster mode\); tell data apart by key prefix instead`
		{StartupNodes: addrs, DialOptions: []redis.DialOption{redis.DialDatabase(0)}},
		{StartupNodes: addrs, DialOptions: []redis.DialOption{redis.DialDatabase(db)}}, // a database the code does not fix
		{StartupNodes: addrs, DialOptions: []redis.DialOption{redis.DialConnectTimeout(0)}},
	}
}

// A pool of one server dialled with a database is one server's: reported
// with -include-single-node only.
func onePool(addr string) *redis.Pool {
	return &redis.Pool{Dial: func() (redis.Conn, error) { return redis.Dial("tcp", addr, redis.DialDatabase(2)) }}
}
