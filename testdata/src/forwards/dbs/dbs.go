// Package dbs sends commands whose database or SORT pattern its callers
// give: each call that fixes them is judged with its own values.
package dbs

import (
	"context"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

type Store struct {
	rdb redis.UniversalClient
	rc  rueidis.Client
}

func New(rdb redis.UniversalClient, rc rueidis.Client) *Store { return &Store{rdb: rdb, rc: rc} }

// CopyTo copies a key to the database its callers name.
func (s *Store) CopyTo(ctx context.Context, src, dst string, db int) error { // want CopyTo:`forwards COPY\(p5\) at dbs.go:21`
	return s.rdb.Copy(ctx, src, dst, db, true).Err()
}

// Use selects the database its callers name, as a raw command.
func (s *Store) Use(ctx context.Context, db int) error { // want Use:`forwards SELECT\(p3\) at dbs.go:26`
	return s.rdb.Do(ctx, "SELECT", db).Err()
}

// SortBy sorts a list by the weights its callers' pattern names.
func (s *Store) SortBy(ctx context.Context, key, by string) []string { // want SortBy:`forwards SORT\(p3, p4\) at dbs.go:31`
	return s.rdb.Sort(ctx, key, &redis.Sort{By: by}).Val()
}

// SortByPrefix builds the pattern from its callers' prefix.
func (s *Store) SortByPrefix(ctx context.Context, key, prefix string) []string { // want SortByPrefix:`forwards SORT\(p3, p4\) at dbs.go:36`
	return s.rdb.Sort(ctx, key, &redis.Sort{By: prefix + "_*"}).Val()
}

// UseDB selects a database on the rueidis client, from its callers.
func (s *Store) UseDB(ctx context.Context, db int64) error { // want UseDB:`forwards SELECT\(p3\) at dbs.go:41`
	return s.rc.Do(ctx, s.rc.B().Select().Index(db).Build()).Error()
}

// SortRueidis sorts by the pattern its callers give, on the rueidis client.
func (s *Store) SortRueidis(ctx context.Context, key, by string) ([]string, error) { // want SortRueidis:`forwards SORT\(p3, p4\) at dbs.go:46`
	return s.rc.Do(ctx, s.rc.B().Sort().Key(key).By(by).Build()).AsStrSlice()
}

// SortOwn sorts by a pattern of its own, on its callers' key.
func (s *Store) SortOwn(ctx context.Context, key string) []string { // want SortOwn:`forwards SORT\(p3\) at dbs.go:51`
	return s.rdb.Sort(ctx, key, &redis.Sort{By: "{" + key + "}:w_*"}).Val()
}
