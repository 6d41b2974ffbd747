// Package dbsapp calls dbs's methods with databases and SORT patterns of
// its own, or passes its parameters on.
package dbsapp

import (
	"context"

	"forwards/dbs"
)

func archive(ctx context.Context, s *dbs.Store) {
	s.CopyTo(ctx, "{o:1}:a", "{o:1}:b", 3) // want `^dbs.Store.CopyTo sends COPY \(dbs.go:21\) with the arguments of this call: COPY ... DB 3 needs a database other than 0, which a cluster does not have`
	s.CopyTo(ctx, "{o:1}:a", "{o:1}:b", 0) // database 0: fine
	s.Use(ctx, 2)                          // want `^dbs.Store.Use sends SELECT \(dbs.go:26\) with the arguments of this call: SELECT 2 needs a database other than 0`
	s.Use(ctx, 0)
	s.UseDB(ctx, 4) // want `^dbs.Store.UseDB sends SELECT \(dbs.go:41\) with the arguments of this call: SELECT 4 needs`
	s.UseDB(ctx, 0)
}

func sorting(ctx context.Context, s *dbs.Store) {
	s.SortBy(ctx, "ids", "w_*")             // want `^dbs.Store.SortBy sends SORT \(dbs.go:31\) with the arguments of this call: SORT BY "w_\*"`
	s.SortBy(ctx, "ids", "nosort")          // no pattern
	s.SortBy(ctx, "{ids}", "{ids}:w_*")     // the sorted key's slot: accepted from Redis 7.4
	s.SortByPrefix(ctx, "ids", "weight")    // want `^dbs.Store.SortByPrefix sends SORT \(dbs.go:36\) with the arguments of this call: SORT BY "weight_\*"`
	s.SortByPrefix(ctx, "{u}:ids", "{u}:w") // the sorted key's tag
	s.SortRueidis(ctx, "ids", "w_*")        // want `^dbs.Store.SortRueidis sends SORT \(dbs.go:46\)`
	s.SortRueidis(ctx, "ids", "nosort")
	s.SortOwn(ctx, "u1") // the pattern begins with the key's own tag: "{u1}:w_*" on "u1"'s slot
}

// copyAll passes its database on: its callers decide.
func copyAll(ctx context.Context, s *dbs.Store, db int) {
	s.CopyTo(ctx, "{o:1}:a", "{o:1}:b", db)
}

// sortWith passes its pattern on.
func sortWith(ctx context.Context, s *dbs.Store, by string) {
	s.SortBy(ctx, "ids", by)
}

func callers(ctx context.Context, s *dbs.Store) {
	copyAll(ctx, s, 5)      // want `^copyAll sends COPY \(dbs.go:21\) with the arguments of this call: COPY ... DB 5`
	copyAll(ctx, s, 0)      // database 0
	sortWith(ctx, s, "o_*") // want `^sortWith sends SORT \(dbs.go:31\)`
	sortWith(ctx, s, "")    // no pattern
}
