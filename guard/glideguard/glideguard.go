// Package glideguard checks Redis Cluster's slot rules around a Valkey
// GLIDE client, at run time: code that tests against a standalone server
// (glide.NewClient) fails, or reports, the way GLIDE's cluster client on a
// cluster would, for the keys the data decides.
//
//	var c interfaces.BaseClientCommands = glideguard.Wrap(standalone, glideguard.Options{})
//	_, err := c.Rename(ctx, "user:1:a", "user:2:a")
//	// CROSSSLOT Keys in request don't hash to the same slot (crossslot guard: RENAME keys "user:1:a" (slot 323) and "user:2:a" (slot 6163))
//
// The guard wraps interfaces.BaseClientCommands, the interface both GLIDE
// clients implement, and checks the multi-key methods that GLIDE's cluster
// client sends to one node, where the server refuses keys of another slot.
// It leaves alone the ones GLIDE splits per slot (MGet, MSet, Del, Unlink,
// Exists, Touch, Watch), which a cluster accepts. Batches are not checked:
// GLIDE keeps their commands as its Rust core's request numbers, which a
// wrapper cannot name. The checks and the Violation are guardcore's, the
// same as the other guards'.
package glideguard

import (
	"context"
	"runtime"
	"strconv"
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/constants"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/options"

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

// A Client is a guarded GLIDE client: every method it does not check is the
// wrapped client's.
type Client struct {
	interfaces.BaseClientCommands
	chk *guardcore.Checker
}

// Wrap guards a GLIDE client.
func Wrap(c interfaces.BaseClientCommands, opts Options) *Client {
	return &Client{BaseClientCommands: c, chk: guardcore.New(opts, "/github.com/valkey-io/valkey-glide/", thisFile)}
}

var thisFile = func() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}()

// check judges one command line, its name first.
func (c *Client) check(line ...string) error {
	return guardcore.Check(c.chk, guardcore.Strings(line), nil)
}

// withKeys is a command line of a name and a list of keys, others after.
func withKeys(name string, keys []string, after ...string) []string {
	return append(append([]string{name}, keys...), after...)
}

// pairs is the key value list of a map, as MSETNX sends it.
func pairs(name string, m map[string]string) []string {
	line := []string{name}
	for k, v := range m {
		line = append(line, k, v)
	}
	return line
}

// streams is XREAD's line for a map of keys to IDs.
func streams(m map[string]string) []string {
	line := []string{"XREAD", "STREAMS"}
	ids := []string{}
	for k, id := range m {
		line = append(line, k)
		ids = append(ids, id)
	}
	return append(line, ids...)
}

func (c *Client) Rename(ctx context.Context, key string, newKey string) (string, error) {
	if err := c.check("RENAME", key, newKey); err != nil {
		return "", err
	}
	return c.BaseClientCommands.Rename(ctx, key, newKey)
}

func (c *Client) RenameNX(ctx context.Context, key string, newKey string) (bool, error) {
	if err := c.check("RENAMENX", key, newKey); err != nil {
		return false, err
	}
	return c.BaseClientCommands.RenameNX(ctx, key, newKey)
}

func (c *Client) Copy(ctx context.Context, source string, destination string) (bool, error) {
	if err := c.check("COPY", source, destination); err != nil {
		return false, err
	}
	return c.BaseClientCommands.Copy(ctx, source, destination)
}

func (c *Client) SMove(ctx context.Context, source string, destination string, member string) (bool, error) {
	if err := c.check("SMOVE", source, destination, member); err != nil {
		return false, err
	}
	return c.BaseClientCommands.SMove(ctx, source, destination, member)
}

func (c *Client) LMove(ctx context.Context, source string, destination string, whereFrom constants.ListDirection, whereTo constants.ListDirection) (models.Result[string], error) {
	if err := c.check("LMOVE", source, destination, string(whereFrom), string(whereTo)); err != nil {
		return models.CreateNilStringResult(), err
	}
	return c.BaseClientCommands.LMove(ctx, source, destination, whereFrom, whereTo)
}

