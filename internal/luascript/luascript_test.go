package luascript

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := `#!lua flags=allow-cross-slot-keys
local count = KEYS[1] .. ':count'
redis.call('SET', KEYS[1], ARGV[1])
redis.call('INCR', count)
if redis.call('EXISTS', KEYS[2]) == 1 then
  return redis.pcall('LPUSH', ARGV[1] .. 'wait', ARGV[2])
end
server.call('SET', 'stats:global', 1)
redis.call('MGET', KEYS[1], KEYS[3])
for i = 1, 2 do redis.call('DEL', KEYS[i]) end
local id = redis.call('LPOP', KEYS[1])
redis.call('HSET', ARGV[1] .. id, 'state', 'active')
redis.call('GET', redis.call('HGET', KEYS[1], 'lock'))
return redis.call('PING')`
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range s.Calls {
		var keys []string
		for _, k := range c.Keys {
			keys = append(keys, k.String())
		}
		got = append(got, fmt.Sprintf("%d %s %s", c.Line, c.Command, strings.Join(keys, ", ")))
	}
	want := []string{
		`3 SET KEYS[1]`,
		`4 INCR KEYS[1] .. ":count"`,
		`5 EXISTS KEYS[2]`,
		`6 LPUSH ARGV[1] .. "wait"`,
		`8 SET "stats:global"`,
		`9 MGET KEYS[1], KEYS[3]`,
		`10 DEL KEYS[?]`,
		`11 LPOP KEYS[1]`,
		`12 HSET ARGV[1] .. <id>`, // a variable's value: by its name
		`13 GET ?`,                // any other unknown value
		`13 HGET KEYS[1]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !s.HasFlag("allow-cross-slot-keys") {
		t.Errorf("flags %v", s.Flags)
	}
	max := 0
	for _, r := range s.KeyReads {
		max = maxInt(max, r.N)
	}
	if max != 3 {
		t.Errorf("highest KEYS read %d, want 3", max)
	}
	if _, err := Parse("redis.call('GET'"); err == nil {
		t.Error("a syntax error parsed")
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// TestFunctionsAliasesAndData: a script's own functions are read where
// they are called, with the keys they are given; aliases of redis.call are
// followed; a key read from Redis says by which command.
func TestFunctionsAliasesAndData(t *testing.T) {
	src := `local rcall = redis.call
local function bump(k, by) rcall('INCRBY', k, by) end
function touch(k) redis.call('EXPIRE', k, 60) end
local tag = function(k) return redis.call('SADD', 'tags', k) end
bump(KEYS[2], 1)
bump(KEYS[1] .. ':n', 2)
touch(ARGV[1])
for i = 1, #ARGV do redis.call('SREM', KEYS[i + 1], ARGV[i]) end
local job = redis.call('HGET', KEYS[1], 'current')
redis.call('DEL', job)
local function never(k) redis.call('DEL', k) end`
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range s.Calls {
		for _, k := range c.Keys {
			_, declared := k.Declared()
			got = append(got, fmt.Sprintf("%d %s %s declared=%v data=%q", c.Line, c.Command, k, declared, k.ReadFromData()))
		}
	}
	want := []string{
		`2 INCRBY KEYS[2] declared=true data=""`,
		`2 INCRBY KEYS[1] .. ":n" declared=false data=""`,
		`3 EXPIRE ARGV[1] declared=false data=""`,
		`8 SREM KEYS[?] declared=true data=""`,
		`9 HGET KEYS[1] declared=true data=""`,
		`10 DEL <job> declared=false data="HGET"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoopsOverKeys: a variable that takes each of KEYS in turn, however the
// loop is written, is a declared key, with or without a test on it.
func TestLoopsOverKeys(t *testing.T) {
	src := `for _, k in ipairs(KEYS) do redis.call('DEL', k) end
for i, k in pairs(KEYS) do if k ~= '' then redis.call('INCR', k) end end
for i = 1, #KEYS, 2 do
  local key = KEYS[i]
  local next = KEYS[i + 1]
  redis.call('RENAME', key, next)
end
for _, v in ipairs(ARGV) do redis.call('DEL', v) end
local k = KEYS[1]
for _, k in ipairs(KEYS) do redis.call('SET', k, 1) end`
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range s.Calls {
		for _, k := range c.Keys {
			_, declared := k.Declared()
			got = append(got, fmt.Sprintf("%d %s %s %v", c.Line, c.Command, k, declared))
		}
	}
	want := []string{
		`1 DEL KEYS[?] true`,
		`2 INCR KEYS[?] true`,
		`6 RENAME KEYS[?] true`,
		`6 RENAME KEYS[?] true`,
		`8 DEL <v> false`,     // ARGV's values: not declared
		`10 SET KEYS[?] true`, // the loop's own k, not the local before it
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("keys:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
