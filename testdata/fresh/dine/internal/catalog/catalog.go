// Package catalog serves restaurants and their menus.
package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/dine/internal/keys"
)

type Dish struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// Store reads and writes the catalog. rdb is the main cluster; reports is
// the reporting replica, a single server fed by the nightly export.
type Store struct {
	rdb     redis.UniversalClient
	reports *redis.Client
	menuTTL time.Duration
}

type Options struct {
	MenuTTL time.Duration
	// Reports is the reporting server; nil disables reports.
	Reports *redis.Client
}

func New(rdb redis.UniversalClient, opts Options) *Store {
	if opts.MenuTTL == 0 {
		opts.MenuTTL = 24 * time.Hour
	}
	return &Store{rdb: rdb, reports: opts.Reports, menuTTL: opts.MenuTTL}
}

func encodeMenu(dishes []Dish) map[string]any {
	m := make(map[string]any, len(dishes))
	for _, d := range dishes {
		b, _ := json.Marshal(d)
		m[d.ID] = b
	}
	return m
}

// PublishMenu replaces a restaurant's menu and bumps its version (legacy layout).
func (s *Store) PublishMenu(ctx context.Context, r keys.RestaurantID, dishes []Dish) error {
	// case H1: crossslot
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Del(ctx, keys.Menu(r))
		pipe.HSet(ctx, keys.Menu(r), encodeMenu(dishes))
		pipe.Incr(ctx, keys.MenuVersion(r))
		return nil
	})
	return err
}

// PublishMenuV2 is PublishMenu on the cluster layout.
func (s *Store) PublishMenuV2(ctx context.Context, r keys.RestaurantID, dishes []Dish) error {
	// case H2: none
	menu, ver := keys.Rest(r, "menu"), keys.Rest(r, "menu:version")
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Del(ctx, menu)
		pipe.HSet(ctx, menu, encodeMenu(dishes))
		pipe.Expire(ctx, menu, s.menuTTL)
		pipe.Incr(ctx, ver)
		return nil
	})
	return err
}

// Cards returns the search cards of restaurants, in order.
func (s *Store) Cards(ctx context.Context, ids []keys.RestaurantID) ([]string, error) {
	// case H3: crossslot
	vals, err := s.rdb.MGet(ctx, keys.Map(ids, keys.Card)...).Result()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		if str, ok := v.(string); ok {
			out[i] = str
		}
	}
	return out, nil
}

// CardsPipelined is Cards with one GET per restaurant; the cluster client
// sends each node its share of the pipeline.
func (s *Store) CardsPipelined(ctx context.Context, ids []keys.RestaurantID) ([]string, error) {
	// case H4: none
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = pipe.Get(ctx, keys.Card(id))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	out := make([]string, len(ids))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, nil
}

// SearchByCuisine stores the restaurants serving every cuisine under a
// temporary key and returns them.
func (s *Store) SearchByCuisine(ctx context.Context, cuisines ...string) ([]string, error) {
	// case H5: crossslot
	dst := "search:" + fmt.Sprint(time.Now().UnixNano())
	src := make([]string, 0, len(cuisines))
	for _, c := range cuisines {
		src = append(src, keys.Cuisine(c))
	}
	if err := s.rdb.SInterStore(ctx, dst, src...).Err(); err != nil {
		return nil, err
	}
	defer s.rdb.Del(context.WithoutCancel(ctx), dst)
	return s.rdb.SMembers(ctx, dst).Result()
}

// SearchByCuisineIdx is SearchByCuisine over the tagged cuisine index.
func (s *Store) SearchByCuisineIdx(ctx context.Context, cuisines ...string) ([]string, error) {
	// case H6: none
	dst := keys.CuisineIdx("tmp:" + fmt.Sprint(time.Now().UnixNano()))
	src := make([]string, 0, len(cuisines))
	for _, c := range cuisines {
		src = append(src, keys.CuisineIdx(c))
	}
	if err := s.rdb.SInterStore(ctx, dst, src...).Err(); err != nil {
		return nil, err
	}
	defer s.rdb.Del(context.WithoutCancel(ctx), dst)
	return s.rdb.SMembers(ctx, dst).Result()
}

// CloneMenu copies one restaurant's menu to a new branch (legacy layout).
func (s *Store) CloneMenu(ctx context.Context, from, to keys.RestaurantID) error {
	// case H7: crossslot
	return s.rdb.Copy(ctx, keys.Menu(from), keys.Menu(to), 0, true).Err()
}

// SnapshotMenu keeps a copy of the current menu beside it for rollbacks.
func (s *Store) SnapshotMenu(ctx context.Context, r keys.RestaurantID) error {
	// case H8: none
	return s.rdb.Copy(ctx, keys.Rest(r, "menu"), keys.Rest(r, "menu:snapshot"), 0, true).Err()
}

// SetHours updates opening hours and the open-now set when nobody raced us.
func (s *Store) SetHours(ctx context.Context, r keys.RestaurantID, hours string, openNow bool) error {
	// case H9: crossslot
	hk := keys.Rest(r, "hours")
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		if cur, err := tx.Get(ctx, hk).Result(); err == nil && cur == hours {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, hk, hours, 0)
			if openNow {
				pipe.SAdd(ctx, keys.OpenNow, string(r))
			} else {
				pipe.SRem(ctx, keys.OpenNow, string(r))
			}
			return nil
		})
		return err
	}, hk)
}

// SetHoursV2 keeps the open flag on the restaurant's own slot.
func (s *Store) SetHoursV2(ctx context.Context, r keys.RestaurantID, hours string, openNow bool) error {
	// case H10: none
	hk := keys.Rest(r, "hours")
	return s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		if cur, err := tx.Get(ctx, hk).Result(); err == nil && cur == hours {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Set(ctx, hk, hours, 0)
			pipe.Set(ctx, keys.Rest(r, "open"), openNow, 0)
			return nil
		})
		return err
	}, hk)
}

// LegacyStats reads the old stats database the monolith kept in DB 2.
func (s *Store) LegacyStats(ctx context.Context, r keys.RestaurantID) (string, error) {
	// case H11: database
	if err := s.rdb.Do(ctx, "SELECT", 2).Err(); err != nil {
		return "", err
	}
	v, err := s.rdb.Get(ctx, "stats:"+string(r)).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return v, err
}

// DishesByPrice lists a restaurant's dish ids by their price keys.
func (s *Store) DishesByPrice(ctx context.Context, r keys.RestaurantID) ([]string, error) {
	// case H12: sortpattern
	return s.rdb.Sort(ctx, keys.Rest(r, "dishes"), &redis.Sort{By: "dish:*:price", Order: "ASC"}).Result()
}

// DishesByName lists a restaurant's dish ids alphabetically.
func (s *Store) DishesByName(ctx context.Context, r keys.RestaurantID) ([]string, error) {
	// case H13: none
	return s.rdb.Sort(ctx, keys.Rest(r, "dishes"), &redis.Sort{Alpha: true, Order: "ASC"}).Result()
}

// CardsReport reads many cards at once from the reporting server.
func (s *Store) CardsReport(ctx context.Context, ids []keys.RestaurantID) ([]any, error) {
	// case H14: none
	if s.reports == nil {
		return nil, errors.New("catalog: no reporting server")
	}
	return s.reports.MGet(ctx, keys.Map(ids, keys.Card)...).Result()
}
