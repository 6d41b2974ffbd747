// Package leaderboard keeps per-season, per-region ranked boards.
package leaderboard

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"example.com/arena/internal/ids"
)

// ArchiveDB is the database the season archive lived in on the old server.
const ArchiveDB = 1

// Store is the leaderboard store.
type Store struct {
	rdb     redis.UniversalClient
	regions []string
}

// NewStore returns a Store that rolls the given regions up into the global
// board.
func NewStore(rdb redis.UniversalClient, regions ...string) *Store {
	return &Store{rdb: rdb, regions: regions}
}

// legacyBoard is the key layout of seasons 1 to 6.
func legacyBoard(s ids.Season, region string) string {
	return "lb:season:" + strconv.Itoa(int(s)) + ":" + region
}

func seasonTag(s ids.Season) string { return fmt.Sprintf("{season:%d}", s) }

// board is the key layout from season 7 on: one season, one slot.
func board(s ids.Season, name string) string { return "lb:" + seasonTag(s) + ":" + name }

func playerStats(p ids.PlayerID) string { return "player:" + p.String() + ":stats" }
func friendsOf(p ids.PlayerID) string   { return "friends:" + p.String() }

// RollupLegacy rebuilds the global board of a legacy season from its regions.
func (st *Store) RollupLegacy(ctx context.Context, s ids.Season) (int64, error) {
	// case G28: crossslot
	z := &redis.ZStore{Aggregate: "MAX"}
	for _, r := range st.regions {
		z.Keys = append(z.Keys, legacyBoard(s, r))
	}
	return st.rdb.ZUnionStore(ctx, legacyBoard(s, "global"), z).Result()
}

// Rollup rebuilds the global board of a season from its regions.
func (st *Store) Rollup(ctx context.Context, s ids.Season) (int64, error) {
	// case G29: none
	z := &redis.ZStore{Aggregate: "MAX"}
	for _, r := range st.regions {
		z.Keys = append(z.Keys, board(s, r))
	}
	return st.rdb.ZUnionStore(ctx, board(s, "global"), z).Result()
}

// ArchiveLegacy moves a finished legacy season's global board to the archive.
func (st *Store) ArchiveLegacy(ctx context.Context, s ids.Season) error {
	// case G30: crossslot
	return st.rdb.Rename(ctx, legacyBoard(s, "global"), "lb:archive:"+strconv.Itoa(int(s))).Err()
}

// Archive moves a finished season's global board to its archive name.
func (st *Store) Archive(ctx context.Context, s ids.Season) error {
	// case G31: none
	return st.rdb.Rename(ctx, board(s, "global"), board(s, "archive")).Err()
}

// FriendsBoard builds the "you and your friends" board of a player.
func (st *Store) FriendsBoard(ctx context.Context, s ids.Season, p ids.PlayerID) ([]redis.Z, error) {
	// case G32: crossslot
	dst := "lb:friends:" + p.String()
	err := st.rdb.ZInterStore(ctx, dst, &redis.ZStore{
		Keys:    []string{board(s, "global"), friendsOf(p)},
		Weights: []float64{1, 0},
	}).Err()
	if err != nil {
		return nil, err
	}
	return st.rdb.ZRevRangeWithScores(ctx, dst, 0, 49).Result()
}

// FriendsScores reads the scores of a player's friends from the board.
func (st *Store) FriendsScores(ctx context.Context, s ids.Season, friends []ids.PlayerID) ([]float64, error) {
	// case G33: none
	members := make([]string, len(friends))
	for i, f := range friends {
		members[i] = f.String()
	}
	return st.rdb.ZMScore(ctx, board(s, "global"), members...).Result()
}

// Submit records a match result on the player's regional board and bumps
// their stats in one transaction.
func (st *Store) Submit(ctx context.Context, s ids.Season, region string, p ids.PlayerID, score float64) error {
	// case G34: crossslot
	pipe := st.rdb.TxPipeline()
	pipe.ZIncrBy(ctx, board(s, region), score, p.String())
	pipe.HIncrBy(ctx, playerStats(p), "matches", 1)
	_, err := pipe.Exec(ctx)
	return err
}

// SubmitSeason records a match result on the regional and global boards
// and counts the submission, all on the season's slot.
func (st *Store) SubmitSeason(ctx context.Context, s ids.Season, region string, p ids.PlayerID, score float64) error {
	// case G35: none
	pipe := st.rdb.TxPipeline()
	pipe.ZIncrBy(ctx, board(s, region), score, p.String())
	pipe.ZIncrBy(ctx, board(s, "global"), score, p.String())
	pipe.HIncrBy(ctx, board(s, "submissions"), p.String(), 1)
	_, err := pipe.Exec(ctx)
	return err
}

// HallOfFame lists the season's top 100 ordered by current Elo, with names.
func (st *Store) HallOfFame(ctx context.Context, s ids.Season) ([]string, error) {
	// case G36: sortpattern
	return st.rdb.Sort(ctx, board(s, "top100"), &redis.Sort{
		By:    "player:*:elo",
		Get:   []string{"#", "player:*:name"},
		Order: "DESC",
	}).Result()
}

// HallOfFameIDs lists the season's top 100 player ids alphabetically.
func (st *Store) HallOfFameIDs(ctx context.Context, s ids.Season) ([]string, error) {
	// case G37: none
	return st.rdb.Sort(ctx, board(s, "top100"), &redis.Sort{Alpha: true, Count: 100}).Result()
}

// ColdArchive copies a season's global board into the archive database.
func (st *Store) ColdArchive(ctx context.Context, s ids.Season) error {
	// case G38: database
	return st.rdb.Copy(ctx, board(s, "global"), board(s, "global"), ArchiveDB, true).Err()
}

// Checkpoint copies the season's global board to a dated snapshot.
func (st *Store) Checkpoint(ctx context.Context, s ids.Season, day string) error {
	// case G39: none
	return st.rdb.Copy(ctx, board(s, "global"), board(s, "snapshot:"+day), 0, true).Err()
}
