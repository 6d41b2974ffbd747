// Package analyzer defines an Analyzer that reports Redis Cluster CROSSSLOT
// bugs and malformed hash tags in go-redis code.
//
// # Analyzer crossslot
//
// crossslot: report multi-key Redis commands whose keys are on different hash slots
//
// Redis Cluster puts every key in one of 16384 slots: CRC16 of the key, or of
// its hash tag (the text between the first '{' and the first '}' after it,
// when not empty), modulo 16384. A command whose keys are on different slots
// fails with "CROSSSLOT Keys in request don't hash to the same slot". The fix
// is to give keys that are used together one hash tag: "user:{123}:profile"
// and "user:{123}:settings".
//
// The analyzer follows key expressions — constants, concatenation,
// fmt.Sprintf, strings.Join, strconv, locals and branches — into the keys of
// go-redis calls (v9, v8 and older, through concrete clients, pipelines and
// interfaces such as UniversalClient), scripts, WATCH and raw Do commands. It
// reports only what holds for every value the code lets a key take: a key it
// cannot pin down is never reported.
//
// Categories:
//
//   - crossslot: two keys of one command are proved to be on different slots.
//   - emptytag: a key's first tag is "{}", so the whole key is hashed.
//   - doubletag: a key has a second "{...}" after its tag, or a '{' inside it;
//     only the first tag counts.
//   - unclosedtag: a key has a '{' with no '}' after it; the whole key is hashed.
//
// Calls on *redis.Client and *redis.Conn talk to one node, where any keys may
// be combined; they are skipped unless -include-single-node is set.
//
// # Examples
//
//	rdb.MGet(ctx, "user:1:a", "user:2:a") // MGet keys "user:1:a" (slot 323) and "user:2:a" (slot 6163) are on different hash slots
//	rdb.Get(ctx, "user:{}:a")             // Get key "user:{}:a" has an empty hash tag {}, so the whole key is hashed
//	rdb.Get(ctx, "{a}:{b}")               // Get key "{a}:{b}" has a second hash tag after {a}; only the first one counts
//	rdb.Get(ctx, "user:{1")               // Get key "user:{1" has a '{' with no '}' after it, so the whole key is hashed
package analyzer
