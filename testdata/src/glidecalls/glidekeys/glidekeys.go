// Package glidekeys builds keys and wraps GLIDE's client for package
// glidecalls: its summaries reach the callers as facts.
package glidekeys

import (
	"context"

	glide "github.com/valkey-io/valkey-glide/go/v2"
)

func Cart(user string) string  { return "cart:" + user }  // want Cart:`key "cart:"\+p1`
func Order(user string) string { return "order:" + user } // want Order:`key "order:"\+p1`

// Move renames from to to: its callers' keys are judged at each call.
func Move(ctx context.Context, c *glide.ClusterClient, from, to string) error { // want Move:`sink Rename\(p3, p4\) at glidekeys.go:16`
	_, err := c.Rename(ctx, from, to)
	return err
}
