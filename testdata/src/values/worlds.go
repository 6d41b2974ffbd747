package values

import (
	"context"

	redigo "github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

// Keys an option picks: the keys of one command hold the same pick, so the
// untagged ones pair with each other. When the option is left unset they
// are the untagged ones, and a cluster refuses them; set, they share a tag.
type QueueOptions struct {
	HashTags   bool
	NoHashTags bool
	Cluster    bool
}

type optQueue struct {
	rdb     *goredis.ClusterClient
	rc      rueidis.Client
	conn    redigo.Conn
	pending string
	ready   string
}

func newOptQueue(rdb *goredis.ClusterClient, rc rueidis.Client, name string, opts QueueOptions) *optQueue {
	prefix := "dq:" + name
	if opts.HashTags {
		prefix = "{dq:" + name + "}"
	}
	return &optQueue{rdb: rdb, rc: rc, pending: prefix + ":pending", ready: prefix + ":ready"}
}

func (q *optQueue) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready)                                  // want `Rename keys "dq:<name>:pending" and "dq:<name>:ready" are on different hash slots for all but about 1 in 16384 values of name \(assuming name holds no brace\), when opts.HashTags is false, its default; make name their hash tag, as in "dq:\{<name>\}:pending"`
	q.rc.Do(ctx, q.rc.B().Rename().Key(q.pending).Newkey(q.ready).Build()) // want `RENAME keys "dq:<name>:pending" and "dq:<name>:ready" are on different hash slots .*, when opts.HashTags is false, its default`
	q.rdb.Rename(ctx, q.pending, q.pending)                                // one key
	q.conn.Do("RENAME", q.pending, q.ready)                                // want `RENAME keys "dq:<name>:pending" and "dq:<name>:ready" are on different hash slots .*, when opts.HashTags is false, its default`
	q.conn.Do("RENAME", q.pending, q.pending)                              // one key
}

// Stores on each branch, and the tag the default: silent.
type tagByDefault struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
}

func newTagByDefault(rdb *goredis.ClusterClient, name string, opts *QueueOptions) *tagByDefault {
	q := &tagByDefault{rdb: rdb}
	if opts.NoHashTags {
		q.pending, q.ready = "dq:"+name+":pending", "dq:"+name+":ready"
	} else {
		q.pending, q.ready = "{dq:"+name+"}:pending", "{dq:"+name+"}:ready"
	}
	return q
}

func (q *tagByDefault) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // tagged unless an option says otherwise
}

// An option named for the cluster says the other branch is the cluster's.
type clusterAware struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
}

func newClusterAware(rdb *goredis.ClusterClient, name string, opts QueueOptions) *clusterAware {
	q := &clusterAware{rdb: rdb}
	if opts.Cluster {
		q.pending, q.ready = "{dq:"+name+"}:pending", "{dq:"+name+"}:ready"
	} else {
		q.pending, q.ready = "dq:"+name+":pending", "dq:"+name+":ready"
	}
	return q
}

func (q *clusterAware) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // untagged only off a cluster
}

// Functional options: a flag a loop over the options raises is false when
// none is given.
type tagsOption struct{}

func UseHashTags() any { return tagsOption{} }

type noTagsOption struct{}

type funcQueue struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
	msgs    string
}

func newFuncQueue(rdb *goredis.ClusterClient, name string, opts ...any) *funcQueue {
	useTags := false
	for _, o := range opts {
		switch o.(type) {
		case tagsOption:
			useTags = true
		}
	}
	var prefix string
	if useTags {
		prefix = "{dp:" + name + "}"
	} else {
		prefix = "dp:" + name
	}
	return &funcQueue{rdb: rdb, pending: prefix + ":pending", ready: prefix + ":ready", msgs: "{dp:" + name + "}:msgs"}
}

func (q *funcQueue) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // want `Rename keys "dp:<name>:pending" and "dp:<name>:ready" are on different hash slots .*, as newFuncQueue sets them and when useTags is false, its default`
}

func newOptOutQueue(rdb *goredis.ClusterClient, name string, opts ...any) *funcQueue {
	noTags := false
	for _, o := range opts {
		if _, ok := o.(noTagsOption); ok {
			noTags = true
		}
	}
	prefix := "{dp:" + name + "}"
	if noTags {
		prefix = "dp:" + name
	}
	return &funcQueue{rdb: rdb, pending: prefix + ":pending", ready: prefix + ":ready"}
}

