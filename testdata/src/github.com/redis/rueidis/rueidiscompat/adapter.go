// Package rueidiscompat stubs rueidis's go-redis-compatible adapter: its
// methods send commands through the rueidis client it wraps, and are
// read through that code, as a module's own wrappers are.
package rueidiscompat

import (
	"context"
	"fmt"

	"github.com/redis/rueidis"
)

type SliceCmd struct{}

type StatusCmd struct{}

type IntCmd struct{}

// Cmdable is the adapter's go-redis-like interface.
type Cmdable interface {
	MSet(ctx context.Context, values ...any) *StatusCmd
	MGet(ctx context.Context, keys ...string) *SliceCmd
	Rename(ctx context.Context, key, newkey string) *StatusCmd
	Incr(ctx context.Context, key string) *IntCmd
	TxPipelined(ctx context.Context, fn func(Pipeliner) error) error
}

// Pipeliner queues commands on the adapter's pipeline.
type Pipeliner interface {
	Cmdable
	Len() int
}

type Compat struct {
	client rueidis.Client
}

// NewAdapter returns the adapter over client, as its interface.
func NewAdapter(client rueidis.Client) Cmdable { // want NewAdapter:`returns \*Compat`
	return &Compat{client: client}
}

func (c *Compat) MGet(ctx context.Context, keys ...string) *SliceCmd { // want MGet:`sink MGET\(p3...\)`
	c.client.Do(ctx, c.client.B().Mget().Key(keys...).Build())
	return &SliceCmd{}
}

// MSet turns its pairs into the command's arguments at run time, as the
// real adapter does (argsToSlice).
func (c *Compat) MSet(ctx context.Context, values ...any) *StatusCmd {
	partial := c.client.B().Mset().KeyValue()
	args := argsToSlice(values)
	for i := 0; i+1 < len(args); i += 2 {
		partial = partial.KeyValue(args[i], args[i+1])
	}
	c.client.Do(ctx, partial.Build())
	return &StatusCmd{}
}

func argsToSlice(values []any) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

func (c *Compat) Rename(ctx context.Context, key, newkey string) *StatusCmd { // want Rename:`sink RENAME\(p3, p4\)`
	c.client.Do(ctx, c.client.B().Rename().Key(key).Newkey(newkey).Build())
	return &StatusCmd{}
}

func (c *Compat) Incr(ctx context.Context, key string) *IntCmd {
	c.client.Do(ctx, c.client.B().Incr().Key(key).Build())
	return &IntCmd{}
}

// TxPipelined runs fn on a pipeline the adapter sends as MULTI ... EXEC.
func (c *Compat) TxPipelined(ctx context.Context, fn func(Pipeliner) error) error {
	return fn(&Pipeline{Compat: c})
}

type Pipeline struct{ *Compat }

func (p *Pipeline) Len() int { return 0 }

// CacheCompat is the adapter over client-side caching: a second
// implementation of Cmdable, as the real package has, so that its
// interface's methods carry no one implementation's facts.
type CacheCompat struct{ client rueidis.Client }

func (c *CacheCompat) MGet(ctx context.Context, keys ...string) *SliceCmd { // want MGet:`sink MGET\(p3...\)`
	c.client.Do(ctx, c.client.B().Mget().Key(keys...).Build())
	return &SliceCmd{}
}

func (c *CacheCompat) MSet(ctx context.Context, values ...any) *StatusCmd { return &StatusCmd{} }

func (c *CacheCompat) Rename(ctx context.Context, key, newkey string) *StatusCmd { // want Rename:`sink RENAME\(p3, p4\)`
	c.client.Do(ctx, c.client.B().Rename().Key(key).Newkey(newkey).Build())
	return &StatusCmd{}
}

func (c *CacheCompat) Incr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }

func (c *CacheCompat) TxPipelined(ctx context.Context, fn func(Pipeliner) error) error { return nil }

// Cmd is a script's reply.
type Cmd struct{}

// Scripter runs scripts: the adapter is one.
type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
}

// Script is go-redis's Script, on the adapter.
type Script struct{ src, hash string }

func NewScript(src string) *Script { return &Script{src: src, hash: src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return c.EvalSha(ctx, s.hash, keys, args...)
}

func (c *Compat) Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}

func (c *Compat) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	return &Cmd{}
}
