package readiness

import (
	redisv8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

// Config is what a service reads at start: the addresses are not counted
// by the code.
type Config struct {
	Addrs  []string
	Master string
	DB     int
}

// NewUniversalClient makes a cluster client for two or more addresses and
// a plain one for one: with addresses the code does not count, a DB other
// than 0 is dropped (several) or refused by a cluster node (one).
func universalAddrs(cfg Config, addrs []string) {
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Addrs, DB: 4})                        // want `NewUniversalClient option DB 4 is dropped or refused on a cluster: for several addresses NewUniversalClient makes a cluster client, which reads and writes database 0, and for one address a plain client, whose SELECT a cluster node refuses \(ERR SELECT is not allowed in cluster mode\); tell data apart by key prefix instead`
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: addrs, DB: 2})                            // want `NewUniversalClient option DB 2 is dropped or refused on a cluster`
	redisv8.NewUniversalClient(&redisv8.UniversalOptions{Addrs: addrs, DB: 1})                        // want `NewUniversalClient option DB 1 is dropped or refused on a cluster`
	redisv8.NewUniversalClient(&redisv8.UniversalOptions{Addrs: []string{"a:6379", "b:6379"}, DB: 1}) // want `NewUniversalClient option DB 1 is dropped: for several addresses`

	// near-misses: database 0, one address (a plain client of one server),
	// a failover client for a MasterName, a database the code does not fix
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Addrs})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Addrs, DB: 0})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: []string{cfg.Addrs[0]}, DB: 4})
	redis.NewUniversalClient(&redis.UniversalOptions{DB: 4})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Addrs, MasterName: "mymaster", DB: 4})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Addrs, MasterName: cfg.Master, DB: 4})
	redis.NewUniversalClient(&redis.UniversalOptions{Addrs: cfg.Addrs, DB: cfg.DB})
	redisv8.NewUniversalClient(&redisv8.UniversalOptions{Addrs: []string{"a:6379"}, DB: 1})
	redisv8.NewUniversalClient(&redisv8.UniversalOptions{Addrs: addrs, MasterName: "mymaster", DB: 1})
}

// newSessions is the constructor a main calls with its configuration.
func newSessions(cfg Config) redis.UniversalClient {
	return redis.NewUniversalClient(&redis.UniversalOptions{ // want `NewUniversalClient option DB 4 is dropped or refused on a cluster`
		Addrs: cfg.Addrs,
		DB:    4,
	})
}

// A URL's database on a client of one server: left out of the plain run
// (testdata/src/readinesssingle reports it).
func urlOneServer() {
	opt, _ := redis.ParseURL("redis://cache:6379/3")
	redis.NewClient(opt)
}
