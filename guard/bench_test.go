package guard_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/guard"
	"github.com/crossslot/crossslot/internal/redistest"
)

// okConn is a no-op server on the other end of a pipe: it answers every
// command with +OK (HELLO with an error, as servers before RESP3 do), so a
// benchmark on it measures the client and the hook, not the network or a
// server.
func okConn() net.Conn {
	client, server := net.Pipe()
	go func() {
		r, w := bufio.NewReader(server), bufio.NewWriter(server)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			n, _ := strconv.Atoi(line[1 : len(line)-2])
			name := ""
			for i := range n {
				size, err := r.ReadString('\n')
				if err != nil {
					return
				}
				m, _ := strconv.Atoi(size[1 : len(size)-2])
				arg := make([]byte, m+2)
				if _, err := io.ReadFull(r, arg); err != nil {
					return
				}
				if i == 0 {
					name = strings.ToUpper(string(arg[:m]))
				}
			}
			if name == "HELLO" {
				w.WriteString("-ERR unknown command 'HELLO'\r\n")
			} else {
				w.WriteString("+OK\r\n")
			}
			if r.Buffered() == 0 {
				w.Flush()
			}
		}
	}()
	return client
}

// BenchmarkGet measures a single-key command, the common path, through an
// unguarded and a guarded *redis.Client: on the no-op connection and, when
// CROSSSLOT_REDIS_PLAIN_ADDR is set, on a loopback redis-server.
//
//	go test -run=^$ -bench=Get -count=8 ./... | benchstat -col /impl -
func BenchmarkGet(b *testing.B) {
	servers := map[string]*redis.Options{
		"noop": {Dialer: func(context.Context, string, string) (net.Conn, error) { return okConn(), nil }, Protocol: 2, DisableIdentity: true, PoolSize: 1},
	}
	if addr := os.Getenv(redistest.PlainAddrEnv); addr != "" {
		servers["loopback"] = &redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true, PoolSize: 1}
	}
	ctx := context.Background()
	for _, server := range []string{"noop", "loopback"} {
		opt, ok := servers[server]
		if !ok {
			continue
		}
		for _, impl := range []string{"plain", "guarded"} {
			b.Run("server="+server+"/impl="+impl, func(b *testing.B) {
				rdb := redis.NewClient(opt)
				defer rdb.Close()
				if impl == "guarded" {
					rdb.AddHook(guard.New(guard.Options{}))
				}
				rdb.Get(ctx, "user:{1}:profile") // connect
				b.ReportAllocs()
				for b.Loop() {
					if err := rdb.Get(ctx, "user:{1}:profile").Err(); err != nil && err != redis.Nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEval measures a script call through the guard on the no-op
// connection: unguarded; guarded with one script text, read once and then
// found in the cache; and guarded with a new text every call, read every
// time (what the cache saves).
//
//	go test -run=^$ -bench=Eval -count=8 . | benchstat -col /impl -
func BenchmarkEval(b *testing.B) {
	const lua = "redis.call('INCR', KEYS[1]); return redis.call('INCR', KEYS[1] .. ':held')"
	opt := &redis.Options{Dialer: func(context.Context, string, string) (net.Conn, error) { return okConn(), nil }, Protocol: 2, DisableIdentity: true, PoolSize: 1}
	ctx := context.Background()
	keys := []string{"{lock}:1"}
	for _, impl := range []string{"plain", "guarded", "guarded-new-text"} {
		b.Run("impl="+impl, func(b *testing.B) {
			rdb := redis.NewClient(opt)
			defer rdb.Close()
			if impl != "plain" {
				rdb.AddHook(guard.New(guard.Options{}))
			}
			rdb.Eval(ctx, lua, keys) // connect, and read the script once
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				script := lua
				if impl == "guarded-new-text" {
					n++
					script = lua + " -- " + strconv.Itoa(n)
				}
				if err := rdb.Eval(ctx, script, keys).Err(); err != nil && err != redis.Nil {
					b.Fatal(err)
				}
			}
		})
	}
}
