// Package pipeline is a stub of GLIDE's batches: commands are chained
// methods of BaseBatch.
package pipeline

type batch struct {
	IsAtomic bool
	Commands [][]string
}

type BaseBatch[T StandaloneBatch | ClusterBatch] struct {
	batch
	self *T
}

type StandaloneBatch struct {
	BaseBatch[StandaloneBatch]
}

type ClusterBatch struct {
	BaseBatch[ClusterBatch]
}

func NewStandaloneBatch(isAtomic bool) *StandaloneBatch {
	b := StandaloneBatch{BaseBatch: BaseBatch[StandaloneBatch]{batch: batch{IsAtomic: isAtomic}}}
	b.self = &b
	return &b
}

func NewClusterBatch(isAtomic bool) *ClusterBatch {
	b := ClusterBatch{BaseBatch: BaseBatch[ClusterBatch]{batch: batch{IsAtomic: isAtomic}}}
	b.self = &b
	return &b
}

func (b *BaseBatch[T]) addCmd(args ...string) *T {
	b.Commands = append(b.Commands, args)
	return b.self
}

func (b *BaseBatch[T]) CustomCommand(args []string) *T        { return b.addCmd(args...) }
func (b *BaseBatch[T]) Get(key string) *T                     { return b.addCmd("GET", key) }
func (b *BaseBatch[T]) Set(key string, value string) *T       { return b.addCmd("SET", key, value) }
func (b *BaseBatch[T]) Incr(key string) *T                    { return b.addCmd("INCR", key) }
func (b *BaseBatch[T]) MSet(keyValueMap map[string]string) *T { return b.addCmd("MSET") }
func (b *BaseBatch[T]) MGet(keys []string) *T                 { return b.addCmd(keys...) }
func (b *BaseBatch[T]) Del(keys []string) *T                  { return b.addCmd(keys...) }
func (b *BaseBatch[T]) SUnion(keys []string) *T               { return b.addCmd(keys...) }
func (b *BaseBatch[T]) Rename(key string, newKey string) *T   { return b.addCmd("RENAME", key, newKey) }
func (b *BaseBatch[T]) SAdd(key string, members []string) *T  { return b.addCmd(key) }
func (b *BaseBatch[T]) DBSize() *T                            { return b.addCmd("DBSIZE") }
func (b *BaseBatch[T]) FlushDB() *T                           { return b.addCmd("FLUSHDB") }
func (b *BaseBatch[T]) RandomKey() *T                         { return b.addCmd("RANDOMKEY") }
