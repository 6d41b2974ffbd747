package slotcalc

// A Group is the keys of a batch that share one slot, given as indexes into
// the batch in their original order.
type Group struct {
	Slot    int
	Indexes []int
}

// Grouper splits batches of keys into per-slot groups, the remedy for a
// command that would cross slots: send one command per group.
//
// The zero Grouper is ready to use. It keeps its buffers between calls, so once
// it has seen a batch as large as the next one, grouping does not allocate.
// A Grouper is not safe for concurrent use.
type Grouper struct {
	// stamp[s] == generation marks slot s as seen in the current call, so the
	// 16384-entry index need not be cleared between calls.
	stamp      [SlotCount]uint32
	groupOf    [SlotCount]int32
	generation uint32
	groupIdx   []int32 // group of each key
	sizes      []int   // keys in each group
	indexes    []int
	groups     []Group
}

// Group returns the slot groups of keys in order of their first key. Groups
// and their Indexes alias the Grouper's buffers and are valid until the next call.
func (g *Grouper) Group(keys []string) []Group {
	g.generation++
	if g.generation == 0 { // wrapped: stale stamps could collide
		g.stamp = [SlotCount]uint32{}
		g.generation = 1
	}
	g.groupIdx = grow(g.groupIdx, len(keys))
	g.indexes = grow(g.indexes, len(keys))
	g.groups = g.groups[:0]
	g.sizes = g.sizes[:0]

	// Pass 1: the group of every key, and each group's size.
	for i, k := range keys {
		s := Slot(k)
		if g.stamp[s] != g.generation {
			g.stamp[s] = g.generation
			g.groupOf[s] = int32(len(g.groups))
			g.groups = append(g.groups, Group{Slot: s})
			g.sizes = append(g.sizes, 0)
		}
		gi := g.groupOf[s]
		g.groupIdx[i] = gi
		g.sizes[gi]++
	}
	// Pass 2: give each group its window of indexes, then fill the windows in
	// key order, so every group lists its keys in batch order.
	offset := 0
	for gi, n := range g.sizes {
		g.groups[gi].Indexes = g.indexes[offset : offset : offset+n]
		offset += n
	}
	for i, gi := range g.groupIdx {
		g.groups[gi].Indexes = append(g.groups[gi].Indexes, i)
	}
	return g.groups
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
