package slotcalc

// PatternSlot is the one slot every key a glob-style pattern matches is on,
// as the server's patternHashSlot reads it (SORT's BY and GET from Redis
// 7.4 and Valkey 8.0; SCAN and KEYS with MATCH): the slot of the hash tag
// when a non-empty tag closes before any wildcard ('*', '?', '[') or
// escape ('\\'); of the whole pattern when it has none of those; ok is
// false when the matched keys may be on any slot. An empty tag "{}" makes
// the whole key hashed, as in a key; a '{' after it is not a tag.
func PatternSlot(pattern string) (slot int, ok bool) {
	open := -1 // index of the first '{'; -2 after an empty tag
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '*' || c == '?' || c == '[' || c == '\\':
			return 0, false
		case open == -1 && c == '{':
			open = i
		case open >= 0 && c == '}' && i == open+1:
			open = -2
		case open >= 0 && c == '}':
			return SlotOfCRC16(CRC16String(pattern[open+1 : i])), true
		}
	}
	return SlotOfCRC16(CRC16String(pattern)), true
}
