// Package redisc stubs github.com/mna/redisc, a Redis Cluster client built
// on redigo.
package redisc

import "github.com/gomodule/redigo/redis"

// Cluster dials every node with DialOptions (redis.Dial, or the pool
// CreatePool makes with them).
type Cluster struct {
	StartupNodes []string
	DialOptions  []redis.DialOption
	CreatePool   func(address string, options ...redis.DialOption) (*redis.Pool, error)
}

func (c *Cluster) Get() redis.Conn           { return nil }
func (c *Cluster) Dial() (redis.Conn, error) { return nil, nil }

func (c *Cluster) EachNode(replicas bool, fn func(addr string, conn redis.Conn) error) error {
	return nil
}
