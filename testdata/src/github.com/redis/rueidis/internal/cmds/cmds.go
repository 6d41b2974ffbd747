// Package cmds stubs rueidis's generated command builders for the
// analyzer's tests: the real names and chains, keys marked by the same
// methods (Key, Destination, Newkey, Keys).
package cmds

type Completed struct{ cs []string }

type Builder struct{ ks uint16 }

func (b Builder) Mget() (c Mget)                          { return }
func (b Builder) Rename() (c Rename)                      { return }
func (b Builder) Sunionstore() (c Sunionstore)            { return }
func (b Builder) Set() (c Set)                            { return }
func (b Builder) Incr() (c Incr)                          { return }
func (b Builder) Get() (c Get)                            { return }
func (b Builder) Multi() (c Multi)                        { return }
func (b Builder) Exec() (c Exec)                          { return }
func (b Builder) Arbitrary(token ...string) (c Arbitrary) { return }

type (
	Mget                   Completed
	MgetKey                Completed
	Rename                 Completed
	RenameKey              Completed
	RenameNewkey           Completed
	Sunionstore            Completed
	SunionstoreDestination Completed
	SunionstoreKey         Completed
	Set                    Completed
	SetKey                 Completed
	SetValue               Completed
	Incr                   Completed
	IncrKey                Completed
	Get                    Completed
	GetKey                 Completed
	Multi                  Completed
	Exec                   Completed
	Arbitrary              Completed
	Cacheable              Completed
)

func (c Mget) Key(key ...string) MgetKey              { return MgetKey(c) }
func (c MgetKey) Key(key ...string) MgetKey           { return c }
func (c MgetKey) Build() Completed                    { return Completed(c) }
func (c MgetKey) Cache() Cacheable                    { return Cacheable(c) }
func (c Rename) Key(key string) RenameKey             { return RenameKey(c) }
func (c RenameKey) Newkey(newkey string) RenameNewkey { return RenameNewkey(c) }
func (c RenameNewkey) Build() Completed               { return Completed(c) }
func (c Sunionstore) Destination(destination string) SunionstoreDestination {
	return SunionstoreDestination(c)
}
func (c SunionstoreDestination) Key(key ...string) SunionstoreKey { return SunionstoreKey(c) }
func (c SunionstoreKey) Build() Completed                         { return Completed(c) }
func (c Set) Key(key string) SetKey                               { return SetKey(c) }
func (c SetKey) Value(value string) SetValue                      { return SetValue(c) }
func (c SetValue) Build() Completed                               { return Completed(c) }
func (c Incr) Key(key string) IncrKey                             { return IncrKey(c) }
func (c IncrKey) Build() Completed                                { return Completed(c) }
func (c Get) Key(key string) GetKey                               { return GetKey(c) }
func (c GetKey) Build() Completed                                 { return Completed(c) }
func (c Multi) Build() Completed                                  { return Completed(c) }
func (c Exec) Build() Completed                                   { return Completed(c) }
func (c Arbitrary) Keys(keys ...string) Arbitrary                 { return c }
func (c Arbitrary) Args(args ...string) Arbitrary                 { return c }
func (c Arbitrary) Build() Completed                              { return Completed(c) }

// Commands a cluster refuses or runs on one node.
func (b Builder) Select() (c Select)         { return }
func (b Builder) Keys() (c Keys)             { return }
func (b Builder) Flushdb() (c Flushdb)       { return }
func (b Builder) Move() (c Move)             { return }
func (b Builder) Copy() (c Copy)             { return }
func (b Builder) Sort() (c Sort)             { return }
func (b Builder) Ssubscribe() (c Ssubscribe) { return }
func (b Builder) Dbsize() (c Dbsize)         { return }

type (
	Select            Completed
	SelectIndex       Completed
	Keys              Completed
	KeysPattern       Completed
	Flushdb           Completed
	Move              Completed
	MoveKey           Completed
	MoveDb            Completed
	Copy              Completed
	CopySource        Completed
	CopyDestination   Completed
	CopyDb            Completed
	Sort              Completed
	SortKey           Completed
	SortBy            Completed
	SortGet           Completed
	Ssubscribe        Completed
	SsubscribeChannel Completed
	Dbsize            Completed
)

