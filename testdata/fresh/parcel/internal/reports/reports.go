// Package reports builds the per-station daily reports.
//
// Live counters sit in the cluster; the nightly job copies what finance needs
// to the archive, a single Redis server the BI tools read.
package reports

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"example.com/parcel/internal/keys"
)

type Reporter struct {
	live    redis.UniversalClient
	archive *redis.Client
	keys    keys.Space
}

func NewReporter(live redis.UniversalClient, archive *redis.Client, ks keys.Space) *Reporter {
	return &Reporter{live: live, archive: archive, keys: ks}
}

// Snapshot freezes a station's counters as the day's report.
func (r *Reporter) Snapshot(ctx context.Context, st keys.StationID, day string) error {
	// case K35: crossslot
	return r.live.Copy(ctx, r.keys.StationCounters(st), r.keys.DailyReport(st, day), 0, true).Err()
}

// SnapshotInStation freezes the counters next to them.
func (r *Reporter) SnapshotInStation(ctx context.Context, st keys.StationID, day string) error {
	// case K36: none
	return r.live.Copy(ctx, r.keys.StationCounters(st), r.keys.StationReport(st, day), 0, true).Err()
}

// Publish copies the station reports of a day to the archive and sums them there.
func (r *Reporter) Publish(ctx context.Context, day string, stations ...keys.StationID) error {
	// case K37: none
	for _, st := range stations {
		vals, err := r.live.HGetAll(ctx, r.keys.StationReport(st, day)).Result()
		if err != nil {
			return err
		}
		if len(vals) == 0 {
			continue
		}
		if err := r.archive.HSet(ctx, r.keys.DailyReport(st, day), vals).Err(); err != nil {
			return err
		}
	}
	_, err := r.archive.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, r.keys.DailyTotal(day))
		for _, st := range stations {
			p.SAdd(ctx, r.keys.DailyTotal(day)+":stations", string(st))
			p.Copy(ctx, r.keys.DailyReport(st, day), r.keys.DailyTotal(day)+":"+string(st), 0, true)
		}
		return nil
	})
	return err
}

// ArchivedDays reads the totals of several days from the archive.
func (r *Reporter) ArchivedDays(ctx context.Context, days ...string) ([]any, error) {
	// case K38: none
	ks := make([]string, len(days))
	for i, d := range days {
		ks[i] = r.keys.DailyTotal(d)
	}
	return r.archive.MGet(ctx, ks...).Result()
}

// Merge unions report index sets that the dashboards registered at run time.
func (r *Reporter) Merge(ctx context.Context, dst string) (int64, error) {
	// case K39: crossslot?
	srcs, err := r.live.SMembers(ctx, r.keys.Prefix+":report:sources").Result()
	if err != nil {
		return 0, err
	}
	if len(srcs) == 0 {
		return 0, nil
	}
	return r.live.SUnionStore(ctx, dst, srcs...).Result()
}

// Network reads the network-wide counters next to one station's.
func (r *Reporter) Network(ctx context.Context, st keys.StationID) ([]any, error) {
	// case K40: emptytag, crossslot
	global := fmt.Sprintf("%s:{}:network", r.keys.Prefix)
	return r.live.MGet(ctx, global, r.keys.StationCounters(st)+":total").Result()
}
