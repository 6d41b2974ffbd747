// Package redis stubs github.com/redis/go-redis/v9 for the analyzer's tests,
// with the real package's shape: commands declared on the unexported cmdable,
// family interfaces, UniversalClient, Pipeliner and Script.
package redis

import (
	"context"
	"time"
)

type Cmder interface{ Err() error }

type cmd struct{}

func (cmd) Err() error { return nil }

type (
	IntCmd          struct{ cmd }
	StatusCmd       struct{ cmd }
	BoolCmd         struct{ cmd }
	StringCmd       struct{ cmd }
	SliceCmd        struct{ cmd }
	StringSliceCmd  struct{ cmd }
	Cmd             struct{ cmd }
	ZSliceCmd       struct{ cmd }
	XStreamSliceCmd struct{ cmd }
	LCSCmd          struct{ cmd }
	JSONSliceCmd    struct{ cmd }
	ScanCmd         struct{ cmd }
)

// ErrCrossSlot marks go-redis v9.11.0 and later, which refuse a cluster
// transaction across slots.
var ErrCrossSlot error

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Incr(ctx context.Context, key string) *IntCmd { return nil }
func (c cmdable) Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return nil
}
func (c cmdable) Ping(ctx context.Context) *StatusCmd { return nil }

func (c cmdable) Get(ctx context.Context, key string) *StringCmd { return nil }
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return nil
}
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd            { return nil }
func (c cmdable) Exists(ctx context.Context, keys ...string) *IntCmd         { return nil }
func (c cmdable) Unlink(ctx context.Context, keys ...string) *IntCmd         { return nil }
func (c cmdable) MGet(ctx context.Context, keys ...string) *SliceCmd         { return nil }
func (c cmdable) MSet(ctx context.Context, values ...interface{}) *StatusCmd { return nil }
func (c cmdable) MSetNX(ctx context.Context, values ...interface{}) *BoolCmd { return nil }
func (c cmdable) Touch(ctx context.Context, keys ...string) *IntCmd          { return nil }
func (c cmdable) Rename(ctx context.Context, key, newkey string) *StatusCmd  { return nil }
func (c cmdable) SMove(ctx context.Context, source, destination string, member interface{}) *BoolCmd {
	return nil
}
func (c cmdable) Copy(ctx context.Context, sourceKey, destKey string, db int, replace bool) *IntCmd {
	return nil
}
func (c cmdable) SUnionStore(ctx context.Context, destination string, keys ...string) *IntCmd {
	return nil
}
func (c cmdable) SInterStore(ctx context.Context, destination string, keys ...string) *IntCmd {
	return nil
}
func (c cmdable) PFCount(ctx context.Context, keys ...string) *IntCmd                 { return nil }
func (c cmdable) PFMerge(ctx context.Context, dest string, keys ...string) *StatusCmd { return nil }
func (c cmdable) SUnion(ctx context.Context, keys ...string) *StringSliceCmd          { return nil }
func (c cmdable) SInterCard(ctx context.Context, limit int64, keys ...string) *IntCmd { return nil }
func (c cmdable) BLPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd {
	return nil
}
func (c cmdable) Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd {
	return nil
}
func (c cmdable) FCall(ctx context.Context, function string, keys []string, args ...interface{}) *Cmd {
	return nil
}
func (c cmdable) ZInterStore(ctx context.Context, destination string, store *ZStore) *IntCmd {
	return nil
}
func (c cmdable) ZUnionStore(ctx context.Context, dest string, store *ZStore) *IntCmd {
	return nil
}
func (c cmdable) ZUnion(ctx context.Context, store ZStore) *StringSliceCmd { return nil }
func (c cmdable) LCS(ctx context.Context, q *LCSQuery) *LCSCmd             { return nil }
func (c cmdable) XRead(ctx context.Context, a *XReadArgs) *XStreamSliceCmd { return nil }
func (c cmdable) JSONMGet(ctx context.Context, path string, keys ...string) *JSONSliceCmd {
	return nil
}
func (c cmdable) Do(ctx context.Context, args ...interface{}) *Cmd { return nil }

// Keyspace-wide commands, databases and SORT: what a cluster refuses or runs
// on one node.
func (c cmdable) Keys(ctx context.Context, pattern string) *StringSliceCmd { return nil }
func (c cmdable) Scan(ctx context.Context, cursor uint64, match string, count int64) *ScanCmd {
	return nil
}
func (c cmdable) RandomKey(ctx context.Context) *StringCmd                        { return nil }
func (c cmdable) FlushDB(ctx context.Context) *StatusCmd                          { return nil }
func (c cmdable) FlushAll(ctx context.Context) *StatusCmd                         { return nil }
func (c cmdable) DBSize(ctx context.Context) *IntCmd                              { return nil }
func (c cmdable) Move(ctx context.Context, key string, db int) *BoolCmd           { return nil }
func (c cmdable) FunctionLoad(ctx context.Context, code string) *StringCmd        { return nil }
func (c cmdable) FunctionLoadReplace(ctx context.Context, code string) *StringCmd { return nil }
func (c cmdable) ScriptLoad(ctx context.Context, script string) *StringCmd        { return nil }

