// Package analyzer defines an Analyzer that reports Redis Cluster CROSSSLOT
// bugs, malformed hash tags and scripts that reach keys on other slots, in Go
// code that uses go-redis, rueidis, valkey-go, redigo with redisc, or Valkey
// GLIDE.
//
// # Analyzer crossslot
//
// crossslot: report multi-key Redis commands whose keys are on different hash slots
//
// Redis Cluster puts every key in one of 16384 slots: CRC16 of the key, or of
// its hash tag (the text between the first '{' and the first '}' after it,
// when not empty), modulo 16384. A command whose keys are on different slots
// fails with "CROSSSLOT Keys in request don't hash to the same slot". The fix
// for one entity's keys is to give them that entity as their hash tag:
// "user:{123}:profile" and "user:{123}:settings". Keys of two entities (two
// users, two days) are never told to share one: the command is split by
// slot, or its work is done in the client, or the entities are tagged
// with one they belong to (a group, a room).
//
// The analyzer follows key expressions — constants, concatenation,
// fmt.Sprintf and fmt.Sprint (a type's String method for %v and %s),
// strings.Builder and bytes.Buffer, []byte text, the standard library's
// string functions by what they compute (strings.Join, ToLower, Trim,
// Replace, path.Join, url.PathEscape, hex and base64, strconv), locals and
// branches — into the keys of go-redis calls (v9, v8 and older, through
// concrete clients, pipelines and interfaces such as UniversalClient),
// rueidis and valkey-go built commands, their go-redis-compatible adapters
// (rueidiscompat, valkeycompat), redigo command lines (with redisc), Valkey
// GLIDE's methods, batches and custom commands, Lua scripts, WATCH and raw
// commands. Two values are two values wherever they stand in a key:
// "sess:{"+a+"}" and "sess:{"+b+"}" are on different slots unless a equals
// b.
// Keys built elsewhere are followed too: key-builder functions and methods
// (summarized in terms of their parameters, so accountKey(7) is known),
// unexported package variables and struct fields that the package only ever
// sets to one value, functions held in such fields (a repository's key
// function), slices built by append or redigo's Args.Add in loops over
// slices, maps, integers and iterators (range over iter.Seq, maps.Keys, a
// helper that collects a key per value of the iterator it is given), in a
// local, a struct's field (z.Keys = append(z.Keys, k)) or a variable a
// closure captures, a rueidis or valkey-go command a loop extends (cmd =
// cmd.KeyValue(k, v)), key, value pairs, a key a function returns only when
// a prefix is empty (if ns == "" { return k }) and the one it returns
// otherwise (two keys of one prefix take the same way), and wrappers, functions whose
// parameters reach a multi-key command, whose callers are checked as if they
// called the client. Summaries cross packages as facts. Transactions are
// checked across their commands: a TxPipelined callback, a TxPipeline up to
// its Exec, and a Watch callback against the watched keys, with a message
// that says what the imported go-redis does (v9.11+ rejects the transaction,
// earlier versions split it per slot); a helper's transaction over keys its
// callers give (a TxPipelined, or a valkey-go Dedicated MULTI ... EXEC, over
// a ledger key it is passed) is checked at each call with the call's keys. The analyzer reports what it proves
// for every value the code lets a key take, or for all but about 1 in 16384
// of them (near-sure; -crossslot.proofs-only leaves those out): a key it cannot pin
// down is never reported.
//
// Each finding has a category, which is also its check name in the
// standalone command (-checks, -explain, //lint:ignore):
//
//   - crossslot: two keys of one command are proved to be on different slots.
//   - emptytag: a key's first tag is "{}", so the whole key is hashed.
//   - doubletag: a key has a second "{...}" after its tag, or a '{' inside it;
//     only the first tag counts.
//   - unclosedtag: a key has a '{' with no '}' after it; the whole key is hashed.
//   - unprovable (strict mode): a command's keys are not proved to share a slot.
//   - scriptslot: a key a script touches is on another slot than its declared keys.
//   - undeclaredkey: a script touches a key it does not declare, not proved
//     to be on its declared keys' slot.
//   - missingkey: a script reads KEYS[n] beyond the keys the call passes.
//   - hottag (opt-in): a key's tag is one constant while an entity's value
//     sits outside it.
//
// What else a cluster refuses or does differently:
//
//   - database: SELECT, MOVE, SWAPDB, COPY ... DB or a client's DB option
//     needs a database other than 0, which a cluster does not have.
//   - sortpattern: SORT's BY pattern or GET reads keys on another slot
//     than the sorted key's, or any.
//   - onenode: KEYS, SCAN, RANDOMKEY, FLUSHDB or FLUSHALL on a cluster
//     client runs on one node.
//   - shardedpubsub: sharded pub/sub channels of one call are on different
//     slots.
//   - keyspace: keyspace notifications subscribed, or configured, through a
//     cluster client reach one node.
//
// Calls on *redis.Client and *redis.Conn talk to one node, where any keys may
// be combined; they are skipped unless -crossslot.include-single-node is set, and so are
// calls on pipelines, transactions and interfaces made from one. So is a
// client that is one server by construction, whatever its type:
// NewUniversalClient given one address (or none) and no IsClusterMode, or a
// MasterName; rueidis or valkey-go forced to one node (ForceSingleClient);
// a field, or an unexported package variable (set in init or a sync.Once),
// that the package only ever sets to such clients, copies of it included,
// and what a getter of one returns; a client stored by a constructor after
// it refused a *redis.ClusterClient (or accepted only a *redis.Client). A
// cluster's node as the cluster client hands it out (ForEachMaster's
// callback, an element of Nodes()) is checked: it refuses keys of two slots
// as the cluster does.
//
// # Examples
//
//	rdb.MGet(ctx, "user:1:a", "user:2:a") // MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot
//	rdb.Get(ctx, "user:{}:a")             // Get key "user:{}:a" has an empty hash tag {}, so the whole key is hashed; put the entity's id between the braces, or remove them
//	rdb.Get(ctx, "{a}:{b}")               // Get key "{a}:{b}" has a second hash tag after {a}; only the first one counts; keep one pair of braces, around the part that decides the slot
//	rdb.Get(ctx, "user:{1")               // Get key "user:{1" has a '{' with no '}' after it, so the whole key is hashed; close the tag with '}', or remove the '{'
//
// # Check crossslot
//
// crossslot: two keys of one multi-key command are on different hash slots
//
// A multi-key command (MGET, MSET, DEL, RENAME, SUNIONSTORE, EVAL with several
// KEYS, WATCH, ...) sent to Redis Cluster or Valkey fails with "CROSSSLOT Keys
// in request don't hash to the same slot" unless all its keys are on one slot.
// The check reports a command when two of its keys are proved to be on
// different slots, at the second key, with the first key as related
// information; a transaction (TxPipelined, TxPipeline, Watch, GLIDE's
// atomic ClusterBatch) when two keys of different commands are, at the later
// one. GLIDE's cluster client splits MGET, EXISTS, TOUCH and WATCH per slot
// (never reported) and DEL, UNLINK and MSET (not atomic: reported only for
// one entity's keys), and sends every other command to its first key's
// node, where the server refuses the others.
//
// Keys with unknown parts are compared when they hash the same unknown
// values in the same order. CRC16 is linear, so when their texts have the
// same lengths and differ in one place the slots differ for every value or
// for none, which is decided exactly ("for every value of id"). Any other
// difference in the text around the shared values leaves them on one slot
// for about 1 in 16384 values, reported as such ("for all but about 1 in
// 16384 values of id") unless -crossslot.proofs-only is set; so is a fixed key beside
// a key whose hashed part holds a value. A string value that follows
// literal text in a key (an id: "bal:"+acct+":cur") is taken to hold no
// brace for that tier, and the message says so. Types decide where they
// can: integers, floats, bools and times hold no brace (nothing assumed); a
// struct formatted with %v prints its fields inside braces, the hash tag
// they make; maps, slices and runes may print braces and are never taken
// to hold none.
//
//	rdb.MGet(ctx, "bal:"+acct+":cur", "bal:"+acct+":prev") // MGet keys "bal:<acct>:cur" and "bal:<acct>:prev" are on different hash slots for all but about 1 in 16384 values of acct (assuming acct holds no brace); make acct their hash tag, as in "bal:{<acct>}:cur"
//
// Two more claims rest on values (-crossslot.same-values-only leaves them out). Keys
// of different values are on one slot for about 1 in 16384 pairs of them,
// and also whenever the values are equal where the keys are otherwise the
// same text ("pairs of different values"); two values written the same way
// are taken to be one. A function's parameters are such values where they
// follow text of its own ("acct:"+from, "acct:"+to in Transfer(ctx, from,
// to)), judged in the function; a parameter that is a whole key or starts
// one is its callers' to fill, judged at each call. One value at the start of two keys (name and name+":c") puts
// them on one slot only if it holds a hash tag of its own, and the message
// says so; unless the value is read from configuration (a field with a
// yaml, json, env, mapstructure, ... struct tag, os.Getenv, viper), where
// operators put a deployment's tag by design ("{app}:"). A configuration
// field whose struct tag gives a default (default:"{a}") is read as that
// text. A value at the start of one key only, configured or not
// (ks.Prefix+":{"+m+"}:lifetime" beside "tier:"+m), leaves the keys apart
// either way: holding a tag, it puts its key on that tag's slot for every m
// while the other moves with m; holding none, the keys read as they are.
// Beside a constant key the prefix alone decides, and nothing is claimed.
//
//	userID, orderID := lookup(a), lookup(b)
//	rdb.Rename(ctx, "cart:"+userID+":items", "order:"+orderID+":items") // Rename keys "cart:<userID>:items" and "order:<orderID>:items" are on different hash slots for all but about 1 in 16384 pairs of values of userID and orderID (assuming userID and orderID hold no brace); move the data in the client (read, write, then delete the source), or tag both keys with an entity they belong to (a group, a room, a month), never with one constant tag, which puts every such key on one slot
//
//	name := lookup(a)
//	rdb.MGet(ctx, name, name+":count") // MGet keys "<name>" and "<name>:count" are on different hash slots for all but about 1 in 16384 values of name, unless name holds a hash tag; make name their hash tag, as in "{<name>}"
//
// A field read twice from one value, in a function that never stores into
// it, is one value. A field the package sets once (in a constructor, a
// composite literal) holds the template it was given, over the values of
// its object: &Queue{pendingKey: "dq:"+name+":pending", readyKey:
// "dq:"+name+":ready"} makes q.pendingKey and q.readyKey the keys of one
// name, q's, also through methods that return them and across packages.
// Fields that two functions write (a constructor and a setter), and keys
// that an option picks (if opts.HashTags { prefix = "{"+name+"}" }), hold
// one pick at a time, the same for every key of a command or transaction:
// keys that cross slots in one such world are reported with it ("as
// NewQueue sets them", "when opts.HashTags is false, its default"). An
// option is judged at its default only where the package does not give it
// itself (a cluster constructor that appends UseHashTagKey()), and an
// option named for the cluster is none.
//
// A string variable assigned on some paths only is "" (slot 0) on the
// others. A call that runs on such a path, with nothing on the way testing
// the variable or what decided the assignment, is reported; a test that the
// key is not empty leaves "" out of its values at the call.
//
//	var dedup string
//	if token != "" { dedup = "dedup:{" + ch + "}:" + token }
//	rdb.MGet(ctx, "log:{"+ch+"}", dedup) // MGet keys "log:{<ch>}" and "" (dedup on the paths that leave it unassigned) are on different hash slots for all but about 1 in 16384 values of ch (assuming ch holds no brace); assign dedup on every path before the call, or skip the call when it is empty
//
// A call through an interface the module declares, when exactly one type
// the package sees implements it, is followed like a static call of that
// type's method; the interface's package exports that method's summary as
// a fact on the interface's methods, for callers in other packages. When
// the one implementation is in a package the caller does not import (ports
// and adapters, wired in main), the caller's package records the call and
// its keys as a fact, and a main package that sees one implementation
// judges it, reporting at the call; only drivers that load the whole
// program do (the standalone command, golangci-lint): go vet counts such
// calls as not decided in its coverage report.
//
// A service's packages are usually given their client, and their options,
// by main. A package that its own module wires (it is under an internal
// directory, so only its module calls it, or a main package of the module,
// at its root or under cmd/, imports it, directly or through one package;
// a file built only with tags is no part of the program) whose client may
// be a cluster's or one server's, and comes only
// from a function it exports (func New(rdb redis.Cmdable) *Cache), does not
// report its cluster findings: it hands them, as a fact, to that function,
// and the package that calls it judges them with the client it passes.
// They are dropped when that client talks to one server
// (New(redis.NewClient(...))), handed on when it is a parameter of that
// package's own exported function, and otherwise reported at the command,
// with the call that gives the client as a related position. go vet prints
// them under the package that wires the client (main's, usually: once per
// command that wires it). Likewise a finding that holds while an exported
// bool option stays at its default (an exported field, or a field of an
// options struct: "when s.TaggedKeys is false, its default") is judged by
// a main package, and dropped when the program sets that option anywhere.
// And a finding that holds unless the keys' leading value holds a tag
// ("<k.prefix>:stock:<r>" beside "<k.prefix>:holds:<r>"), where that value
// is a field filled from the exported function's parameter (or a field of
// a configuration struct so filled: b.cfg.KeyPrefix), is judged at each
// call with the prefix the caller gives: reported where it is text
// without a brace ("rw", Config{KeyPrefix: "bd"}), dropped where it is a
// tag ("{flags}:") or not known there. Where a field has several writers and one of them is a
// setter code out of sight may call (q.SetPrefix(p) beside NewQuota's
// "quota:", n.UseTag() beside New's "names"), a finding that holds as the
// others write it is dropped when the program calls the setter.
// A malformed tag is reported where it is: it is malformed on any server.
// Other packages (a library's) keep their findings where their commands
// are, since their callers are out of sight; a function the program never
// calls has its deferred findings judged nowhere.
//
// Keys of one entity belong together: give them the entity as a shared hash
// tag, so only the tag is hashed. When every key is a string literal at the
// call and all share everything before their last ':' (an entity such as
// "user:1"), a suggested fix does that. It renames the keys: data stored under
// the old names stays there. Keys of different entities ("user:1:a",
// "user:2:a") get no fix: one tag would put all of them on one slot. Split such
// a batch by slot instead (slotcalc.Grouper), or send one command per key.
//
//	rdb.MGet(ctx, "user:1:profile", "user:1:settings") // MGet keys "user:1:profile" (slot 12348) and "user:1:settings" (slot 13072) are on different hash slots; give them the hash tag {user:1}, as in "{user:1}:profile"
//	rdb.MGet(ctx, "{user:1}:profile", "{user:1}:settings") // after the fix: both on slot 10778
//
// Keys of two entities are never told to share a tag: two values of one
// template ("friends:"+a and "friends:"+b, two users' sets; "uv:"+day1 and
// "uv:"+day2, two days'), keys that each hold a value the other does not,
// two ids of one family ("shop:stock:1" and "shop:stock:2"), or a key per
// entity beside a key of all of them ("hot:cat:"+c beside "hot:global").
// The only tag such keys could share is a constant one, which puts every
// entity of the family on one slot: the hot slot the hottag check reports.
// So a batch of independent keys (MGET, MSET, DEL, UNLINK, EXISTS, TOUCH,
// SSUBSCRIBE) is split by slot; any other command's work is done in the
// client, worded for the command: a move (RENAME, SMOVE, COPY, LMOVE) reads,
// writes, then deletes the source; a set operation (SINTERSTORE,
// SUNIONSTORE, ZUNIONSTORE, BITOP, ...) reads each key, computes the result
// and writes it; PFCOUNT and PFMERGE run on copies of the HyperLogLogs under
// a tag of the call's own; a script runs once per slot with that slot's
// keys; MSETNX sets one slot at a time. Or the keys are tagged with an
// entity both belong to, where one exists: the users of a room
// ("room:{r}:friends:a"), the days of a month ("uv:{2024-05}:01"). A
// transaction over two entities (the two accounts of a transfer), WATCH
// over them included, cannot be atomic across slots, and one transaction
// per slot silently gives up what it was for: co-locate the keys under an
// owner or tenant they share when there is one ("tenant:{t}:acct:a");
// otherwise make each slot's write a step of its own that can be retried
// (idempotent, with a compensating step if a later one fails), or record
// the intent in an outbox on one slot and apply it per slot. The rest of
// the batch counts: an SINTERSTORE into "mutual:"+a of "friends:"+a and
// "friends:"+b is told what two users' keys are told, though its first two
// keys are of one user.
//
//	rdb.MGet(ctx, "shop:stock:1", "shop:stock:2") // MGet keys "shop:stock:1" (slot 10896) and "shop:stock:2" (slot 6899) are on different hash slots; send one call per slot, since one hash tag for every such key would put them all on one slot
//	rdb.PFCount(ctx, "uv:"+lookup(a), "uv:"+lookup(b)) // PFCount keys "uv:<lookup(a)>" and "uv:<lookup(b)>" are on different hash slots for all but about 1 in 16384 pairs of different values of lookup(a) and lookup(b) (assuming lookup(a) and lookup(b) hold no brace); copy each HyperLogLog (GET, then SET) to a key tagged with this call's own id and run it on the copies, or tag both keys with an entity they belong to (a group, a room, a month), never with one constant tag, which puts every such key on one slot
//
// Keys built at the call around one shared value, by a one-verb
// fmt.Sprintf or by "text" + value + "text", get a fix that puts the value
// in a tag in each template, when the fixed keys then provably share a slot
// (and the value is never empty or a brace):
//
//	rdb.MGet(ctx, fmt.Sprintf("order:%d:items", a), fmt.Sprintf("order:%d:total", a)) // MGet keys "order:<a>:items" and "order:<a>:total" are on different hash slots for every value of a; make a their hash tag, as in "order:{<a>}:items"
//	rdb.MGet(ctx, fmt.Sprintf("order:{%d}:items", a), fmt.Sprintf("order:{%d}:total", a)) // after the fix: both on a's slot
//
// # Check emptytag
//
// emptytag: a key's hash tag is empty, so the whole key is hashed
//
// "{}" is not a hash tag: when the first '{' is followed at once by '}', Redis
// hashes the whole key, braces included. This is most often a template whose
// placeholder was left empty, such as fmt.Sprintf("user:{}:%d", id). Keys
// meant to share a slot through it are spread over the cluster.
//
//	rdb.Get(ctx, "user:{}:profile") // Get key "user:{}:profile" has an empty hash tag {}, so the whole key is hashed; put the entity's id between the braces, or remove them
//
// # Check doubletag
//
// doubletag: a key has a second hash tag, which Redis ignores
//
// Only the first "{...}" of a key is its hash tag; a later one is ordinary
// text, and a '{' inside the first tag belongs to the tag. Code that writes
// "{tenant}:{user}" expecting both to count co-locates by tenant only.
//
//	rdb.Get(ctx, "{a}:{b}")      // Get key "{a}:{b}" has a second hash tag after {a}; only the first one counts; keep one pair of braces, around the part that decides the slot
//	rdb.Get(ctx, "user:{{1}}:a") // Get key "user:{{1}}:a" has a '{' inside its hash tag: the server hashes "{1", from the first '{' to the first '}'; keep one pair of braces, around the part that decides the slot
//
// # Check unclosedtag
//
// unclosedtag: a key has a '{' with no '}' after it, so the whole key is hashed
//
// Without a closing '}' there is no hash tag, and keys meant to share one are
// spread over the cluster.
//
//	rdb.Get(ctx, "user:{1:profile") // Get key "user:{1:profile" has a '{' with no '}' after it, so the whole key is hashed; close the tag with '}', or remove the '{'
//
// # Check unprovable
//
// unprovable: a command's keys are not proved to share a hash slot (strict mode)
//
// Off unless -crossslot.strict is set, for teams that want every batch co-located by
// construction. It reports multi-key commands and transactions whose keys
// the analyzer cannot prove to share a slot: keys without one tag, tags made
// of different values, keys from input, and tags made of a value that may be
// empty (then the key is "{}" and hashed whole). Keys that are the
// function's parameters, whole or at their start, are checked where it is
// called.
//
//	rdb.MGet(ctx, "{"+acct+"}:a", "{"+acct+"}:b") // MGet keys are not proved to share a hash slot: "{<acct>}:a" may hold a brace, so its hash tag is not known; give the keys one hash tag of one value, or say why they share a slot in a //crossslot:ignore unprovable comment
//	rdb.MGet(ctx, fmt.Sprintf("{%d}:a", a), fmt.Sprintf("{%d}:b", a)) // after the fix: both on a's slot
//
// # Check scriptslot
//
// scriptslot: a key a script touches is on another slot than its declared keys
//
// The analyzer reads the Lua that Go code sends (EVAL, go-redis Script,
// rueidis Lua, redigo Script; in string constants and //go:embed files) and
// the keys of every redis.call, redis.pcall and server.call in it. On a
// cluster a script runs on the node of its declared keys (KEYS); a key it
// builds from them (KEYS[1] .. ':count') or writes itself that is on another
// slot fails with "ERR Script attempted to access a non local key in a
// cluster node" wherever that slot lives on another node — on a one-node
// setup it works, so tests pass. Derive keys inside the declared tag
// ("user:{1}" .. ':count' stays on the tag's slot), or pass them in KEYS.
// A script whose first line declares flags=allow-cross-slot-keys is not
// checked for slots.
//
//	rdb.Eval(ctx, "return redis.call('INCR', KEYS[1] .. ':count')", []string{"user:1"}) // Eval script's INCR key "user:1:count" (slot 11676) and the declared key "user:1" (slot 10778) are on different hash slots; on a cluster the script fails where they are on different nodes (non local key); give the script's keys the declared keys' hash tag
//	rdb.Eval(ctx, "return redis.call('INCR', KEYS[1] .. ':count')", []string{"user:{1}"}) // after the fix: the count shares the tag
//
// # Check undeclaredkey
//
// undeclaredkey: a script touches a key it does not declare and that is not proved to be on its declared keys' slot
//
// Redis requires scripts to declare every key they touch in KEYS, so that a
// cluster can route the script to the keys' node. A key taken from ARGV, or
// one the analyzer cannot pin down, may be on another node, where the script
// fails (non local key). When the declared keys and the undeclared key both
// come from the function's parameters (a queue's key and its task key
// prefix), each call of the function is judged instead, with the keys it
// passes.
//
//	rdb.Eval(ctx, "return redis.call('INCR', ARGV[1])", []string{"user:1"}, lookup(a)) // Eval script's INCR key ARGV[1] is not declared in KEYS and not proved to be on the declared keys' slot; Redis requires scripts to declare their keys, and on a cluster the script fails where it is on another node (non local key); pass the key in KEYS, with the declared keys' hash tag
//
// # Check missingkey
//
// missingkey: a script reads KEYS[n], and the call passes fewer than n keys
//
// KEYS[n] beyond the keys passed is nil, so the command that uses it fails
// or touches a key other than intended.
//
//	rdb.Eval(ctx, "return redis.call('GET', KEYS[2])", []string{"user:1"}) // Eval script reads KEYS[2], but the call passes 1 key: it gets nil; pass the key in the call's keys
//
// # Check hottag
//
// hottag: a key's hash tag is one constant while a per-entity value sits outside it (opt-in)
//
// Off unless -crossslot.hot-tags is set. "feed:{global}:" + userID puts every user's
// feed on the slot of "global", so one node serves all of them: the hot-slot
// mistake Redis's cluster guidance warns about. Put the entity in the tag
// ("feed:{" + userID + "}"), or leave the tag out. Where the constant tag
// keeps the key on the slot of another key of its command, of another
// entity or of all of them, the entity's own tag takes it off that slot,
// and the finding says what to do with the command then, as the crossslot
// check would; no crossslot finding ever proposes a tag this check
// reports.
//
//	rdb.Get(ctx, fmt.Sprintf("feed:{global}:%d", a)) // Get key "feed:{global}:<a>" has the constant hash tag {global}: every value of a is on its slot 10408, one hot slot; put a in the tag instead
//	rdb.Get(ctx, fmt.Sprintf("feed:{%d}", a)) // after the fix: each feed on its own slot
//	rdb.SUnionStore(ctx, "feed:{global}:all", fmt.Sprintf("feed:{global}:%d", a)) // SUnionStore key "feed:{global}:<a>" has the constant hash tag {global}: every value of a is on its slot 10408, one hot slot; put a in the tag instead, and as "feed:{global}:all" is then on another slot, read each key, compute the result in the client and write it to the destination, since the only tag both could share is a constant one, which puts every such key on one slot
//
// # Check database
//
// database: a call or client needs a database other than 0, which a cluster does not have
//
// A cluster has database 0 only. It refuses SELECT n, MOVE, SWAPDB and
// COPY ... DB n; a universal client given several addresses (or
// IsClusterMode) is a cluster client and drops its DB option, so data meant
// for database 3 lands in database 0 beside everything else. Tell data
// apart by key prefix, or use separate clusters. A client that selects a
// database on every connection (go-redis's *redis.Client given a DB,
// rueidis's and valkey-go's SelectDB, redigo's DialDatabase) is reported
// with -crossslot.include-single-node only: it is a cluster node's client only if
// pointed at one; so is the database of options parsed from a constant URL
// (redis://host:6379/3). A universal client given a DB other than 0 and
// addresses the code does not count (from configuration) is reported: the
// cluster client several make drops it, a cluster node refuses one's
// SELECT. So is redigo's DialDatabase among a redisc Cluster's DialOptions,
// with which redisc dials every node. A database the code does not fix is
// counted as undecided, unless it is a constructor's parameter (or a field
// of its options, or a field filled from one): then it is judged where main
// gives it, and reported, with that call related, where main gives a
// constant other than 0. Valkey 9 has as many databases in
// cluster mode as its cluster-databases setting:
// -crossslot.target=valkey:9.0:db16 (or valkey9:16) accepts SELECT, MOVE and
// COPY ... DB of databases 0 to 15 (SWAPDB stays disabled, and a cluster
// client still drops a DB option).
//
//	rdb.Do(ctx, "SELECT", 2) // SELECT 2 needs a database other than 0, which a cluster does not have (ERR SELECT is not allowed in cluster mode); tell data apart by key prefix instead
//
// # Check sortpattern
//
// sortpattern: SORT reads keys by a pattern on another slot than the sorted key's
//
// SORT ... BY with a pattern (one holding '*') and SORT ... GET read keys
// the pattern forms. Redis 7.4 and Valkey 8.0 accept a pattern whose keys
// are all on the sorted key's slot: its hash tag, closed before any
// wildcard, maps to that slot ("{u}:w_*" for "{u}:ids"); they refuse any
// other ("BY option of SORT denied in Cluster mode when keys formed by the
// pattern may be in different slots."). GET "#", the element itself, is
// accepted from Redis 7.4.2 and Valkey 8.1. Redis before 7.4 and Valkey
// before 8.0 refuse every BY pattern and every GET, "#" too: with
// -crossslot.target=redis:7.0 (or 7.2, valkey:7.2) each is reported, and
// the finding names the rule. BY "nosort" or any BY without '*' is fine. A
// pattern or key the code does not fix is counted as undecided on the
// newer targets, but for a pattern whose fixed text holds no brace: it
// has no tag unless its values hold one, so it is reported when they
// cannot (numbers), at each caller that gives them as text when they are
// the function's parameters, and where main wires them when they are a
// prefix the package's constructor is given ("<prefix>:w_*"), as keys
// under such a prefix are. Begin the pattern with the sorted key's tag,
// sort in the client, or keep the values to sort by in the sorted key
// itself.
//
//	rdb.Sort(ctx, "ids", &redis.Sort{By: "weight_*"}) // SORT BY "weight_*" reads keys on any slot, which a cluster refuses (ERR BY option of SORT denied in Cluster mode when keys formed by the pattern may be in different slots.); begin the pattern with the sorted key's hash tag (SORT {u}:ids BY {u}:w_*), or sort in the client
//	rdb.Sort(ctx, "{ids}", &redis.Sort{By: "{ids}:w_*"}) // after the fix: the pattern's keys are on the sorted key's slot
//
// # Check onenode
//
// onenode: a keyspace-wide command on a cluster client runs on one node
//
// KEYS, SCAN, RANDOMKEY, FLUSHDB and FLUSHALL carry no key, so a cluster
// client sends them to one node: they see, or clear, only the keys of that
// node's slots, without an error. Run them on each master with
// ForEachMaster (DBSize already sums the masters). So are SCRIPT LOAD and
// FUNCTION LOAD, after which an EVALSHA or FCALL fails on the other nodes
// (go-redis's ClusterClient.ScriptLoad loads on every master), and the same
// commands in a script's Lua, which runs on the node of its keys. They are
// reported on a client that may be a cluster client too. A call that
// forwards its function's parameters (a library's Keys(pattern)) is its
// callers' to decide: it is reported at each call that gives the function
// arguments of its own, in this package or another; a mock's recording of
// a command is not. Per-node code (ForEachMaster's callback, rueidis's
// Nodes(), redisc's EachNode) is the fix and never reported. GLIDE's
// cluster client sends KEYS, RANDOMKEY, FLUSHDB, FLUSHALL, DBSIZE and SCRIPT
// LOAD to every primary (not reported) but a raw SCAN to one node (its own
// Scan from models.NewClusterScanCursor() walks every slot), and runs
// anything in an atomic batch on one node, DBSIZE too. On Valkey 9.1 (-crossslot.target=valkey:9.1)
// the fix for KEYS and SCAN names CLUSTERSCAN, whose one cursor walks every
// slot. go-redis's Ring sends a command without keys to one shard, chosen
// at random: KEYS, SCAN, RANDOMKEY, FLUSHDB, FLUSHALL, and the DBSIZE and
// SCRIPT LOAD a cluster client runs on every master, are reported on it,
// with ForEachShard as the fix; its shards are plain servers, so the
// database and sortpattern checks leave it alone.
//
//	rdb.Keys(ctx, "user:*") // KEYS on a cluster client runs on one node and sees only the keys of that node's slots; run it on each master with ForEachMaster
//	ring.DBSize(ctx)        // DBSIZE on go-redis's Ring runs on one shard, chosen at random, and counts only that shard's keys; run it on each shard with ForEachShard
//	func (s *Store) Keys(ctx context.Context, pattern string) []string { return s.rdb.Keys(ctx, pattern).Val() }
//	s.Keys(ctx, "sess:*") // Store.Keys sends KEYS (store.go:17) on a client that may be a cluster client, where it runs on one node and sees only the keys of that node's slots; run it on each master with ForEachMaster
//
// # Check shardedpubsub
//
// shardedpubsub: sharded pub/sub channels of one call are on different hash slots
//
// Sharded channels hash like keys: SSUBSCRIBE and SUNSUBSCRIBE of channels
// on different slots fail with CROSSSLOT. Give the channels one hash tag,
// or subscribe to each on its own.
//
//	rdb.SSubscribe(ctx, "orders", "payments") // SSubscribe channels "orders" (slot 105) and "payments" (slot 8507) are on different hash slots; subscribe once per slot, or give keys that belong together one hash tag
//
// # Check keyspace
//
// keyspace: a cluster client subscribes to keyspace notifications, or configures them, on one node
//
// Each node of a cluster publishes the keyspace notifications of its own
// keys only, and a cluster client subscribes on one node: a SUBSCRIBE or
// PSUBSCRIBE to a __keyspace@ or __keyevent@ channel receives that node's
// share of the events (a third on three masters). CONFIG SET
// notify-keyspace-events through a cluster client configures one node
// (GLIDE's reaches every node). Subscribe, and configure, on each master
// (with GLIDE, a standalone client per primary). As for onenode, a client that
// may or may not be a cluster client is counted, not reported, unless
// -crossslot.include-single-node is set.
//
//	rdb.PSubscribe(ctx, "__keyevent@0__:expired") // PSUBSCRIBE "__keyevent@0__:expired" on a cluster client listens on one node, and each node publishes the notifications of its own keys only: it receives one node's share of them; run it on each master with ForEachMaster
//
// # Check ringshard
//
// ringshard: keys of one command or transaction on go-redis's Ring hash by different values, so they may sit on different shards
//
// go-redis's Ring (redis.NewRing, v7 to v9) shards keys over independent
// servers by their hash tags, as a cluster does, but without slots or
// errors: a multi-key command (MGET, MSET, DEL, RENAME, EVAL, ...) goes to
// the shard of its first key, which reads the other keys there as missing
// or writes them there, where their own shard never sees them; TxPipelined
// runs one MULTI/EXEC per shard, so it is not atomic; Watch refuses watched
// keys of different shards and runs its callback on theirs. Which shard a
// key sits on depends on the shards' names, which the code does not show,
// so keys that hash by different values (different hash tags, or
// different keys without one) are reported: whatever the names, some such
// keys land apart. The fix is the cluster's: one hash tag for the keys an
// entity keeps together, and for keys of two entities one command per key
// or the work done in the client, never one tag for all. Only a client that is surely a Ring is judged so
// (a *redis.Ring, or an interface every value of which is one); there the
// crossslot check says nothing.
//
//	rdb := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"shard1": ":7001", "shard2": ":7002"}})
//	rdb.MGet(ctx, "user:1:a", "user:2:a") // MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) hash by different values; on go-redis's Ring they may sit on different shards, and MGet runs on the first key's shard, which reads the other keys there as missing or writes them there, with no error; send one command per key, since one hash tag for every such key would put them all on one shard
//
// # Check directive
//
// directive: a //crossslot:ignore directive that cannot be honoured, or a //lint:ignore that silenced nothing
//
// A //crossslot:ignore directive names the checks it silences, then says
// why: //crossslot:ignore crossslot one shard in this deployment. One
// without a reason silences nothing, and one that names something that is
// not a check (crossslot -list-checks lists them) silences only the checks
// it names; both are reported here. The standalone command also reports
// here a //lint:ignore directive that silenced nothing.
//
//	rdb.Get(ctx, "user:1") //crossslot:ignore crosslot one shard in this deployment // //crossslot:ignore names "crosslot", which is not a check; crossslot -list-checks lists them
package analyzer
