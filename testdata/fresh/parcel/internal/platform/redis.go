// Package platform builds the Redis connections the parcel services share.
package platform

import (
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
)

// PoolConfig is what ops tunes per environment.
type PoolConfig struct {
	MaxIdle     int           `env:"REDIS_MAX_IDLE"`
	MaxActive   int           `env:"REDIS_MAX_ACTIVE"`
	IdleTimeout time.Duration `env:"REDIS_IDLE_TIMEOUT"`
}

// NewPool is how every redigo pool in the team is built.
func NewPool(addr string, cfg PoolConfig, opts ...redigo.DialOption) *redigo.Pool {
	return &redigo.Pool{
		MaxIdle:     cfg.MaxIdle,
		MaxActive:   cfg.MaxActive,
		IdleTimeout: cfg.IdleTimeout,
		Wait:        true,
		Dial: func() (redigo.Conn, error) {
			return redigo.Dial("tcp", addr, opts...)
		},
		TestOnBorrow: func(c redigo.Conn, t time.Time) error {
			if time.Since(t) < time.Minute {
				return nil
			}
			_, err := c.Do("PING")
			return err
		},
	}
}

// NewCluster wraps NewPool into a redisc cluster.
func NewCluster(nodes []string, cfg PoolConfig) (*redisc.Cluster, error) {
	c := &redisc.Cluster{
		StartupNodes: nodes,
		DialOptions:  []redigo.DialOption{redigo.DialConnectTimeout(2 * time.Second)},
		CreatePool: func(addr string, opts ...redigo.DialOption) (*redigo.Pool, error) {
			return NewPool(addr, cfg, opts...), nil
		},
	}
	return c, c.Refresh()
}