// A field two functions write: each writer's values are judged together.
type renamedQueue struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
	done    string
}

func newRenamedQueue(rdb *goredis.ClusterClient, name string) *renamedQueue {
	return &renamedQueue{rdb: rdb, pending: "rq:" + name + ":pending", ready: "rq:" + name + ":ready", done: "rq:{" + name + "}:done"}
}

func (q *renamedQueue) rename(name string) {
	q.pending, q.ready = "rq:{"+name+"}:pending", "rq:{"+name+"}:ready"
}

func (q *renamedQueue) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // want `Rename keys "rq:<name>:pending" and "rq:<name>:ready" are on different hash slots .*, as newRenamedQueue sets them`
}

// Both writers tag: silent.
type retaggedQueue struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
}

func newRetaggedQueue(rdb *goredis.ClusterClient, name string) *retaggedQueue {
	return &retaggedQueue{rdb: rdb, pending: "rq:{" + name + "}:pending", ready: "rq:{" + name + "}:ready"}
}

func (q *retaggedQueue) rename(name string) {
	q.pending = "rq:{" + name + "}:pending"
	q.ready = "rq:{" + name + "}:ready"
}

func (q *retaggedQueue) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready)
}

// The setter untagged, the constructor tagged: the setter's pair is found.
type retaggedLater struct {
	rc      rueidis.Client
	pending string
	ready   string
}

func newRetaggedLater(rc rueidis.Client, name string) *retaggedLater {
	return &retaggedLater{rc: rc, pending: "rq:{" + name + "}:pending", ready: "rq:{" + name + "}:ready"}
}

func (q *retaggedLater) rename(name string) {
	q.pending = "rq:" + name + ":pending"
	q.ready = "rq:" + name + ":ready"
}

func (q *retaggedLater) promote(ctx context.Context) {
	q.rc.Do(ctx, q.rc.B().Rename().Key(q.pending).Newkey(q.ready).Build()) // want `RENAME keys "rq:<name>:pending" and "rq:<name>:ready" are on different hash slots .*, as retaggedLater.rename sets them`
}

// A helper whose return an option picks: at the default, the untagged one.
type msgQueue struct {
	rdb    *goredis.ClusterClient
	name   string
	tagged bool
}

func newMsgQueue(rdb *goredis.ClusterClient, name string, opts ...any) *msgQueue {
	tagged := false
	for _, o := range opts {
		if _, ok := o.(tagsOption); ok {
			tagged = true
		}
	}
	return &msgQueue{rdb: rdb, name: name, tagged: tagged}
}

func (q *msgQueue) msgKey(id string) string {
	if q.tagged {
		return "{dp:" + q.name + "}:msg:" + id
	}
	return "dp:" + q.name + ":msg:" + id
}

func (q *msgQueue) collect(ctx context.Context, ids []string) {
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, q.msgKey(id))
	}
	q.rdb.Del(ctx, keys...)                         // want `Del keys "dp:<q.name>:msg:<ids\[i\]>" for two different elements of ids are on different hash slots .*, when q.tagged is false, its default`
	q.rdb.Rename(ctx, q.msgKey("a"), q.msgKey("b")) // want `Rename keys "dp:<q.name>:msg:a" and "dp:<q.name>:msg:b" are on different hash slots .*, when q.tagged is false, its default`
}

// Transactions over keys an option picks, on a pipeline and in a callback.
func (q *optQueue) promoteAtomically(ctx context.Context) {
	pipe := q.rdb.TxPipeline()
	pipe.Incr(ctx, q.ready)
	pipe.Incr(ctx, q.pending) // want `TxPipeline keys "dq:<name>:ready" \(Incr\) and "dq:<name>:pending" \(Incr\) are on different hash slots .*, when opts.HashTags is false, its default`
	pipe.Exec(ctx)
	q.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Incr(ctx, q.ready)
		p.Incr(ctx, q.pending) // want `TxPipelined keys "dq:<name>:ready" \(Incr\) and "dq:<name>:pending" \(Incr\) are on different hash slots .*, when opts.HashTags is false, its default`
		return nil
	})
	q.conn.Send("MULTI")
	q.conn.Send("INCR", q.ready)
	q.conn.Send("INCR", q.pending) // want `MULTI/EXEC keys "dq:<name>:ready" \(INCR\) and "dq:<name>:pending" \(INCR\) are on different hash slots .*, when opts.HashTags is false, its default`
	q.conn.Do("EXEC")
}

