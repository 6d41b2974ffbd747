// Package live reads a running server's key space without changing it:
// the nodes of a cluster (or one standalone server), every key name when
// a budget covers them and a uniform sample when it does not, each key's
// type, time to live and memory for the keys its caller picks, and the
// exact key count of every slot.
//
// It talks through package resp, which sends read-only commands only.
package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crossslot/crossslot/internal/resp"
	"github.com/crossslot/crossslot/slotcalc"
)

// A Node is one server whose keys are read: a cluster's master (or, when
// replicas are read, one of its replicas), or the standalone server.
type Node struct {
	Addr  string
	Slots [][2]int // inclusive ranges the node's shard owns
	// Replica is set when the node is a replica read in its master's place.
	Replica bool
}

// SlotRanges writes the slots as "0-5460,5461".
func (n *Node) SlotRanges() string {
	var parts []string
	for _, r := range n.Slots {
		if r[0] == r[1] {
			parts = append(parts, strconv.Itoa(r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return strings.Join(parts, ",")
}

// A Keyspace is the server or cluster a Target reaches.
type Keyspace struct {
	Target  Target
	Cluster bool
	Server  string // "redis 7.0.15", from INFO server
	Nodes   []*Node
	// NodeOf is each slot's node (an index into Nodes), -1 where no node
	// of the cluster serves it.
	NodeOf [slotcalc.SlotCount]int
}

// Open finds the nodes from the one the target names: CLUSTER SLOTS on a
// cluster, the server itself when cluster support is disabled. With
// replicas, each shard's first replica is read in its master's place
// (READONLY); a shard without one is read on its master.
func Open(ctx context.Context, t Target, replicas bool) (*Keyspace, error) {
	c, err := resp.Dial(ctx, t.Addr, t.Opts)
	if err != nil {
		return nil, dialError(ctx, err)
	}
	defer c.Close()
	k := &Keyspace{Target: t}
	if info, err := c.Do("INFO", "server"); err == nil {
		k.Server = serverName(fmt.Sprint(info))
	}
	reply, err := c.Do("CLUSTER", "SLOTS")
	var e resp.Error
	switch {
	case errors.As(err, &e) && strings.Contains(string(e), "cluster support disabled"):
		k.Nodes = []*Node{{Addr: t.Addr, Slots: [][2]int{{0, slotcalc.SlotCount - 1}}}}
		for s := range k.NodeOf {
			k.NodeOf[s] = 0
		}
		return k, nil
	case err != nil:
		return nil, fmt.Errorf("asking %s for its cluster's slots: %w", t.Addr, err)
	}
	k.Cluster = true
	for s := range k.NodeOf {
		k.NodeOf[s] = -1
	}
	seedHost, _, _ := net.SplitHostPort(t.Addr)
	byAddr := map[string]int{}
	entries, _ := reply.([]any)
	for _, entry := range entries {
		fields, _ := entry.([]any)
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s: unexpected CLUSTER SLOTS entry %v", t.Addr, entry)
		}
		start, ok1 := resp.Int(fields[0])
		end, ok2 := resp.Int(fields[1])
		if !ok1 || !ok2 || start < 0 || end >= slotcalc.SlotCount || start > end {
			return nil, fmt.Errorf("%s: unexpected CLUSTER SLOTS range %v-%v", t.Addr, fields[0], fields[1])
		}
		at, replica := fields[2], false
		if replicas && len(fields) > 3 {
			at, replica = fields[3], true
		}
		addr, err := endpoint(at, seedHost)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Addr, err)
		}
		i, ok := byAddr[addr]
		if !ok {
			i = len(k.Nodes)
			byAddr[addr] = i
			k.Nodes = append(k.Nodes, &Node{Addr: addr, Replica: replica})
		}
		k.Nodes[i].Slots = append(k.Nodes[i].Slots, [2]int{int(start), int(end)})
		for s := start; s <= end; s++ {
			k.NodeOf[s] = i
		}
	}
	if len(k.Nodes) == 0 {
		return nil, fmt.Errorf("%s is a cluster node that serves no slot yet", t.Addr)
	}
	return k, nil
}

// endpoint reads a CLUSTER SLOTS node: [host, port, id, ...]. An empty or
// "?" host is the node the client already reached.
func endpoint(v any, seedHost string) (string, error) {
	f, _ := v.([]any)
	if len(f) < 2 {
		return "", fmt.Errorf("unexpected CLUSTER SLOTS node %v", v)
	}
	host, _ := f[0].(string)
	port, ok := resp.Int(f[1])
	if !ok {
		return "", fmt.Errorf("unexpected CLUSTER SLOTS port %v", f[1])
	}
	if host == "" || host == "?" {
		host = seedHost
	}
	return net.JoinHostPort(host, strconv.FormatInt(port, 10)), nil
}

// serverName reads INFO server's "redis_version:7.0.15" (and Valkey's
// server_name and valkey_version).
func serverName(info string) string {
	name, version := "redis", ""
	for _, line := range strings.Split(info, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		switch k {
		case "server_name":
			name = v
		case "valkey_version":
			version = v
		case "redis_version":
			if version == "" {
				version = v
			}
		}
	}
	return strings.TrimSpace(name + " " + version)
}

// Limits bound a read.
type Limits struct {
	// Budget is the most key names read in all; every name when the
	// nodes hold no more.
	Budget int
	// Count is SCAN's COUNT hint and the size of a batch of RANDOMKEY or of
	// per-key reads.
	Count int
	// Pause is slept between two batches on one node, so that a node's
	// other clients are served between them.
	Pause time.Duration
}

// A NodeRead is what was read of one node.
type NodeRead struct {
	Node *Node
	// Total is the node's DBSIZE when the read began.
	Total int64
	// Sized says the node answered DBSIZE: else Total is unknown, 0.
	Sized bool
	// Read is the names read: every name once when Complete, else draws
	// of a uniform sample (RANDOMKEY, with replacement).
	Read     int64
	Complete bool
	// Err is why the read stopped early: a lost connection, the time
	// limit. The names read before it were given.
	Err error
}

// Weight is how many of the node's keys each name read stands for.
func (r *NodeRead) Weight() float64 {
	if r.Complete || r.Read == 0 {
		return 1
	}
	return float64(r.Total) / float64(r.Read)
}

// ReadNames reads key names from every node in parallel. When the
// nodes' DBSIZEs add up to no more than the budget, each node is SCANned
// to its end; otherwise each node gives a uniform sample of its share of
// the budget (its share of the keys), drawn with RANDOMKEY: a SCAN cut
// short is not a sample, as a server that keeps one table per slot (Redis
// 7.4 and later, Valkey 8) scans slot by slot. Each batch of names is
// given to each, which is called from one goroutine at a time.
func (k *Keyspace) ReadNames(ctx context.Context, lim Limits, each func(node int, names []string)) []*NodeRead {
	reads := make([]*NodeRead, len(k.Nodes))
	conns := make([]*resp.Conn, len(k.Nodes))
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	var total int64
	for i, n := range k.Nodes {
		reads[i] = &NodeRead{Node: n}
		c, err := k.dial(ctx, n)
		if err != nil {
			reads[i].Err = err
			continue
		}
		conns[i] = c
		v, err := c.Do("DBSIZE")
		size, ok := resp.Int(v)
		if err != nil || !ok {
			reads[i].Err = fmt.Errorf("DBSIZE on %s: %v", n.Addr, orReply(err, v))
			continue
		}
		reads[i].Total, reads[i].Sized = size, true
		total += size
	}
	var mu sync.Mutex
	give := func(i int, names []string) {
		mu.Lock()
		defer mu.Unlock()
		each(i, names)
	}
	var wg sync.WaitGroup
	for i, c := range conns {
		if c == nil || reads[i].Err != nil {
			continue
		}
		r := reads[i]
		share := r.Total
		if total > int64(lim.Budget) {
			share = int64(float64(lim.Budget) * float64(r.Total) / float64(total))
		}
		wg.Go(func() {
			if share >= r.Total {
				r.Err = scan(ctx, c, lim, r, func(names []string) { give(i, names) })
			} else {
				r.Err = sample(ctx, c, lim, share, r, func(names []string) { give(i, names) })
			}
		})
	}
	wg.Wait()
	return reads
}

func scan(ctx context.Context, c *resp.Conn, lim Limits, r *NodeRead, give func([]string)) error {
	cursor := "0"
	for {
		v, err := c.Do("SCAN", cursor, "COUNT", strconv.Itoa(lim.Count))
		if err != nil {
			return fmt.Errorf("SCAN on %s: %w", c.Addr(), err)
		}
		reply, _ := v.([]any)
		if len(reply) != 2 {
			return fmt.Errorf("SCAN on %s: unexpected reply %v", c.Addr(), v)
		}
		cursor, _ = reply[0].(string)
		batch, _ := reply[1].([]any)
		names := make([]string, 0, len(batch))
		for _, b := range batch {
			if s, ok := b.(string); ok {
				names = append(names, s)
			}
		}
		r.Read += int64(len(names))
		give(names)
		if cursor == "0" {
			r.Complete = true
			return nil
		}
		if err := pause(ctx, lim.Pause); err != nil {
			return err
		}
	}
}

func sample(ctx context.Context, c *resp.Conn, lim Limits, n int64, r *NodeRead, give func([]string)) error {
	for r.Read < n {
		batch := min(int64(lim.Count), n-r.Read)
		cmds := make([][]string, batch)
		for i := range cmds {
			cmds[i] = []string{"RANDOMKEY"}
		}
		replies, err := c.Pipeline(cmds)
		if err != nil {
			return fmt.Errorf("RANDOMKEY on %s: %w", c.Addr(), err)
		}
		names := make([]string, 0, len(replies))
		for _, v := range replies {
			switch v := v.(type) {
			case string:
				names = append(names, v)
			case resp.Error:
				return fmt.Errorf("RANDOMKEY on %s: %w", c.Addr(), v)
			}
		}
		if len(names) == 0 {
			return nil // the node was emptied meanwhile
		}
		r.Read += int64(len(names))
		give(names)
		if err := pause(ctx, lim.Pause); err != nil {
			return err
		}
	}
	return nil
}

// pause sleeps d, or returns why the context ended.
func pause(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return stopped(err)
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return stopped(ctx.Err())
	case <-t.C:
		return nil
	}
}