func (c Select) Index(index int64) SelectIndex                      { return SelectIndex(c) }
func (c SelectIndex) Build() Completed                              { return Completed(c) }
func (c Keys) Pattern(pattern string) KeysPattern                   { return KeysPattern(c) }
func (c KeysPattern) Build() Completed                              { return Completed(c) }
func (c Flushdb) Build() Completed                                  { return Completed(c) }
func (c Move) Key(key string) MoveKey                               { return MoveKey(c) }
func (c MoveKey) Db(db int64) MoveDb                                { return MoveDb(c) }
func (c MoveDb) Build() Completed                                   { return Completed(c) }
func (c Copy) Source(source string) CopySource                      { return CopySource(c) }
func (c CopySource) Destination(destination string) CopyDestination { return CopyDestination(c) }
func (c CopyDestination) Db(destinationDb int64) CopyDb             { return CopyDb(c) }
func (c CopyDestination) Build() Completed                          { return Completed(c) }
func (c CopyDb) Build() Completed                                   { return Completed(c) }
func (c Sort) Key(key string) SortKey                               { return SortKey(c) }
func (c SortKey) By(pattern string) SortBy                          { return SortBy(c) }
func (c SortKey) Build() Completed                                  { return Completed(c) }
func (c SortBy) Build() Completed                                   { return Completed(c) }
func (c SortKey) Get() SortGet                                      { return SortGet(c) }
func (c SortGet) Get(pattern string) SortGet                        { return c }
func (c SortGet) Build() Completed                                  { return Completed(c) }
func (c Ssubscribe) Channel(channel ...string) SsubscribeChannel    { return SsubscribeChannel(c) }
func (c SsubscribeChannel) Build() Completed                        { return Completed(c) }
func (c Dbsize) Build() Completed                                   { return Completed(c) }

// Keyspace notifications.
func (b Builder) Psubscribe() (c Psubscribe)                     { return }
func (c Psubscribe) Pattern(pattern ...string) PsubscribePattern { return PsubscribePattern(c) }
func (c PsubscribePattern) Build() Completed                     { return Completed(c) }

type (
	Psubscribe        Completed
	PsubscribePattern Completed
)

// SCAN and the deletions of its keys.
func (b Builder) Scan() (c Scan)     { return }
func (b Builder) Del() (c Del)       { return }
func (b Builder) Unlink() (c Unlink) { return }

type (
	Scan       Completed
	ScanCursor Completed
	ScanMatch  Completed
	ScanCount  Completed
	Del        Completed
	DelKey     Completed
	Unlink     Completed
	UnlinkKey  Completed
)

func (c Scan) Cursor(cursor uint64) ScanCursor      { return ScanCursor(c) }
func (c ScanCursor) Match(pattern string) ScanMatch { return ScanMatch(c) }
func (c ScanCursor) Count(count int64) ScanCount    { return ScanCount(c) }
func (c ScanCursor) Build() Completed               { return Completed(c) }
func (c ScanMatch) Count(count int64) ScanCount     { return ScanCount(c) }
func (c ScanMatch) Build() Completed                { return Completed(c) }
func (c ScanCount) Build() Completed                { return Completed(c) }
func (c Del) Key(key ...string) DelKey              { return DelKey(c) }
func (c DelKey) Key(key ...string) DelKey           { return c }
func (c DelKey) Build() Completed                   { return Completed(c) }
func (c Unlink) Key(key ...string) UnlinkKey        { return UnlinkKey(c) }
func (c UnlinkKey) Key(key ...string) UnlinkKey     { return c }
func (c UnlinkKey) Build() Completed                { return Completed(c) }

// MSET's pairs, one KeyValue call each.
func (b Builder) Mset() (c Mset) { return }

type (
	Mset         Completed
	MsetKeyValue Completed
)

func (c Mset) KeyValue() MsetKeyValue                                 { return MsetKeyValue(c) }
func (c MsetKeyValue) KeyValue(key string, value string) MsetKeyValue { return c }
func (c MsetKeyValue) Build() Completed                               { return Completed(c) }
