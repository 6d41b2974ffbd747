// Package slotcalc computes Redis Cluster and Valkey hash slots exactly as the
// server does, without a server.
//
// A key's slot is CRC16(key) mod 16384, where CRC16 is the XMODEM variant
// (polynomial 0x1021, initial value 0, no reflection). When the key has a hash
// tag — the bytes between the first '{' and the first '}' after it, if there are
// any — only the tag is hashed. A '{' with no '}' after it, or an empty tag
// "{}", means the whole key, braces included, is hashed. The empty key is
// slot 0, as Redis, Valkey, rueidis and redisc compute it (go-redis picks a
// random slot for it instead).
//
// Every function here is allocation-free; [Grouper] is allocation-free once it
// has grown to the size of the batches it groups.
//
// The checksum runs slicing-by-16: sixteen 256-entry tables let sixteen input
// bytes be folded with independent table loads instead of one dependent chain of
// sixteen, which is what makes long keys several times faster than the
// byte-at-a-time loop clients usually carry. The same lookups flag '{', so a
// key is hashed and searched for a tag in one pass, and the kernel calls
// nothing: [Slot] inlines into its caller and costs one call without a stack
// frame, which is most of what an 8-byte key costs.
package slotcalc