// ScriptLoad loads the script on every master.
func (c *ClusterClient) ScriptLoad(ctx context.Context, script string) *StringCmd  { return nil }
func (c cmdable) Sort(ctx context.Context, key string, sort *Sort) *StringSliceCmd { return nil }
func (c cmdable) SortStore(ctx context.Context, key, store string, sort *Sort) *IntCmd {
	return nil
}
func (c cmdable) SPublish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return nil
}

type statefulCmdable func(ctx context.Context, cmd Cmder) error

func (c statefulCmdable) Select(ctx context.Context, index int) *StatusCmd { return nil }

type Sort struct {
	By            string
	Offset, Count int64
	Get           []string
	Order         string
	Alpha         bool
}

type PubSub struct{}

func (c *PubSub) SSubscribe(ctx context.Context, channels ...string) error   { return nil }
func (c *PubSub) Close() error                                               { return nil }
func (c *PubSub) SUnsubscribe(ctx context.Context, channels ...string) error { return nil }

type ZStore struct {
	Keys      []string
	Weights   []float64
	Aggregate string
}

type LCSQuery struct {
	Key1, Key2 string
	Len        bool
}

type XReadArgs struct {
	Streams []string
	Count   int64
	Block   time.Duration
	ID      string
}

type StringCmdable interface {
	Get(ctx context.Context, key string) *StringCmd
	Incr(ctx context.Context, key string) *IntCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	MGet(ctx context.Context, keys ...string) *SliceCmd
	MSet(ctx context.Context, values ...interface{}) *StatusCmd
	MSetNX(ctx context.Context, values ...interface{}) *BoolCmd
	LCS(ctx context.Context, q *LCSQuery) *LCSCmd
}

type GenericCmdable interface {
	Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Exists(ctx context.Context, keys ...string) *IntCmd
	Unlink(ctx context.Context, keys ...string) *IntCmd
	Rename(ctx context.Context, key, newkey string) *StatusCmd
	Copy(ctx context.Context, sourceKey, destKey string, db int, replace bool) *IntCmd
}

type Cmdable interface {
	StringCmdable
	GenericCmdable
	Ping(ctx context.Context) *StatusCmd
	XAdd(ctx context.Context, a *XAddArgs) *StringCmd
	XClaim(ctx context.Context, a *XClaimArgs) *XMessageSliceCmd
	ZRangeArgs(ctx context.Context, z ZRangeArgs) *StringSliceCmd
	ZRem(ctx context.Context, key string, members ...interface{}) *IntCmd
	SUnionStore(ctx context.Context, destination string, keys ...string) *IntCmd
	SInterCard(ctx context.Context, limit int64, keys ...string) *IntCmd
	BLPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
	FCall(ctx context.Context, function string, keys []string, args ...interface{}) *Cmd
	ZInterStore(ctx context.Context, destination string, store *ZStore) *IntCmd
	ZUnion(ctx context.Context, store ZStore) *StringSliceCmd
	XRead(ctx context.Context, a *XReadArgs) *XStreamSliceCmd
	JSONMGet(ctx context.Context, path string, keys ...string) *JSONSliceCmd
	Keys(ctx context.Context, pattern string) *StringSliceCmd
	Scan(ctx context.Context, cursor uint64, match string, count int64) *ScanCmd
	FlushDB(ctx context.Context) *StatusCmd
	FlushAll(ctx context.Context) *StatusCmd
	ConfigSet(ctx context.Context, parameter, value string) *StatusCmd
	DBSize(ctx context.Context) *IntCmd
	Move(ctx context.Context, key string, db int) *BoolCmd
	Sort(ctx context.Context, key string, sort *Sort) *StringSliceCmd
	Pipeline() Pipeliner
	TxPipeline() Pipeliner
	Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
	TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error)
}

type Scripter interface {
	Eval(ctx context.Context, script string, keys []string, args ...interface{}) *Cmd
	EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd
}

func (c cmdable) EvalSha(ctx context.Context, sha1 string, keys []string, args ...interface{}) *Cmd {
	return nil
}

type UniversalOptions struct {
	Addrs         []string
	DB            int
	MasterName    string
	IsClusterMode bool
}

func NewUniversalClient(opts *UniversalOptions) UniversalClient { return nil }

type Pipeliner interface {
	Cmdable
	Select(ctx context.Context, index int) *StatusCmd
	Do(ctx context.Context, args ...interface{}) *Cmd
	Exec(ctx context.Context) ([]Cmder, error)
}

type UniversalClient interface {
	Cmdable
	SSubscribe(ctx context.Context, channels ...string) *PubSub
	Subscribe(ctx context.Context, channels ...string) *PubSub
	PSubscribe(ctx context.Context, channels ...string) *PubSub
	Do(ctx context.Context, args ...interface{}) *Cmd
	Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error
}

type ClusterClient struct {
	cmdable
}

func NewClusterClient(opt *ClusterOptions) *ClusterClient { return &ClusterClient{} }

type ClusterOptions struct{ Addrs []string }

