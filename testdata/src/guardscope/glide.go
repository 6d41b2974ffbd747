package guardscope

import (
	"context"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/config"
	"github.com/valkey-io/valkey-glide/go/v2/interfaces"
)

// GLIDE's clients held as one of its interfaces, told apart by their
// types: the same scope. (Its cluster client splits MGET by slot: no
// finding for it.)
type Board struct{ c interfaces.BaseClientCommands }

func NewBoard(c interfaces.BaseClientCommands) *Board { return &Board{c: c} }

func (b *Board) rotate(ctx context.Context) {
	if _, ok := b.c.(*glide.ClusterClient); !ok {
		b.c.Rename(ctx, "a:1", "b:2")
		return
	}
	b.c.MGet(ctx, []string{"a:1", "b:2"})
}

func (b *Board) Rotate(ctx context.Context) {
	b.c.Rename(ctx, "a:1", "b:2") // want `Rename keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
}

// A board the package only ever makes on one server: judged as a cluster's
// only where a type check ruled one in.
type LocalBoard struct{ c interfaces.BaseClientCommands }

func NewLocalBoard() *LocalBoard {
	c, _ := glide.NewClient(config.NewClientConfiguration())
	return &LocalBoard{c: c}
}

func (b *LocalBoard) Rotate(ctx context.Context) {
	if _, ok := b.c.(*glide.ClusterClient); ok {
		b.c.Rename(ctx, "a:1", "b:2") // want `Rename keys "a:1" \(slot 8311\) and "b:2" \(slot 2372\) are on different hash slots`
	}
	b.c.Rename(ctx, "a:1", "b:2")
}

func (b *LocalBoard) Sibling(ctx context.Context) {
	b.c.Rename(ctx, "a:1", "b:2")
}
