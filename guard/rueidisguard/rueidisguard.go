// Package rueidisguard checks Redis Cluster's slot rules inside a rueidis
// client, at run time, on any client: tests and staging on one node then
// fail (or report) the way a cluster would, for the keys the data decides.
//
//	c, _ := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}})
//	c = rueidisguard.New(c, rueidisguard.Options{})
//	err := c.Do(ctx, c.B().Mget().Key("user:1:a", "user:2:a").Build()).Error()
//	// CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: MGET keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))
//
// Every command of Do, DoCache, DoStream, their Multi forms and Receive is checked
// before it is sent (a DoMulti of MULTI ... EXEC as one transaction), and so
// are those of dedicated clients and of each of Nodes(); Lua scripts by
// their declared keys (Lua.Exec sends EVALSHA through the client). The
// checks and the Violation are guardcore's, the same as the go-redis
// guard's. A cluster client's builder already panics on keys of different
// slots within one command; the guard adds transactions and single nodes.
package rueidisguard

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/redis/rueidis"

	"github.com/crossslot/crossslot/guardcore"
)

// Mode, Options, Violation, Error and Stats are guardcore's.
type (
	Mode      = guardcore.Mode
	Options   = guardcore.Options
	Violation = guardcore.Violation
	Error     = guardcore.Error
	Stats     = guardcore.Stats
)

const (
	Fail   = guardcore.Fail
	Report = guardcore.Report
)

// New wraps c: its commands are checked before they are sent.
func New(c rueidis.Client, opts Options) rueidis.Client {
	return &client{Client: c, chk: guardcore.New(opts, "/github.com/redis/rueidis", thisFile)}
}

var thisFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}()

type client struct {
	rueidis.Client
	chk *guardcore.Checker
}

// core is what a client and a dedicated client check alike.
type core struct{ chk *guardcore.Checker }

func (g core) one(cmd []string) error {
	if !g.chk.Sampled() {
		return nil
	}
	return guardcore.Check(g.chk, guardcore.Strings(cmd), nil)
}

// many checks a batch: one transaction if it is MULTI ... EXEC, else each
// command on its own.
func (g core) many(cmds [][]string) error {
	if len(cmds) == 0 || !g.chk.Sampled() {
		return nil
	}
	if len(cmds) >= 2 && len(cmds[0]) > 0 && len(cmds[len(cmds)-1]) > 0 &&
		guardcore.IsTransaction(cmds[0][0], cmds[len(cmds)-1][0]) {
		var tx guardcore.Tx
		for _, cmd := range cmds[1 : len(cmds)-1] {
			if err := guardcore.Check(g.chk, guardcore.Strings(cmd), &tx); err != nil {
				return err
			}
		}
		return nil
	}
	for _, cmd := range cmds {
		if err := guardcore.Check(g.chk, guardcore.Strings(cmd), nil); err != nil {
			return err
		}
	}
	return nil
}

func lines(multi []rueidis.Completed) [][]string {
	out := make([][]string, len(multi))
	for i := range multi {
		out[i] = multi[i].Commands()
	}
	return out
}

func failed(n int, err error) []rueidis.RedisResult {
	out := make([]rueidis.RedisResult, n)
	for i := range out {
		out[i] = rueidis.NewErrorResult(err)
	}
	return out
}

func (c *client) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	if err := (core{c.chk}).one(cmd.Commands()); err != nil {
		return rueidis.NewErrorResult(err)
	}
	return c.Client.Do(ctx, cmd)
}

func (c *client) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	if err := (core{c.chk}).many(lines(multi)); err != nil {
		return failed(len(multi), err)
	}
	return c.Client.DoMulti(ctx, multi...)
}

func (c *client) DoCache(ctx context.Context, cmd rueidis.Cacheable, ttl time.Duration) rueidis.RedisResult {
	if err := (core{c.chk}).one(cmd.Commands()); err != nil {
		return rueidis.NewErrorResult(err)
	}
	return c.Client.DoCache(ctx, cmd, ttl)
}

func (c *client) DoMultiCache(ctx context.Context, multi ...rueidis.CacheableTTL) []rueidis.RedisResult {
	for _, m := range multi {
		if err := (core{c.chk}).one(m.Cmd.Commands()); err != nil {
			return failed(len(multi), err)
		}
	}
	return c.Client.DoMultiCache(ctx, multi...)
}

func (c *client) DoStream(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResultStream {
	if err := (core{c.chk}).one(cmd.Commands()); err != nil {
		return rueidis.NewErrorResultStream(err)
	}
	return c.Client.DoStream(ctx, cmd)
}

func (c *client) DoMultiStream(ctx context.Context, multi ...rueidis.Completed) rueidis.MultiRedisResultStream {
	if err := (core{c.chk}).many(lines(multi)); err != nil {
		return rueidis.NewErrorResultStream(err)
	}
	return c.Client.DoMultiStream(ctx, multi...)
}

func (c *client) Receive(ctx context.Context, subscribe rueidis.Completed, fn func(rueidis.PubSubMessage)) error {
	if err := (core{c.chk}).one(subscribe.Commands()); err != nil {
		return err
	}
	return c.Client.Receive(ctx, subscribe, fn)
}

func (c *client) Dedicated(fn func(rueidis.DedicatedClient) error) error {
	return c.Client.Dedicated(func(d rueidis.DedicatedClient) error {
		return fn(&dedicated{DedicatedClient: d, chk: c.chk})
	})
}

func (c *client) Dedicate() (rueidis.DedicatedClient, func()) {
	d, cancel := c.Client.Dedicate()
	return &dedicated{DedicatedClient: d, chk: c.chk}, cancel
}

func (c *client) Nodes() map[string]rueidis.Client {
	nodes := c.Client.Nodes()
	out := make(map[string]rueidis.Client, len(nodes))
	for addr, n := range nodes {
		out[addr] = &client{Client: n, chk: c.chk}
	}
	return out
}

// dedicated is a guarded dedicated client: a connection of its own, where
// MULTI ... EXEC often runs command by command. Like the connection, it is
// used by one goroutine at a time.
type dedicated struct {
	rueidis.DedicatedClient
	chk *guardcore.Checker
	tx  *guardcore.Tx // between MULTI and EXEC or DISCARD
}

func (d *dedicated) Do(ctx context.Context, cmd rueidis.Completed) rueidis.RedisResult {
	line := cmd.Commands()
	var err error
	switch {
	case len(line) == 0:
	case strings.EqualFold(line[0], "MULTI"):
		d.tx = &guardcore.Tx{}
	case strings.EqualFold(line[0], "EXEC") || strings.EqualFold(line[0], "DISCARD"):
		d.tx = nil
	case d.tx != nil:
		if d.chk.Sampled() {
			err = guardcore.Check(d.chk, guardcore.Strings(line), d.tx)
		}
	default:
		err = (core{d.chk}).one(line)
	}
	if err != nil {
		return rueidis.NewErrorResult(err)
	}
	return d.DedicatedClient.Do(ctx, cmd)
}

func (d *dedicated) Receive(ctx context.Context, subscribe rueidis.Completed, fn func(rueidis.PubSubMessage)) error {
	if err := (core{d.chk}).one(subscribe.Commands()); err != nil {
		return err
	}
	return d.DedicatedClient.Receive(ctx, subscribe, fn)
}

func (d *dedicated) DoMulti(ctx context.Context, multi ...rueidis.Completed) []rueidis.RedisResult {
	if err := (core{d.chk}).many(lines(multi)); err != nil {
		return failed(len(multi), err)
	}
	return d.DedicatedClient.DoMulti(ctx, multi...)
}
