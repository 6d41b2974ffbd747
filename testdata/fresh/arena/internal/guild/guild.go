// Package guild stores guilds: members, the guild bank and the activity
// feed.
package guild

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/mna/redisc"

	"example.com/arena/internal/ids"
)

// Repo is the guild repository.
type Repo struct {
	cluster *redisc.Cluster
	now     func() time.Time
}

// NewRepo returns a Repo on cluster.
func NewRepo(cluster *redisc.Cluster) *Repo {
	return &Repo{cluster: cluster, now: time.Now}
}

// conn returns a connection that follows MOVED and ASK redirections.
func (r *Repo) conn() (redis.Conn, error) {
	return redisc.RetryConn(r.cluster.Get(), 3, 50*time.Millisecond)
}

// bound returns a connection pinned to the node that serves key, for
// transactions and pipelines.
func (r *Repo) bound(key string) (redis.Conn, error) {
	c := r.cluster.Get()
	if err := redisc.BindConn(c, key); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func g(id ids.GuildID) string { return "guild:{" + string(id) + "}" }

func members(id ids.GuildID) string    { return g(id) + ":members" }
func applicants(id ids.GuildID) string { return g(id) + ":applicants" }
func joined(id ids.GuildID) string     { return g(id) + ":joined" }
func name(id ids.GuildID) string       { return g(id) + ":name" }
func motto(id ids.GuildID) string      { return g(id) + ":motto" }
func emblem(id ids.GuildID) string     { return g(id) + ":emblem" }
func bank(id ids.GuildID) string       { return g(id) + ":bank" }
func contrib(id ids.GuildID) string    { return g(id) + ":contrib" }
func feed(id ids.GuildID) string       { return g(id) + ":feed" }

func playerGuild(p ids.PlayerID) string { return "player:" + string(p) + ":guild" }
func guildName(n string) string         { return "guildname:" + n }

// legacy bank layout (before the cluster move).
func legacyBank(id ids.GuildID) string    { return "guild:" + string(id) + ":bank" }
func legacyContrib(id ids.GuildID) string { return "guild:" + string(id) + ":contrib" }

// exec runs cmds between MULTI and EXEC on a connection bound to the first
// command's key.
func (r *Repo) exec(cmds ...redis.Args) ([]any, error) {
	c, err := r.bound(fmt.Sprint(cmds[0][1]))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Send("MULTI"); err != nil {
		return nil, err
	}
	for _, cmd := range cmds {
		if err := c.Send(cmd[0].(string), cmd[1:]...); err != nil {
			return nil, err
		}
	}
	return redis.Values(c.Do("EXEC"))
}

// AddMember adds a player to a guild and points the player at it.
func (r *Repo) AddMember(gid ids.GuildID, p ids.PlayerID) error {
	// case G63: crossslot
	_, err := r.exec(
		redis.Args{"SADD", members(gid), string(p)},
		redis.Args{"SET", playerGuild(p), string(gid)},
	)
	return err
}

// AddMemberV2 adds a player to a guild and records when they joined.
func (r *Repo) AddMemberV2(gid ids.GuildID, p ids.PlayerID) error {
	// case G64: none
	_, err := r.exec(
		redis.Args{"SADD", members(gid), string(p)},
		redis.Args{"HSET", joined(gid), string(p), r.now().Unix()},
	)
	return err
}

// Merge absorbs guild from into guild into.
func (r *Repo) Merge(into, from ids.GuildID) (int, error) {
	// case G65: crossslot
	c, err := r.conn()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return redis.Int(c.Do("SUNIONSTORE", members(into), members(into), members(from)))
}

// AcceptApplicants makes every applicant a member.
func (r *Repo) AcceptApplicants(gid ids.GuildID) (int, error) {
	// case G66: none
	c, err := r.conn()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return redis.Int(c.Do("SUNIONSTORE", members(gid), members(gid), applicants(gid)))
}

// Rivalry returns the names of two guilds at war.
func (r *Repo) Rivalry(a, b ids.GuildID) ([]string, error) {
	// case G67: crossslot
	c, err := r.conn()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return redis.Strings(c.Do("MGET", redis.Args{}.Add(name(a), name(b))...))
}

// Card returns a guild's name, motto and emblem.
func (r *Repo) Card(gid ids.GuildID) ([]string, error) {
	// case G68: none
	c, err := r.conn()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return redis.Strings(c.Do("MGET", redis.Args{}.Add(name(gid), motto(gid), emblem(gid))...))
}

var deposit = redis.NewScript(2, `
redis.call('HINCRBY', KEYS[1], 'gold', ARGV[2])
return redis.call('ZINCRBY', KEYS[2], ARGV[2], ARGV[1])
`)

// DepositLegacy puts gold in a legacy guild's bank and credits the player.
func (r *Repo) DepositLegacy(gid ids.GuildID, p ids.PlayerID, gold int) (float64, error) {
	// case G69: crossslot
	c, err := r.conn()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return redis.Float64(deposit.Do(c, legacyBank(gid), legacyContrib(gid), string(p), gold))
}

// Deposit puts gold in the guild bank and credits the player.
func (r *Repo) Deposit(gid ids.GuildID, p ids.PlayerID, gold int) (float64, error) {
	// case G70: none
	c, err := r.conn()
	if err != nil {
		return 0, err
	}
	defer c.Close()
	return redis.Float64(deposit.Do(c, bank(gid), contrib(gid), string(p), gold))
}

// Rename renames a guild, keeping its name unique.
func (r *Repo) Rename(gid ids.GuildID, oldName, newName string) error {
	// case G71: crossslot
	c, err := r.conn()
	if err != nil {
		return err
	}
	defer c.Close()
	ok, err := redis.Int(c.Do("RENAMENX", guildName(oldName), guildName(newName)))
	if err != nil {
		return err
	}
	if ok == 0 {
		return fmt.Errorf("guild name %q is taken", newName)
	}
	_, err = c.Do("SET", name(gid), newName)
	return err
}

// Reserve claims a new guild name and releases the old one.
func (r *Repo) Reserve(gid ids.GuildID, oldName, newName string) error {
	// case G72: none
	c, err := r.conn()
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := redis.String(c.Do("SET", guildName(newName), string(gid), "NX")); err != nil {
		if err == redis.ErrNil {
			return fmt.Errorf("guild name %q is taken", newName)
		}
		return err
	}
	if _, err := c.Do("DEL", guildName(oldName)); err != nil {
		return err
	}
	_, err = c.Do("SET", name(gid), newName)
	return err
}

// Feeds reads the latest entries of several guilds' activity feeds in one
// pipeline.
func (r *Repo) Feeds(gids []ids.GuildID, n int) ([][]string, error) {
	// case G73: crossslot?
	c, err := r.bound(feed(gids[0]))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	for _, gid := range gids {
		if err := c.Send("LRANGE", feed(gid), 0, n-1); err != nil {
			return nil, err
		}
	}
	if err := c.Flush(); err != nil {
		return nil, err
	}
	out := make([][]string, 0, len(gids))
	for range gids {
		v, err := redis.Strings(c.Receive())
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Overview reads a guild's feed, bank and member count in one pipeline.
func (r *Repo) Overview(gid ids.GuildID) (feedItems []string, gold, size int, err error) {
	// case G74: none
	c, err := r.bound(feed(gid))
	if err != nil {
		return nil, 0, 0, err
	}
	defer c.Close()
	c.Send("LRANGE", feed(gid), 0, 19)
	c.Send("HGET", bank(gid), "gold")
	c.Send("SCARD", members(gid))
	if err := c.Flush(); err != nil {
		return nil, 0, 0, err
	}
	if feedItems, err = redis.Strings(c.Receive()); err != nil {
		return nil, 0, 0, err
	}
	if gold, err = redis.Int(c.Receive()); err != nil && err != redis.ErrNil {
		return nil, 0, 0, err
	}
	if size, err = redis.Int(c.Receive()); err != nil {
		return nil, 0, 0, err
	}
	return feedItems, gold, size, nil
}

// Post appends an entry to a guild's feed.
func (r *Repo) Post(gid ids.GuildID, entry string) error {
	c, err := r.conn()
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Do("LPUSH", feed(gid), strconv.FormatInt(r.now().Unix(), 10)+" "+entry)
	return err
}
