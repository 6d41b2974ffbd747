// Package interfaces is a stub of GLIDE's client interfaces.
package interfaces

import (
	"context"

	"github.com/valkey-io/valkey-glide/go/v2/models"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

type BaseClientCommands interface {
	Get(ctx context.Context, key string) (models.Result[string], error)
	MGet(ctx context.Context, keys []string) ([]models.Result[string], error)
	Del(ctx context.Context, keys []string) (int64, error)
	Rename(ctx context.Context, key string, newKey string) (string, error)
	SUnion(ctx context.Context, keys []string) (map[string]struct{}, error)
	Watch(ctx context.Context, keys []string) (string, error)
}

type GlideClusterClientCommands interface {
	BaseClientCommands
	CustomCommand(ctx context.Context, args []string) (models.ClusterValue[any], error)
	Exec(ctx context.Context, batch pipeline.ClusterBatch, raiseOnError bool) ([]any, error)
}

type GlideClientCommands interface {
	BaseClientCommands
	CustomCommand(ctx context.Context, args []string) (any, error)
	Exec(ctx context.Context, batch pipeline.StandaloneBatch, raiseOnError bool) ([]any, error)
}
