// Command clients runs commands through rueidis, valkey-go and redigo (with
// redisc, a cluster library) on a cluster. Functions named bad* are ones
// crossslot must report: their commands fail on a cluster, the rueidis and
// valkey-go ones by a panic of the cluster client's builder, the redigo ones
// with CROSSSLOT from the server. good* ones it must leave alone, and they
// succeed.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"
	"github.com/redis/rueidis"
	"github.com/valkey-io/valkey-go"
)

type clients struct {
	ru rueidis.Client
	vk valkey.Client
	rc *redisc.Cluster
}

var limiter = rueidis.NewLuaScript("return #KEYS")

func badRueidisMGet(ctx context.Context, c clients) error {
	return c.ru.Do(ctx, c.ru.B().Mget().Key("user:1:a", "user:2:a").Build()).Error()
}

func goodRueidisMGet(ctx context.Context, c clients) error {
	return c.ru.Do(ctx, c.ru.B().Mget().Key("user:{1}:a", "user:{1}:b").Build()).Error()
}

func badRueidisArbitrary(ctx context.Context, c clients) error {
	return c.ru.Do(ctx, c.ru.B().Arbitrary("MGET").Keys("k1", "k2").Build()).Error()
}

func badRueidisLua(ctx context.Context, c clients) error {
	return limiter.Exec(ctx, c.ru, []string{"rate:1", "rate:2"}, nil).Error()
}

func goodRueidisLua(ctx context.Context, c clients) error {
	return limiter.Exec(ctx, c.ru, []string{"{rate}:1", "{rate}:2"}, nil).Error()
}

func badRueidisDoMulti(ctx context.Context, c clients) error {
	for _, r := range c.ru.DoMulti(ctx,
		c.ru.B().Multi().Build(),
		c.ru.B().Set().Key("a").Value("1").Build(),
		c.ru.B().Set().Key("b").Value("2").Build(),
		c.ru.B().Exec().Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

func badValkeyRename(ctx context.Context, c clients) error {
	c.vk.Do(ctx, c.vk.B().Set().Key("src").Value("x").Build())
	return c.vk.Do(ctx, c.vk.B().Rename().Key("src").Newkey("dst").Build()).Error()
}

func goodValkeyRename(ctx context.Context, c clients) error {
	c.vk.Do(ctx, c.vk.B().Set().Key("{src}").Value("x").Build())
	return c.vk.Do(ctx, c.vk.B().Rename().Key("{src}").Newkey("{src}.bak").Build()).Error()
}

func badRedigoMGet(ctx context.Context, c clients) error {
	conn := c.rc.Get()
	defer conn.Close()
	_, err := conn.Do("MGET", "user:1:a", "user:2:a")
	return err
}

func goodRedigoMGet(ctx context.Context, c clients) error {
	conn := c.rc.Get()
	defer conn.Close()
	_, err := conn.Do("MGET", "user:{1}:a", "user:{1}:b")
	return err
}

func badRedigoMultiExec(ctx context.Context, c clients) error {
	conn := c.rc.Get()
	defer conn.Close()
	conn.Send("MULTI")
	conn.Send("SET", "a", 1)
	conn.Send("SET", "b", 2)
	_, err := conn.Do("EXEC")
	return err
}

func goodRedigoMultiExec(ctx context.Context, c clients) error {
	conn := c.rc.Get()
	defer conn.Close()
	conn.Send("MULTI")
	conn.Send("SET", "{a}1", 1)
	conn.Send("SET", "{a}2", 2)
	_, err := conn.Do("EXEC")
	return err
}

var scenarios = []struct {
	name string
	run  func(context.Context, clients) error
}{
	{"badRueidisMGet", badRueidisMGet},
	{"goodRueidisMGet", goodRueidisMGet},
	{"badRueidisArbitrary", badRueidisArbitrary},
	{"badRueidisLua", badRueidisLua},
	{"goodRueidisLua", goodRueidisLua},
	{"badRueidisDoMulti", badRueidisDoMulti},
	{"badValkeyRename", badValkeyRename},
	{"goodValkeyRename", goodValkeyRename},
	{"badRedigoMGet", badRedigoMGet},
	{"goodRedigoMGet", goodRedigoMGet},
	{"badRedigoMultiExec", badRedigoMultiExec},
	{"goodRedigoMultiExec", goodRedigoMultiExec},
}

// run runs one scenario: "ok", "error" with the error, or "panic" with the
// panic's value.
func run(ctx context.Context, c clients, f func(context.Context, clients) error) (result, detail string) {
	defer func() {
		if r := recover(); r != nil {
			result, detail = "panic", fmt.Sprint(r)
		}
	}()
	if err := f(ctx, c); err != nil && !rueidis.IsRedisNil(err) {
		return "error", err.Error()
	}
	return "ok", ""
}

func main() {
	addr := flag.String("addr", "", "a Redis Cluster node, host:port")
	flag.Parse()
	if *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: clients -addr host:port")
		os.Exit(2)
	}
	ru, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{*addr}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer ru.Close()
	vk, err := valkey.NewClient(valkey.ClientOption{InitAddress: []string{*addr}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer vk.Close()
	rc := &redisc.Cluster{
		StartupNodes: []string{*addr},
		CreatePool: func(address string, opts ...redis.DialOption) (*redis.Pool, error) {
			return &redis.Pool{Dial: func() (redis.Conn, error) { return redis.Dial("tcp", address, opts...) }}, nil
		},
	}
	defer rc.Close()
	if err := rc.Refresh(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx := context.Background()
	c := clients{ru: ru, vk: vk, rc: rc}
	for _, s := range scenarios {
		result, detail := run(ctx, c, s.run)
		fmt.Printf("%s\t%s\t%s\n", s.name, result, detail)
	}
}