// ErrTimeLimit is why a read stopped at its time limit.
var ErrTimeLimit = errors.New("stopped at the time limit")

// dialError is why a dial failed: the time limit when the context's
// deadline has passed. The dialer then says "i/o timeout", and may say it
// a moment before the context itself ends, so the deadline is read.
func dialError(ctx context.Context, err error) error {
	if deadline, ok := ctx.Deadline(); ok && !time.Now().Before(deadline) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %v", ErrTimeLimit, err)
	}
	return err
}

func stopped(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return ErrTimeLimit
	}
	return err
}

func orReply(err error, v any) any {
	if err != nil {
		return err
	}
	return fmt.Sprintf("unexpected reply %v", v)
}

func (k *Keyspace) dial(ctx context.Context, n *Node) (*resp.Conn, error) {
	o := k.Target.Opts
	if k.Cluster {
		o.DB = 0 // a cluster has one database
	}
	c, err := resp.Dial(ctx, n.Addr, o)
	if err != nil {
		return nil, dialError(ctx, err)
	}
	if n.Replica {
		if _, err := c.Do("READONLY"); err != nil {
			c.Close()
			return nil, fmt.Errorf("READONLY on replica %s: %w", n.Addr, err)
		}
	}
	return c, nil
}

// KeyFacts are what is measured of one key.
type KeyFacts struct {
	Type string // "string", "hash", ...; "none" when the key went away
	// TTL is the time to live in milliseconds: -1 for none, -2 when the
	// key went away.
	TTL int64
	// Bytes is MEMORY USAGE's answer, -1 when the server does not say.
	Bytes int64
}

