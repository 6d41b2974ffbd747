package databases

import (
	redigo "github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/go-redis/v9"
)

// DialConfig is what main fills for the redisc cluster.
type DialConfig struct {
	Seeds []string
	DB    int
}

// NewNodes returns a redisc cluster that dials every node with the
// database main gives: 4, which each node refuses.
func NewNodes(o DialConfig) *redisc.Cluster {
	return &redisc.Cluster{
		StartupNodes: o.Seeds,
		DialOptions:  []redigo.DialOption{redigo.DialDatabase(o.DB)}, // reported: database
	}
}

// NewSpare is given database 0: silent.
func NewSpare(o DialConfig) *redisc.Cluster {
	return &redisc.Cluster{StartupNodes: o.Seeds, DialOptions: []redigo.DialOption{redigo.DialDatabase(o.DB)}}
}

// NewSessions returns a universal client of the seeds main reads, in the
// database main gives: 5.
func NewSessions(seeds []string, db int) redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{Addrs: seeds, DB: db}) // reported: database
}

// NewPrefs is given a number main reads: silent.
func NewPrefs(seeds []string, db int) redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{Addrs: seeds, DB: db})
}

// NewLocal dials one server in the database main gives: one server's,
// left out of the plain run.
func NewLocal(addr string, db int) (redigo.Conn, error) {
	return redigo.Dial("tcp", addr, redigo.DialDatabase(db))
}

// SessionConfig is what main reads for the sessions.
type SessionConfig struct {
	Seeds []string
	DB    int
}

// NewSessionStore takes the database from the configuration main fills: 7.
func NewSessionStore(cfg SessionConfig) redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Seeds, DB: cfg.DB}) // reported: database
}

// NewOneSession is given one seed: a plain client of one server, left out
// of the plain run.
func NewOneSession(seed string, db int) redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{seed}, DB: db})
}