func (c *ClusterClient) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	return nil
}
func (c *ClusterClient) Pipeline() Pipeliner { return nil }

// A command-info resolver routes commands by the server's policies.
type commandInfoResolver struct{}

func (c *ClusterClient) NewDynamicResolver() *commandInfoResolver      { return nil }
func (c *ClusterClient) SetCommandInfoResolver(r *commandInfoResolver) {}
func (c *ClusterClient) ForEachShard(ctx context.Context, fn func(ctx context.Context, client *Client) error) error {
	return nil
}
func (c *ClusterClient) ForEachMaster(ctx context.Context, fn func(ctx context.Context, client *Client) error) error {
	return nil
}
func (c *ClusterClient) SSubscribe(ctx context.Context, channels ...string) *PubSub {
	return nil
}
func (c *ClusterClient) TxPipeline() Pipeliner { return nil }
func (c *ClusterClient) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c *ClusterClient) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}

type Ring struct{ cmdable }

type RingOptions struct {
	Addrs map[string]string
	DB    int
}

func NewRing(opt *RingOptions) *Ring { return &Ring{} }
func (c *Ring) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error {
	return nil
}
func (c *Ring) TxPipeline() Pipeliner { return nil }
func (c *Ring) Pipeline() Pipeliner   { return nil }
func (c *Ring) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c *Ring) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}

type Client struct{ cmdable }

type Options struct {
	Addr string
	DB   int
}

func NewClient(opt *Options) *Client { return &Client{} }

// ParseURL reads a redis:// URL: its path is the database.
func ParseURL(redisURL string) (*Options, error) { return &Options{}, nil }

type FailoverOptions struct {
	MasterName    string
	SentinelAddrs []string
	DB            int
}

func NewFailoverClient(opt *FailoverOptions) *Client { return &Client{} }

// NewFailoverClusterClient is a *ClusterClient over a Sentinel group.
func NewFailoverClusterClient(opt *FailoverOptions) *ClusterClient { return &ClusterClient{} }

func (c *Client) Pipeline() Pipeliner { return nil }
func (c *Client) SSubscribe(ctx context.Context, channels ...string) *PubSub {
	return nil
}
func (c *Client) Conn() *Conn           { return nil }
func (c *Client) TxPipeline() Pipeliner { return nil }
func (c *Client) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c *Client) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}

func (c *Client) Watch(ctx context.Context, fn func(*Tx) error, keys ...string) error { return nil }

type Conn struct {
	cmdable
	statefulCmdable
}

type Tx struct{ cmdable }

func (c *Tx) Pipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c *Tx) TxPipelined(ctx context.Context, fn func(Pipeliner) error) ([]Cmder, error) {
	return nil, nil
}
func (c *Tx) TxPipeline() Pipeliner { return nil }

func (c *Tx) Watch(ctx context.Context, keys ...string) *StatusCmd { return nil }

type Script struct{ src string }

func NewScript(src string) *Script { return &Script{src: src} }

func (s *Script) Run(ctx context.Context, c Scripter, keys []string, args ...interface{}) *Cmd {
	return nil
}

func (c *StringSliceCmd) Val() []string                { return nil }
func (c *StringSliceCmd) Result() ([]string, error)    { return nil, nil }
func (c *ScanCmd) Val() (keys []string, cursor uint64) { return nil, 0 }
func (c *ScanCmd) Result() (keys []string, cursor uint64, err error) {
	return nil, 0, nil
}

func (c *ClusterClient) Subscribe(ctx context.Context, channels ...string) *PubSub  { return nil }
func (c *ClusterClient) PSubscribe(ctx context.Context, channels ...string) *PubSub { return nil }
func (c *Client) Subscribe(ctx context.Context, channels ...string) *PubSub         { return nil }
func (c *Client) PSubscribe(ctx context.Context, channels ...string) *PubSub        { return nil }
func (c cmdable) ConfigSet(ctx context.Context, parameter, value string) *StatusCmd { return nil }

type XAddArgs struct {
	Stream string
	Values interface{}
}

func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) *StringCmd { return nil }

type XClaimArgs struct {
	Stream   string
	Group    string
	Consumer string
	Messages []string
}

type XMessageSliceCmd struct{}

func (c cmdable) XClaim(ctx context.Context, a *XClaimArgs) *XMessageSliceCmd { return nil }

type ZRangeArgs struct {
	Key   string
	Start any
	Stop  any
}

func (c cmdable) ZRangeArgs(ctx context.Context, z ZRangeArgs) *StringSliceCmd { return nil }

func (c cmdable) ZRem(ctx context.Context, key string, members ...interface{}) *IntCmd { return nil }

func (c *Ring) Subscribe(ctx context.Context, channels ...string) *PubSub  { return nil }
func (c *Ring) PSubscribe(ctx context.Context, channels ...string) *PubSub { return nil }
func (c *Ring) SSubscribe(ctx context.Context, channels ...string) *PubSub { return nil }
func (c *Ring) ForEachShard(ctx context.Context, fn func(ctx context.Context, client *Client) error) error {
	return nil
}