// A Measured node's keys: each key's facts, and why bytes are unknown
// when the server refused MEMORY USAGE.
type Measured struct {
	Facts    []KeyFacts
	NoMemory error
	Stopped  error // why fewer facts than keys were measured
}

// Measure reads TYPE, PTTL and MEMORY USAGE of keys on node, pipelined a
// batch at a time. A server that refuses MEMORY (an older release, a
// renamed or ACL-denied command) is asked no more, and its bytes are -1.
func (k *Keyspace) Measure(ctx context.Context, node int, keys []string, lim Limits) Measured {
	var m Measured
	c, err := k.dial(ctx, k.Nodes[node])
	if err != nil {
		m.Stopped = err
		return m
	}
	defer c.Close()
	for start := 0; start < len(keys); start += lim.Count {
		batch := keys[start:min(start+lim.Count, len(keys))]
		per := 3
		if m.NoMemory != nil {
			per = 2
		}
		cmds := make([][]string, 0, per*len(batch))
		for _, key := range batch {
			cmds = append(cmds, []string{"TYPE", key}, []string{"PTTL", key})
			if per == 3 {
				cmds = append(cmds, []string{"MEMORY", "USAGE", key})
			}
		}
		replies, err := c.Pipeline(cmds)
		if err != nil {
			m.Stopped = err
			return m
		}
		for i := range batch {
			f := KeyFacts{Bytes: -1}
			f.Type, _ = replies[per*i].(string)
			f.TTL, _ = resp.Int(replies[per*i+1])
			if per == 3 {
				switch v := replies[per*i+2].(type) {
				case int64:
					f.Bytes = v
				case resp.Error:
					m.NoMemory = fmt.Errorf("MEMORY USAGE on %s: %w", c.Addr(), v)
				}
			}
			m.Facts = append(m.Facts, f)
		}
		if err := pause(ctx, lim.Pause); err != nil {
			m.Stopped = err
			return m
		}
	}
	return m
}

