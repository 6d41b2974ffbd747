package oneserver

import "testing"

// A zero KV, as a type check makes it, holds no client: its field is
// still only ever set to clients of one server.
func TestKVType(t *testing.T) {
	var kv interface{} = new(KV)
	if _, ok := kv.(*KV); !ok {
		t.Fatal("not a KV")
	}
}