func (q *tagByDefault) promoteAtomically(ctx context.Context) {
	q.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Incr(ctx, q.ready)
		p.Incr(ctx, q.pending) // tagged by default
		return nil
	})
}

func (q *retaggedLater) promoteAtomically(ctx context.Context) {
	q.rc.DoMulti(ctx, q.rc.B().Multi().Build(), q.rc.B().Incr().Key(q.pending).Build(), q.rc.B().Incr().Key(q.ready).Build(), q.rc.B().Exec().Build()) // want `DoMulti keys "rq:<name>:pending" \(INCR\) and "rq:<name>:ready" \(INCR\) are on different hash slots .*, as retaggedLater.rename sets them`
}

// A method that clears the names makes no world: no command runs with "".
type closedQueue struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
}

func newClosedQueue(rdb *goredis.ClusterClient, name string) *closedQueue {
	return &closedQueue{rdb: rdb, pending: "cq:{" + name + "}:pending", ready: "cq:{" + name + "}:ready"}
}

func (q *closedQueue) close() { q.pending = "" }

func (q *closedQueue) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // one tag, as the constructor sets them
}

// The package's own cluster constructor gives the option: its default is
// what its single-node clients get, not a cluster's.
type forcedTags struct{}

func ForceTags() any { return forcedTags{} }

type forcedQueue struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
}

func newForcedQueue(rdb *goredis.ClusterClient, name string, opts ...any) *forcedQueue {
	tagged := false
	for _, o := range opts {
		if _, ok := o.(forcedTags); ok {
			tagged = true
		}
	}
	prefix := "fq:" + name
	if tagged {
		prefix = "{" + prefix + "}"
	}
	return &forcedQueue{rdb: rdb, pending: prefix + ":pending", ready: prefix + ":ready"}
}

func NewForcedQueueOnCluster(rdb *goredis.ClusterClient, name string, opts ...any) *forcedQueue {
	return newForcedQueue(rdb, name, append(opts, ForceTags())...)
}

func (q *forcedQueue) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // the cluster path always tags
}

type ClusterQueueOptions struct{ Tags bool }

type structForced struct {
	rdb     *goredis.ClusterClient
	pending string
	ready   string
}

func newStructForced(rdb *goredis.ClusterClient, name string, opts ClusterQueueOptions) *structForced {
	q := &structForced{rdb: rdb, pending: "sf:" + name + ":pending", ready: "sf:" + name + ":ready"}
	if opts.Tags {
		q.pending, q.ready = "sf:{"+name+"}:pending", "sf:{"+name+"}:ready"
	}
	return q
}

func NewStructForcedOnCluster(rdb *goredis.ClusterClient, name string) *structForced {
	return newStructForced(rdb, name, ClusterQueueOptions{Tags: true})
}

func (q *structForced) promote(ctx context.Context) {
	q.rdb.Rename(ctx, q.pending, q.ready) // the cluster path always tags
}

// A prefix of more alternatives than are followed (options that set the
// prefix, the tag and a callback) is one value: where one of them places
// a tag, no claim is made on it; where none does, it is a leading value.
type prefixOpt string

type bracketOpt struct{}

type manyOptions struct {
	rdb    *goredis.ClusterClient
	ready  string
	unack  string
	bready string
	bunack string
}

func newManyOptions(rdb *goredis.ClusterClient, name string, opts ...any) *manyOptions {
	prefix, tagged, bracket := "dp", false, false
	var callback func()
	for _, opt := range opts {
		switch o := opt.(type) {
		case tagsOption:
			tagged = true
		case bracketOpt:
			bracket = true
		case prefixOpt:
			prefix = string(o)
		case func():
			callback = o
		}
	}
	_ = callback
	keyPrefix := prefix + ":" + name
	if tagged {
		keyPrefix = "{" + keyPrefix + "}"
	}
	bracketed := prefix + ":" + name
	if bracket {
		bracketed = "[" + bracketed + "]"
	}
	return &manyOptions{rdb: rdb, ready: keyPrefix + ":ready", unack: keyPrefix + ":unack", bready: bracketed + ":ready", bunack: bracketed + ":unack"}
}

func (q *manyOptions) move(ctx context.Context) {
	q.rdb.Rename(ctx, q.ready, q.unack)   // tagged on one path
	q.rdb.Rename(ctx, q.bready, q.bunack) // want `Rename keys "<bracketed>:ready" and "<bracketed>:unack" are on different hash slots for every value of bracketed, unless bracketed holds a hash tag`
}