// SlotCounts asks each node CLUSTER COUNTKEYSINSLOT for each slot it
// serves: the exact number of keys of every slot, whatever was sampled.
// A node that cannot be asked leaves its slots at -1.
func (k *Keyspace) SlotCounts(ctx context.Context) (counts [slotcalc.SlotCount]int64, errs []error) {
	for s := range counts {
		counts[s] = -1
	}
	if !k.Cluster {
		return counts, nil
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, n := range k.Nodes {
		wg.Go(func() {
			err := k.countSlots(ctx, n, func(slot int, keys int64) {
				mu.Lock()
				counts[slot] = keys
				mu.Unlock()
			})
			if err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("node %d %s: %w", i, n.Addr, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return counts, errs
}

func (k *Keyspace) countSlots(ctx context.Context, n *Node, set func(int, int64)) error {
	c, err := k.dial(ctx, n)
	if err != nil {
		return err
	}
	defer c.Close()
	var slots []int
	for _, r := range n.Slots {
		for s := r[0]; s <= r[1]; s++ {
			slots = append(slots, s)
		}
	}
	const batch = 1024
	for start := 0; start < len(slots); start += batch {
		part := slots[start:min(start+batch, len(slots))]
		cmds := make([][]string, len(part))
		for i, s := range part {
			cmds[i] = []string{"CLUSTER", "COUNTKEYSINSLOT", strconv.Itoa(s)}
		}
		replies, err := c.Pipeline(cmds)
		if err != nil {
			return err
		}
		for i, v := range replies {
			n, ok := resp.Int(v)
			if !ok {
				return fmt.Errorf("CLUSTER COUNTKEYSINSLOT %d: %v", part[i], v)
			}
			set(part[i], n)
		}
	}
	return nil
}
