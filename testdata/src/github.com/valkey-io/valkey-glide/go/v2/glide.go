// Package glide is a stub of Valkey GLIDE for Go: the cluster client and
// the standalone client share baseClient's data commands.
package glide

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

type baseClient struct{}

type ClusterClient struct{ baseClient }

type Client struct{ baseClient }

func NewClusterClient(cfg *config.ClusterClientConfiguration) (*ClusterClient, error) {
	return &ClusterClient{}, nil
}

func NewClient(cfg *config.ClientConfiguration) (*Client, error) { return &Client{}, nil }

func (c *baseClient) Set(ctx context.Context, key string, value string) (string, error) {
	return "", nil
}
func (c *baseClient) Get(ctx context.Context, key string) (models.Result[string], error) {
	return models.Result[string]{}, nil
}
func (c *baseClient) Incr(ctx context.Context, key string) (int64, error) { return 0, nil }
func (c *baseClient) MSet(ctx context.Context, keyValueMap map[string]string) (string, error) {
	return "", nil
}
func (c *baseClient) MSetNX(ctx context.Context, keyValueMap map[string]string) (bool, error) {
	return false, nil
}
func (c *baseClient) Move(ctx context.Context, key string, dbIndex int64) (bool, error) {
	return false, nil
}
func (c *baseClient) MGet(ctx context.Context, keys []string) ([]models.Result[string], error) {
	return nil, nil
}
func (c *baseClient) Del(ctx context.Context, keys []string) (int64, error)    { return 0, nil }
func (c *baseClient) Unlink(ctx context.Context, keys []string) (int64, error) { return 0, nil }
func (c *baseClient) Exists(ctx context.Context, keys []string) (int64, error) { return 0, nil }
func (c *baseClient) Touch(ctx context.Context, keys []string) (int64, error)  { return 0, nil }
func (c *baseClient) Watch(ctx context.Context, keys []string) (string, error) { return "", nil }
func (c *baseClient) Migrate(ctx context.Context, host string, port int64, keys []string, destinationDB int64, timeout int64) (string, error) {
	return "", nil
}

func (c *baseClient) Rename(ctx context.Context, key string, newKey string) (string, error) {
	return "", nil
}
func (c *baseClient) RenameNX(ctx context.Context, key string, newKey string) (bool, error) {
	return false, nil
}
func (c *baseClient) Copy(ctx context.Context, source string, destination string) (bool, error) {
	return false, nil
}
func (c *baseClient) CopyWithOptions(ctx context.Context, source string, destination string, opts options.CopyOptions) (bool, error) {
	return false, nil
}
func (c *baseClient) SMove(ctx context.Context, source string, destination string, member string) (bool, error) {
	return false, nil
}
func (c *baseClient) SUnion(ctx context.Context, keys []string) (map[string]struct{}, error) {
	return nil, nil
}
func (c *baseClient) SInter(ctx context.Context, keys []string) (map[string]struct{}, error) {
	return nil, nil
}
func (c *baseClient) SUnionStore(ctx context.Context, destination string, keys []string) (int64, error) {
	return 0, nil
}
func (c *baseClient) BLPop(ctx context.Context, keys []string, timeout time.Duration) ([]string, error) {
	return nil, nil
}
func (c *baseClient) PfCount(ctx context.Context, keys []string) (int64, error) { return 0, nil }
func (c *baseClient) PfMerge(ctx context.Context, destination string, sourceKeys []string) (string, error) {
	return "", nil
}
func (c *baseClient) LCS(ctx context.Context, key1 string, key2 string) (string, error) {
	return "", nil
}
func (c *baseClient) XRead(ctx context.Context, keysAndIds map[string]string) (map[string]any, error) {
	return nil, nil
}
func (c *baseClient) SortStore(ctx context.Context, key string, destination string) (int64, error) {
	return 0, nil
}
func (c *baseClient) SortWithOptions(ctx context.Context, key string, opts options.SortOptions) ([]models.Result[string], error) {
	return nil, nil
}
func (c *baseClient) SortStoreWithOptions(ctx context.Context, key string, destination string, opts options.SortOptions) (int64, error) {
	return 0, nil
}
func (c *baseClient) GeoSearchStore(ctx context.Context, destinationKey string, sourceKey string) (int64, error) {
	return 0, nil
}
func (c *baseClient) FCallWithKeysAndArgs(ctx context.Context, function string, keys []string, args []string) (any, error) {
	return nil, nil
}
func (c *baseClient) InvokeScript(ctx context.Context, script options.Script) (any, error) {
	return nil, nil
}
func (c *baseClient) InvokeScriptWithOptions(ctx context.Context, script options.Script, scriptOptions options.ScriptOptions) (any, error) {
	return nil, nil
}

func (c *baseClient) ZUnion(ctx context.Context, keys options.KeyArray) ([]string, error) {
	return nil, nil
}
func (c *baseClient) ZUnionStore(ctx context.Context, destination string, keysOrWeightedKeys options.KeysOrWeightedKeys) (int64, error) {
	return 0, nil
}
func (c *baseClient) PSubscribe(ctx context.Context, patterns []string, timeoutMs int) error {
	return nil
}
func (c *baseClient) Subscribe(ctx context.Context, channels []string, timeoutMs int) error {
	return nil
}
func (c *ClusterClient) SSubscribe(ctx context.Context, channels []string, timeoutMs int) error {
	return nil
}

func (c *ClusterClient) CustomCommand(ctx context.Context, args []string) (models.ClusterValue[any], error) {
	return models.ClusterValue[any]{}, nil
}
func (c *ClusterClient) CustomCommandWithRoute(ctx context.Context, args []string, route any) (models.ClusterValue[any], error) {
	return models.ClusterValue[any]{}, nil
}
func (c *ClusterClient) Exec(ctx context.Context, batch pipeline.ClusterBatch, raiseOnError bool) ([]any, error) {
	return nil, nil
}
func (c *ClusterClient) Select(ctx context.Context, index int64) (string, error) { return "", nil }
func (c *ClusterClient) FlushDB(ctx context.Context) (string, error)             { return "", nil }
func (c *ClusterClient) FlushAll(ctx context.Context) (string, error)            { return "", nil }
func (c *ClusterClient) RandomKey(ctx context.Context) (models.Result[string], error) {
	return models.Result[string]{}, nil
}
func (c *ClusterClient) DBSizeWithOptions(ctx context.Context, opts options.RouteOption) (int64, error) {
	return 0, nil
}
func (c *ClusterClient) Scan(ctx context.Context, cursor models.ClusterScanCursor) (models.ClusterScanCursor, error) {
	return cursor, nil
}

func (c *Client) CustomCommand(ctx context.Context, args []string) (any, error) { return nil, nil }
func (c *Client) Exec(ctx context.Context, batch pipeline.StandaloneBatch, raiseOnError bool) ([]any, error) {
	return nil, nil
}
