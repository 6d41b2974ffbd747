// Package glideclients: GLIDE's two clients, their interfaces and batches.
package glideclients

import (
	"context"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

var ctx = context.Background()

func clients(cc *glide.ClusterClient, c *glide.Client, ic interfaces.GlideClusterClientCommands, is interfaces.GlideClientCommands, base interfaces.BaseClientCommands) {
	cc.Get(ctx, "k")                           // want `cluster`
	c.Get(ctx, "k")                            // want `one server`
	ic.Get(ctx, "k")                           // want `cluster`
	is.Get(ctx, "k")                           // want `one server`
	base.Get(ctx, "k")                         // want `either`
	pipeline.NewClusterBatch(true).Get("k")    // want `cluster`
	pipeline.NewStandaloneBatch(true).Get("k") // want `one server`
}
