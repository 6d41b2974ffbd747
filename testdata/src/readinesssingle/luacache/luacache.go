// Package luacache loads its scripts with SCRIPT LOAD and, where an
// EVALSHA meets a node without the script (NOSCRIPT), sends it with EVAL:
// on a cluster its SCRIPT LOAD reaching one node breaks nothing.
package luacache

import (
	"context"
	"strings"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

type Script struct {
	src, sha string
}

func (s *Script) Load(ctx context.Context, rdb *redis.Client) error {
	return rdb.Do(ctx, "SCRIPT", "LOAD", s.src).Err()
}

func (s *Script) Run(ctx context.Context, rdb *redis.Client, keys []string) error { // want Run:`sink EvalSha\(p4...\) at luacache.go:23; sink Eval\(p4...\) at luacache.go:25`
	err := rdb.EvalSha(ctx, s.sha, keys).Err()
	if isNoScript(err) {
		return rdb.Eval(ctx, s.src, keys).Err()
	}
	return err
}

func isNoScript(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT") }

// The same with redigo's command lines.
func LoadOn(conn redigo.Conn, src string) (any, error) {
	return conn.Do("SCRIPT", "LOAD", src)
}

func RunOn(conn redigo.Conn, sha, src, key string) (any, error) {
	v, err := conn.Do("EVALSHA", sha, 1, key)
	if err != nil && strings.Contains(err.Error(), "NOSCRIPT") {
		return conn.Do("EVAL", src, 1, key)
	}
	return v, err
}

// FUNCTION LOAD has no such fallback: FCALL of a library another node
// lacks fails.
func LoadLibrary(ctx context.Context, rdb *redis.Client) {
	rdb.FunctionLoad(ctx, "#!lua name=lib\n") // want `FUNCTION LOAD on a cluster client runs on one node`
}
