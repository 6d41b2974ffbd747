// Command scripts runs Lua scripts on a three-master cluster whose nodes own
// slots 0-5460, 5461-10922 and 10923-16383. Functions named bad* run a script
// that touches a key on another node than its declared keys (or reads a KEYS
// it is not given): crossslot must report them, and the cluster refuses
// them. good* ones it must leave alone, and they succeed.
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"os"

	"github.com/redis/go-redis/v9"
)

//go:embed bump.lua
var bumpSrc string

var bump = redis.NewScript(bumpSrc)

// KEYS[1] "queue:1" is on slot 657, "queue:1:wait" on slot 7970.
func badDerivedKey(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, `redis.call('LPUSH', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[1] .. ':wait')`, []string{"queue:1"}, "job").Err()
}

func goodDerivedKeyInTag(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, `redis.call('LPUSH', KEYS[1], ARGV[1])
return redis.call('INCR', KEYS[1] .. ':wait')`, []string{"{queue:1}"}, "job").Err()
}

// "b" is on slot 3300, "c" on slot 7365.
func badLiteralKey(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, "redis.call('SET', KEYS[1], '1'); return redis.call('SET', 'c', '1')", []string{"b"}).Err()
}

func goodLiteralKeyInTag(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, "redis.call('SET', KEYS[1], '1'); return redis.call('SET', '{b}x', '1')", []string{"b"}).Err()
}

func badArgvKey(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, "return redis.call('SET', ARGV[1], '1')", []string{"b"}, "c").Err()
}

func goodArgvValue(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, "return redis.call('SET', KEYS[1], ARGV[1])", []string{"b"}, "c").Err()
}

// "user:{1}" is on slot 9842, "stats:global" on slot 654.
func badEmbeddedScript(ctx context.Context, rdb *redis.ClusterClient) error {
	return bump.Run(ctx, rdb, []string{"user:{1}"}).Err()
}

func badMissingKey(ctx context.Context, rdb *redis.ClusterClient) error {
	return rdb.Eval(ctx, "return redis.call('GET', KEYS[2])", []string{"b"}).Err()
}

var scenarios = []struct {
	name string
	run  func(context.Context, *redis.ClusterClient) error
}{
	{"badDerivedKey", badDerivedKey},
	{"goodDerivedKeyInTag", goodDerivedKeyInTag},
	{"badLiteralKey", badLiteralKey},
	{"goodLiteralKeyInTag", goodLiteralKeyInTag},
	{"badArgvKey", badArgvKey},
	{"goodArgvValue", goodArgvValue},
	{"badEmbeddedScript", badEmbeddedScript},
	{"badMissingKey", badMissingKey},
}

func main() {
	addr := flag.String("addr", "", "a node of the three-master cluster, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: scripts -addr host:port")
		os.Exit(2)
	}
	ctx := context.Background()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{*addr}})
	defer rdb.Close()
	for _, s := range scenarios {
		if err := s.run(ctx, rdb); err != nil && err != redis.Nil {
			fmt.Printf("%s\terror\t%v\n", s.name, err)
		} else {
			fmt.Printf("%s\tok\t\n", s.name)
		}
	}
}
