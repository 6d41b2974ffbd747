// Package surge computes and serves surge multipliers per geo cell.
package surge

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"

	"example.com/fleet/internal/keys"
)

// Engine computes surge from demand and supply counters.
type Engine struct {
	rc rueidis.Client
	// legacy is the go-redis style API over the same connections, used by the
	// code ported from the old pricing service.
	legacy rueidiscompat.Cmdable
}

// New returns an Engine.
func New(rc rueidis.Client, legacy rueidiscompat.Cmdable) *Engine {
	return &Engine{rc: rc, legacy: legacy}
}

func demandKey(c keys.CellID) string { return "surge:" + string(c) + ":demand" }
func supplyKey(c keys.CellID) string { return "surge:" + string(c) + ":supply" }
func multKey(c keys.CellID) string   { return fmt.Sprintf("surge:%s:mult", c) }

type cellKeys struct{ demand, supply, mult, updated string }

func tagged(c keys.CellID) cellKeys {
	tag := "surge:{" + string(c) + "}:"
	return cellKeys{demand: tag + "demand", supply: tag + "supply", mult: tag + "mult", updated: tag + "updated_at"}
}

func ratio(vals []rueidis.RedisMessage) float64 {
	d, _ := vals[0].AsFloat64()
	s, _ := vals[1].AsFloat64()
	if s <= 0 {
		return 1
	}
	return max(1, d/s)
}

// Multiplier returns demand/supply of a cell (v1 layout).
func (e *Engine) Multiplier(ctx context.Context, cell keys.CellID) (float64, error) {
	// case F41: crossslot
	vals, err := e.rc.Do(ctx, e.rc.B().Mget().Key(demandKey(cell), supplyKey(cell)).Build()).ToArray()
	if err != nil {
		return 0, err
	}
	return ratio(vals), nil
}

// MultiplierV2 returns demand/supply of a cell (v2 layout).
func (e *Engine) MultiplierV2(ctx context.Context, cell keys.CellID) (float64, error) {
	// case F42: none
	k := tagged(cell)
	vals, err := e.rc.Do(ctx, e.rc.B().Mget().Key(k.demand, k.supply).Build()).ToArray()
	if err != nil {
		return 0, err
	}
	return ratio(vals), nil
}

// Store writes a multiplier and its timestamp atomically (v1 layout).
func (e *Engine) Store(ctx context.Context, cell keys.CellID, mult float64) error {
	// case F43: crossslot
	now := strconv.FormatInt(time.Now().Unix(), 10)
	for _, r := range e.rc.DoMulti(ctx,
		e.rc.B().Multi().Build(),
		e.rc.B().Set().Key(multKey(cell)).Value(strconv.FormatFloat(mult, 'f', 2, 64)).Build(),
		e.rc.B().Set().Key("surge:"+string(cell)+":updated_at").Value(now).Build(),
		e.rc.B().Exec().Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// StoreV2 writes a multiplier and its timestamp atomically (v2 layout).
func (e *Engine) StoreV2(ctx context.Context, cell keys.CellID, mult float64) error {
	// case F44: none
	k := tagged(cell)
	now := strconv.FormatInt(time.Now().Unix(), 10)
	for _, r := range e.rc.DoMulti(ctx,
		e.rc.B().Multi().Build(),
		e.rc.B().Set().Key(k.mult).Value(strconv.FormatFloat(mult, 'f', 2, 64)).Build(),
		e.rc.B().Set().Key(k.updated).Value(now).Build(),
		e.rc.B().Exec().Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// Publish writes many cells' multipliers in one round trip; DoMulti without
// MULTI is split per node by the client.
func (e *Engine) Publish(ctx context.Context, mults map[keys.CellID]float64) error {
	// case F45: none
	cmds := make(rueidis.Commands, 0, len(mults))
	for c, m := range mults {
		cmds = append(cmds, e.rc.B().Set().Key(tagged(c).mult).Value(strconv.FormatFloat(m, 'f', 2, 64)).Ex(5*time.Minute).Build())
	}
	for _, r := range e.rc.DoMulti(ctx, cmds...) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// Heatmap reads the multipliers of many cells with one MGET.
func (e *Engine) Heatmap(ctx context.Context, cells []keys.CellID) ([]string, error) {
	// case F46: crossslot?
	ks := make([]string, len(cells))
	for i, c := range cells {
		ks[i] = multKey(c)
	}
	msgs, err := e.rc.Do(ctx, e.rc.B().Mget().Key(ks...).Build()).ToArray()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i], _ = m.ToString()
	}
	return out, nil
}

var recompute = rueidis.NewLuaScript(`
local d = tonumber(redis.call('GET', KEYS[1]) or '0')
local s = tonumber(redis.call('GET', KEYS[2]) or '0')
local m = 1
if s > 0 and d > s then m = d / s end
return tostring(m)
`)

// Recompute computes the multiplier server side (v1 layout).
func (e *Engine) Recompute(ctx context.Context, cell keys.CellID) (string, error) {
	// case F47: crossslot
	return recompute.Exec(ctx, e.rc, []string{demandKey(cell), supplyKey(cell)}, nil).ToString()
}

// RecomputeV2 computes the multiplier server side (v2 layout).
func (e *Engine) RecomputeV2(ctx context.Context, cell keys.CellID) (string, error) {
	// case F48: none
	k := tagged(cell)
	return recompute.Exec(ctx, e.rc, []string{k.demand, k.supply}, nil).ToString()
}

// Bump records a ride request in a cell and refreshes its price (ported code).
func (e *Engine) Bump(ctx context.Context, cell keys.CellID) error {
	// case F49: crossslot
	_, err := e.legacy.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, demandKey(cell))
		p.Set(ctx, "price:"+string(cell)+":stale", "1", time.Minute)
		return nil
	})
	return err
}

// BumpV2 records a ride request in a cell and refreshes its price (ported code).
func (e *Engine) BumpV2(ctx context.Context, cell keys.CellID) error {
	// case F50: none
	k := tagged(cell)
	_, err := e.legacy.TxPipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Incr(ctx, k.demand)
		p.Set(ctx, "surge:{"+string(cell)+"}:price_stale", "1", time.Minute)
		return nil
	})
	return err
}

// Compare returns the multipliers of two cells (ported code).
func (e *Engine) Compare(ctx context.Context, a, b keys.CellID) ([]any, error) {
	// case F51: crossslot
	return e.legacy.MGet(ctx, multKey(a), multKey(b)).Result()
}

// CompareV2 returns the multipliers of two cells, one GET per cell in a
// pipeline (ported code).
func (e *Engine) CompareV2(ctx context.Context, a, b keys.CellID) ([]string, error) {
	// case F52: none
	cmds, err := e.legacy.Pipelined(ctx, func(p rueidiscompat.Pipeliner) error {
		p.Get(ctx, tagged(a).mult)
		p.Get(ctx, tagged(b).mult)
		return nil
	})
	if err != nil && !rueidis.IsRedisNil(err) {
		return nil, err
	}
	out := make([]string, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, c.(*rueidiscompat.StringCmd).Val())
	}
	return out, nil
}
