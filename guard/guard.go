// Package guard checks Redis Cluster's slot rules inside go-redis, at run
// time, on any client: tests and staging on one node then fail (or report)
// the way a cluster would, for the keys the data decides.
//
//	rdb := redis.NewClient(&redis.Options{Addr: addr})
//	rdb.AddHook(guard.New(guard.Options{}))
//	err := rdb.MGet(ctx, "user:1:a", "user:2:a").Err()
//	// CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))
//
// For every command it finds the keys with the command table from the
// server's key specs (no round trip), and for every transaction (TxPipeline,
// TxPipelined, Watch's) all the keys across its commands; scripts (EVAL,
// EVALSHA, FCALL) by their declared keys. The slots are computed as the
// server computes them (slotcalc). crossslot's analyzer proves what the code
// fixes; the guard checks what the data decides. The checks are guardcore's,
// shared with the guards of rueidis, valkey-go and redigo.
package guard

import (
	"context"
	"runtime"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/crossslot/crossslot/guardcore"
)

// Mode, Options and Violation are guardcore's, so that every client's guard
// takes and reports the same.
type (
	Mode      = guardcore.Mode
	Options   = guardcore.Options
	Violation = guardcore.Violation
	Stats     = guardcore.Stats
)

const (
	Fail   = guardcore.Fail
	Report = guardcore.Report
)

// Error is the violation as a Fail-mode guard returns it: it reads like the
// server's CROSSSLOT error and matches redis.ErrCrossSlot with errors.Is.
type Error struct{ Violation }

func (e *Error) Error() string { return (&guardcore.Error{Violation: e.Violation}).Error() }

// Is makes errors.Is(err, redis.ErrCrossSlot) hold for keys on different
// slots.
func (e *Error) Is(target error) bool {
	return target == redis.ErrCrossSlot && (e.Problem == "crossslot" || e.Problem == "shardedpubsub")
}

// New returns a hook for rdb.AddHook, on any go-redis v9 client.
func New(opts Options) redis.Hook {
	return &hook{c: guardcore.New(opts, "/github.com/redis/go-redis/", thisFile, pubSubFile)}
}

var thisFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}()

type hook struct{ c *guardcore.Checker }

func (h *hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if h.c.Sampled() {
			if err := h.check(cmd, nil); err != nil {
				cmd.SetErr(err)
				return err
			}
		}
		return next(ctx, cmd)
	}
}

func (h *hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if !h.c.Sampled() {
			return next(ctx, cmds)
		}
		if len(cmds) >= 2 && guardcore.IsTransaction(cmds[0].Name(), cmds[len(cmds)-1].Name()) {
			// One MULTI/EXEC: every key of every command on one slot.
			var tx guardcore.Tx
			for _, cmd := range cmds[1 : len(cmds)-1] {
				if err := h.check(cmd, &tx); err != nil {
					for _, c := range cmds {
						c.SetErr(err)
					}
					return err
				}
			}
			return next(ctx, cmds)
		}
		// A plain pipeline is split per node: each command on its own.
		for _, cmd := range cmds {
			if err := h.check(cmd, nil); err != nil {
				if e, ok := err.(*Error); ok && e.Problem == "database" && inConnectionSetup() {
					e.Command += " (the client's Options.DB, sent on every new connection: a cluster client has no DB option)"
				}
				cmd.SetErr(err)
				return err
			}
		}
		return next(ctx, cmds)
	}
}

// inConnectionSetup says whether go-redis is setting up a new connection:
// a SELECT there is the client's Options.DB, not a command of the caller.
func inConnectionSetup() bool {
	return goRedisOnStack(func(fn string) bool { return strings.HasSuffix(fn, ".initConn") })
}

// goRedisOnStack reports whether a go-redis function that match accepts is
// on the calling goroutine's stack.
func goRedisOnStack(match func(fn string) bool) bool {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.Contains(f.Function, "/go-redis/") && match(f.Function) {
			return true
		}
		if !more {
			return false
		}
	}
}

// check checks one command, its error the go-redis kind.
func (h *hook) check(cmd redis.Cmder, tx *guardcore.Tx) error {
	err := guardcore.Check(h.c, guardcore.Args(cmd.Args()), tx)
	if e, ok := err.(*guardcore.Error); ok {
		return &Error{e.Violation}
	}
	return err
}
