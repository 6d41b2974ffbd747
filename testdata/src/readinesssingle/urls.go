package readinesssingle

import (
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

// A URL's path, or its db query parameter, is the database the parsed
// options select.
func urls(fromConfig string) {
	opt, _ := redis.ParseURL("redis://cache:6379/3") // want `NewClient option DB 3 needs a database other than 0, which a cluster does not have \(ERR SELECT is not allowed in cluster mode\)`
	redis.NewClient(opt)
	ropt, _ := rueidis.ParseURL("redis://cache:6379/2") // want `NewClient option SelectDB 2 needs a database other than 0`
	rueidis.NewClient(ropt)
	vopt, _ := valkey.ParseURL("redis://cache:6379?db=5") // want `NewClient option SelectDB 5 needs a database other than 0`
	valkey.NewClient(vopt)

	// near-misses: database 0, no path, a socket's path, a URL the code
	// does not fix, options changed after parsing
	zero, _ := redis.ParseURL("redis://cache:6379/0")
	redis.NewClient(zero)
	none, _ := rueidis.ParseURL("redis://cache:6379")
	rueidis.NewClient(none)
	sock, _ := redis.ParseURL("unix:///run/redis.sock")
	redis.NewClient(sock)
	cfg, _ := redis.ParseURL(fromConfig)
	redis.NewClient(cfg)
	changed, _ := redis.ParseURL("redis://cache:6379/3")
	changed.DB = 0
	redis.NewClient(changed)
}
