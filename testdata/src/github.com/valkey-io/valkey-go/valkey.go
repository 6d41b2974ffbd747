// Package valkey stubs github.com/valkey-io/valkey-go for the analyzer's tests.
package valkey

import (
	"context"

	"github.com/valkey-io/valkey-go/internal/cmds"
)

type Builder = cmds.Builder
type Completed = cmds.Completed

type RedisResult struct{}

func (r RedisResult) Error() error { return nil }

func (r RedisResult) AsStrSlice() (v []string, err error) { return }

func (r RedisResult) AsScanEntry() (v ScanEntry, err error) { return }

type ScanEntry struct {
	Elements []string
	Cursor   uint64
}

type Client interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp RedisResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []RedisResult)
	Dedicated(fn func(DedicatedClient) error) (err error)
	Nodes() map[string]Client
	Mode() ClientMode
	Close()
}

// DedicatedClient is a client pinned to one connection (WATCH, MULTI/EXEC).
type DedicatedClient interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp RedisResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []RedisResult)
}

// ClientMode is what a client talks to, as Mode reports it.
type ClientMode string

const (
	ClientModeCluster    ClientMode = "cluster"
	ClientModeSentinel   ClientMode = "sentinel"
	ClientModeStandalone ClientMode = "standalone"
)

type ClientOption struct {
	InitAddress       []string
	ForceSingleClient bool
	SelectDB          int
}

func NewClient(option ClientOption) (client Client, err error) { return nil, nil }

// ParseURL reads a redis:// URL: its path is SelectDB.
func ParseURL(str string) (opt ClientOption, err error) { return opt, nil }

type Lua struct{ script string }

func NewLuaScript(script string) *Lua { return &Lua{script: script} }

func (s *Lua) Exec(ctx context.Context, c Client, keys, args []string) (resp RedisResult) { return }

// MGet splits keys by slot: never a cross-slot command.
func MGet(client Client, ctx context.Context, keys []string) (ret map[string]RedisResult, err error) {
	return nil, nil
}