func (c *Client) SUnion(ctx context.Context, keys []string) (map[string]struct{}, error) {
	if err := c.check(withKeys("SUNION", keys)...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.SUnion(ctx, keys)
}

func (c *Client) SInter(ctx context.Context, keys []string) (map[string]struct{}, error) {
	if err := c.check(withKeys("SINTER", keys)...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.SInter(ctx, keys)
}

func (c *Client) SDiff(ctx context.Context, keys []string) (map[string]struct{}, error) {
	if err := c.check(withKeys("SDIFF", keys)...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.SDiff(ctx, keys)
}

func (c *Client) SUnionStore(ctx context.Context, destination string, keys []string) (int64, error) {
	if err := c.check(withKeys("SUNIONSTORE", append([]string{destination}, keys...))...); err != nil {
		return 0, err
	}
	return c.BaseClientCommands.SUnionStore(ctx, destination, keys)
}

func (c *Client) SInterStore(ctx context.Context, destination string, keys []string) (int64, error) {
	if err := c.check(withKeys("SINTERSTORE", append([]string{destination}, keys...))...); err != nil {
		return 0, err
	}
	return c.BaseClientCommands.SInterStore(ctx, destination, keys)
}

func (c *Client) SDiffStore(ctx context.Context, destination string, keys []string) (int64, error) {
	if err := c.check(withKeys("SDIFFSTORE", append([]string{destination}, keys...))...); err != nil {
		return 0, err
	}
	return c.BaseClientCommands.SDiffStore(ctx, destination, keys)
}

func (c *Client) BLPop(ctx context.Context, keys []string, timeout time.Duration) ([]string, error) {
	if err := c.check(withKeys("BLPOP", keys, "0")...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.BLPop(ctx, keys, timeout)
}

func (c *Client) BRPop(ctx context.Context, keys []string, timeout time.Duration) ([]string, error) {
	if err := c.check(withKeys("BRPOP", keys, "0")...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.BRPop(ctx, keys, timeout)
}

func (c *Client) PfCount(ctx context.Context, keys []string) (int64, error) {
	if err := c.check(withKeys("PFCOUNT", keys)...); err != nil {
		return 0, err
	}
	return c.BaseClientCommands.PfCount(ctx, keys)
}

func (c *Client) PfMerge(ctx context.Context, destination string, sourceKeys []string) (string, error) {
	if err := c.check(withKeys("PFMERGE", append([]string{destination}, sourceKeys...))...); err != nil {
		return "", err
	}
	return c.BaseClientCommands.PfMerge(ctx, destination, sourceKeys)
}

func (c *Client) MSetNX(ctx context.Context, keyValueMap map[string]string) (bool, error) {
	if err := c.check(pairs("MSETNX", keyValueMap)...); err != nil {
		return false, err
	}
	return c.BaseClientCommands.MSetNX(ctx, keyValueMap)
}

func (c *Client) LCS(ctx context.Context, key1 string, key2 string) (*models.LCSMatch, error) {
	if err := c.check("LCS", key1, key2); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.LCS(ctx, key1, key2)
}

func (c *Client) SortStore(ctx context.Context, key string, destination string) (int64, error) {
	if err := c.check("SORT", key, "STORE", destination); err != nil {
		return 0, err
	}
	return c.BaseClientCommands.SortStore(ctx, key, destination)
}

func (c *Client) XRead(ctx context.Context, keysAndIds map[string]string) (map[string]models.StreamResponse, error) {
	if err := c.check(streams(keysAndIds)...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.XRead(ctx, keysAndIds)
}

func (c *Client) ZUnionStore(ctx context.Context, destination string, keysOrWeightedKeys options.KeysOrWeightedKeys) (int64, error) {
	if keys, ok := keysOrWeightedKeys.(options.KeyArray); ok {
		numkeys := []string{destination, strconv.Itoa(len(keys.Keys))}
		if err := c.check(withKeys("ZUNIONSTORE", append(numkeys, keys.Keys...))...); err != nil {
			return 0, err
		}
	}
	return c.BaseClientCommands.ZUnionStore(ctx, destination, keysOrWeightedKeys)
}

func (c *Client) FCallWithKeysAndArgs(ctx context.Context, function string, keys []string, args []string) (any, error) {
	if err := c.check(append(withKeys("FCALL", append([]string{function, strconv.Itoa(len(keys))}, keys...)), args...)...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.FCallWithKeysAndArgs(ctx, function, keys, args)
}

func (c *Client) InvokeScriptWithOptions(ctx context.Context, script options.Script, scriptOptions options.ScriptOptions) (any, error) {
	line := append([]string{"EVALSHA", "0", strconv.Itoa(len(scriptOptions.Keys))}, scriptOptions.Keys...)
	if err := c.check(append(line, scriptOptions.Args...)...); err != nil {
		return nil, err
	}
	return c.BaseClientCommands.InvokeScriptWithOptions(ctx, script, scriptOptions)
}
