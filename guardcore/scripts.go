package guardcore

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"github.com/crossslot/crossslot/internal/luascript"
	"github.com/crossslot/crossslot/slotcalc"
)

// A script's declared keys are checked like any command's. At run time the
// guard also knows the script's text and every ARGV value, so it reads the
// Lua (the project's reader, as the analyzer does) and computes each key a
// redis.call touches: KEYS[1]..':held' with the declared key put in, an
// ARGV key as passed, a key written in the script. A key on another slot
// than the declared keys fails on a cluster wherever that slot is on
// another node ("non local key"); the guard refuses it on any other slot,
// since slots move between nodes. A script whose shebang line allows
// cross-slot keys vouches for its own keys and is left alone.

// nonLocal is the server's error for a script's key on another node; a
// script with a shebang line and no allow-cross-slot-keys flag gets
// crossSlotScript for a key on another slot of the same node.
const (
	nonLocal        = "ERR Script attempted to access a non local key in a cluster node script"
	crossSlotScript = "ERR Script attempted to access keys that do not hash to the same slot"
)

// scriptCacheSize bounds the scripts kept read: a program that builds
// scripts from data would otherwise grow the cache without end.
const scriptCacheSize = 1024

// scripts holds every script read, by text and by SHA1 (EVALSHA names
// one by its SHA1: go-redis, rueidis and redigo send EVALSHA first and the
// text after NOSCRIPT, and SCRIPT LOAD gives it before).
var scripts struct {
	sync.RWMutex
	byText map[string]*readScript
	bySHA  map[string]*readScript
}

// A readScript is a script's Lua as the reader saw it; nil calls when it
// does not parse or vouches for its keys.
type readScript struct {
	calls   []luascript.Call
	shebang bool
}

// scriptByText reads a script once per text.
func scriptByText(text string) *readScript {
	scripts.RLock()
	s, ok := scripts.byText[text]
	scripts.RUnlock()
	if ok {
		return s
	}
	s = &readScript{}
	if parsed, err := luascript.Parse(text); err == nil && !parsed.HasFlag("allow-cross-slot-keys") {
		s.calls = parsed.Calls
		s.shebang = strings.HasPrefix(text, "#!")
	}
	sum := sha1.Sum([]byte(text))
	scripts.Lock()
	if scripts.byText == nil || len(scripts.byText) >= scriptCacheSize {
		scripts.byText, scripts.bySHA = map[string]*readScript{}, map[string]*readScript{}
	}
	scripts.byText[text] = s
	scripts.bySHA[hex.EncodeToString(sum[:])] = s
	scripts.Unlock()
	return s
}

// scriptBySHA is a script read before (by EVAL or SCRIPT LOAD), nil when
// none was.
func scriptBySHA(sha string) *readScript {
	scripts.RLock()
	defer scripts.RUnlock()
	return scripts.bySHA[strings.ToLower(sha)]
}

// loadedScript reads the script of a SCRIPT LOAD line, so that a later
// EVALSHA of it is checked.
func loadedScript[L Line](line L) {
	if line.Len() != 3 {
		return
	}
	if sub, _ := line.Text(1); !strings.EqualFold(sub, "LOAD") {
		return
	}
	if text, ok := line.Text(2); ok {
		scriptByText(text)
	}
}

// scriptKeys checks the keys an EVAL or EVALSHA line's script touches
// against its declared keys (all on one slot by now).
func (c *Checker) scriptKeys(command string, argv []string, declared []string) error {
	if len(argv) < 3 {
		return nil
	}
	var s *readScript
	if strings.HasPrefix(command, "EVALSHA") {
		s = scriptBySHA(argv[1])
	} else {
		s = scriptByText(argv[1])
	}
	if s == nil || len(s.calls) == 0 {
		return nil
	}
	numkeys, err := strconv.Atoi(argv[2])
	if err != nil || numkeys < 0 || 3+numkeys > len(argv) {
		return nil
	}
	keys, args := argv[3:3+numkeys], argv[3+numkeys:]
	for _, call := range s.calls {
		for _, k := range call.Keys {
			key, ok := concrete(k, keys, args)
			if !ok {
				continue
			}
			slot := slotcalc.Slot(key)
			if len(declared) == 0 {
				return c.refuse(c.withCaller(Violation{Command: command, Keys: []string{key}, Slots: []int{slot},
					Problem: "scriptkey", Refusal: nonLocal, Script: call.Command}))
			}
			if first := slotcalc.Slot(declared[0]); slot != first {
				refusal := nonLocal
				if s.shebang {
					refusal = crossSlotScript
				}
				return c.refuse(c.withCaller(Violation{Command: command, Keys: []string{declared[0], key}, Slots: []int{first, slot},
					Problem: "scriptkey", Refusal: refusal, Script: call.Command}))
			}
		}
	}
	return nil
}

// concrete is a script's key with the call's KEYS and ARGV put in, when
// every piece is known.
func concrete(k luascript.Key, keys, args []string) (string, bool) {
	if len(k) == 1 && k[0].Key > 0 {
		return "", false // a declared key, checked as such
	}
	var b strings.Builder
	for _, p := range k {
		switch {
		case p.Key > 0 && p.Key <= len(keys):
			b.WriteString(keys[p.Key-1])
		case p.Arg > 0 && p.Arg <= len(args):
			b.WriteString(args[p.Arg-1])
		case p.Key > 0, p.Arg > 0, p.AnyKey, p.Unknown:
			return "", false
		default:
			b.WriteString(p.Text)
		}
	}
	return b.String(), true
}
