package glidecalls

import (
	"context"

	"github.com/valkey-io/valkey-glide/go/v2/options"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

// holdStore is a project's own interface of GLIDE's client methods, which
// main fills with a *glide.ClusterClient: its calls are GLIDE's, with the
// keys where GLIDE's methods have them.
type holdStore interface {
	Exec(ctx context.Context, batch pipeline.ClusterBatch, raiseOnError bool) ([]any, error)
	SInter(ctx context.Context, keys []string) (map[string]struct{}, error)
	MSetNX(ctx context.Context, keyValueMap map[string]string) (bool, error)
	InvokeScriptWithOptions(ctx context.Context, script options.Script, scriptOptions options.ScriptOptions) (any, error)
}

type holds struct{ g holdStore }

func (h *holds) shared(ctx context.Context, a, b string) {
	h.g.SInter(ctx, []string{"devices:{" + a + "}", "devices:{" + b + "}"}) // want `SInter keys "devices:\{<a>\}" and "devices:\{<b>\}" are on different hash slots`
	h.g.SInter(ctx, []string{"devices:{" + a + "}", "devices:{" + a + "}:prev"})
	h.g.MSetNX(ctx, map[string]string{"hold:" + a: "x", "hold:" + b: "x"})                                                                        // want `MSetNX keys "hold:<[ab]>" and "hold:<[ab]>" are on different hash slots`
	h.g.InvokeScriptWithOptions(ctx, *options.NewScript("return 1"), *options.NewScriptOptions().WithKeys([]string{"hold:{" + a + "}", "holds"})) // want `InvokeScriptWithOptions keys "hold:\{<a>\}" and "holds" are on different hash slots`
}

// An interface of the project's own types is not GLIDE's, whatever its
// method names.
type setAlgebra interface {
	SInter(ctx context.Context, keys []string) (map[string]struct{}, error)
}

func common(ctx context.Context, s setAlgebra, a, b string) {
	s.SInter(ctx, []string{"devices:{" + a + "}", "devices:{" + b + "}"})
}

// A map filled in a loop, one key per element: each element's key is its
// own value.
func (h *holds) freeze(ctx context.Context, why string, ms ...string) {
	kv := make(map[string]string, len(ms))
	for _, m := range ms {
		kv["hold:{"+m+"}"] = why
	}
	h.g.MSetNX(ctx, kv) // want `MSetNX keys "hold:\{<ms\[i\]>\}" for two different elements of ms are on different hash slots`
	one := make(map[string]string, len(ms))
	for _, f := range ms {
		one["hold:{"+ms[0]+"}:"+f] = why
	}
	h.g.MSetNX(ctx, one)
}
