// Package geo indexes drivers by geo cell and by position.
package geo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/redis/rueidis"

	"example.com/fleet/internal/keys"
)

// Index is the driver geo index.
type Index struct {
	rc       rueidis.Client
	radiusKm float64
}

// New returns an Index.
func New(rc rueidis.Client, radiusKm float64) *Index {
	return &Index{rc: rc, radiusKm: radiusKm}
}

// cellKey is the set of drivers in a cell (v1 layout).
func cellKey(c keys.CellID) string {
	var b strings.Builder
	b.WriteString("cell:")
	b.WriteString(string(c))
	b.WriteString(":drivers")
	return b.String()
}

// cellKeyV2 is the set of drivers in a cell (v2 layout).
func cellKeyV2(c keys.CellID) string {
	var b strings.Builder
	b.WriteString("cell:{")
	b.WriteString(string(c))
	b.WriteString("}:drivers")
	return b.String()
}

// Neighbors returns the four cells around c; cells are "<city>-<x>-<y>".
func Neighbors(c keys.CellID) []keys.CellID {
	parts := strings.Split(string(c), "-")
	if len(parts) != 3 {
		return nil
	}
	x, _ := strconv.Atoi(parts[1])
	y, _ := strconv.Atoi(parts[2])
	cell := func(x, y int) keys.CellID { return keys.CellID(fmt.Sprintf("%s-%d-%d", parts[0], x, y)) }
	return []keys.CellID{cell(x+1, y), cell(x-1, y), cell(x, y+1), cell(x, y-1)}
}

// Enter adds a driver to a cell (both layouts during the migration).
func (ix *Index) Enter(ctx context.Context, d keys.DriverID, c keys.CellID) error {
	for _, r := range ix.rc.DoMulti(ctx,
		ix.rc.B().Sadd().Key(cellKey(c)).Member(string(d)).Build(),
		ix.rc.B().Sadd().Key(cellKeyV2(c)).Member(string(d)).Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// Move moves a driver between cells (v1 layout).
func (ix *Index) Move(ctx context.Context, d keys.DriverID, from, to keys.CellID) (bool, error) {
	// case F53: crossslot
	return ix.rc.Do(ctx, ix.rc.B().Smove().Source(cellKey(from)).Destination(cellKey(to)).Member(string(d)).Build()).AsBool()
}

// MoveV2 moves a driver between cells: two commands, one per cell.
func (ix *Index) MoveV2(ctx context.Context, d keys.DriverID, from, to keys.CellID) error {
	// case F54: none
	for _, r := range ix.rc.DoMulti(ctx,
		ix.rc.B().Srem().Key(cellKeyV2(from)).Member(string(d)).Build(),
		ix.rc.B().Sadd().Key(cellKeyV2(to)).Member(string(d)).Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// Nearby returns the drivers in a cell and its neighbors (v1 layout).
func (ix *Index) Nearby(ctx context.Context, c keys.CellID) ([]string, error) {
	// case F55: crossslot
	ks := []string{cellKey(c)}
	for _, n := range Neighbors(c) {
		ks = append(ks, cellKey(n))
	}
	return ix.rc.Do(ctx, ix.rc.B().Sunion().Key(ks...).Build()).AsStrSlice()
}

// NearbyV2 returns the drivers in a cell and its neighbors, reading each cell
// on its own and merging in the client.
func (ix *Index) NearbyV2(ctx context.Context, c keys.CellID) ([]string, error) {
	cells := append([]keys.CellID{c}, Neighbors(c)...)
	// case F56: none
	cmds := make(rueidis.Commands, 0, len(cells))
	for _, n := range cells {
		cmds = append(cmds, ix.rc.B().Smembers().Key(cellKeyV2(n)).Build())
	}
	seen := map[string]bool{}
	for _, r := range ix.rc.DoMulti(ctx, cmds...) {
		ids, err := r.AsStrSlice()
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			seen[id] = true
		}
	}
	out := make([]string, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	slices.Sort(out)
	return out, nil
}

// Report stores a driver's position in its region.
func (ix *Index) Report(ctx context.Context, region string, d keys.DriverID, lon, lat float64) error {
	return ix.rc.Do(ctx, ix.rc.B().Geoadd().Key(fmt.Sprintf("geo:{%s}:drivers", region)).
		LongitudeLatitudeMember().LongitudeLatitudeMember(lon, lat, string(d)).Build()).Error()
}

// NearRider stores the drivers around a rider for the matcher (v1 layout of
// the search results).
func (ix *Index) NearRider(ctx context.Context, region string, r keys.RiderID, lon, lat float64) (int64, error) {
	// case F57: crossslot
	dest := "search:" + string(r)
	src := fmt.Sprintf("geo:{%s}:drivers", region)
	return ix.rc.Do(ctx, ix.rc.B().Geosearchstore().Destination(dest).Source(src).
		Fromlonlat(lon, lat).Byradius(ix.radiusKm).Km().Asc().Build()).AsInt64()
}

// NearRiderV2 stores the search results beside the region's index.
func (ix *Index) NearRiderV2(ctx context.Context, region string, r keys.RiderID, lon, lat float64) (int64, error) {
	// case F58: none
	dest := fmt.Sprintf("geo:{%s}:near:%s", region, r)
	src := fmt.Sprintf("geo:{%s}:drivers", region)
	return ix.rc.Do(ctx, ix.rc.B().Geosearchstore().Destination(dest).Source(src).
		Fromlonlat(lon, lat).Byradius(ix.radiusKm).Km().Asc().Build()).AsInt64()
}

// Split moves a cell's drivers to its successor cell set (v1 layout).
func (ix *Index) Split(ctx context.Context, c keys.CellID, gen int) (bool, error) {
	// case F59: crossslot
	next := cellKey(c) + ":gen" + strconv.Itoa(gen)
	return ix.rc.Do(ctx, ix.rc.B().Renamenx().Key(cellKey(c)).Newkey(next).Build()).AsBool()
}

// SplitV2 moves a cell's drivers to its successor cell set (v2 layout).
func (ix *Index) SplitV2(ctx context.Context, c keys.CellID, gen int) (bool, error) {
	// case F60: none
	next := cellKeyV2(c) + ":gen" + strconv.Itoa(gen)
	return ix.rc.Do(ctx, ix.rc.B().Renamenx().Key(cellKeyV2(c)).Newkey(next).Build()).AsBool()
}
