package clients

import (
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// loadClient type-checks a client package from the module that the cli
// fixture requires (go-redis v9.23.0, ...), for tests that walk its API.
func loadClient(t *testing.T, dir, path string) *types.Package {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.NeedTypes | packages.NeedName, Dir: abs,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}
	pkgs, err := packages.Load(cfg, path)
	if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading %s: %v %v", path, err, pkgs)
	}
	return pkgs[0].Types
}

// keyParamNames are the parameter names go-redis gives keys, and
// keyFieldNames the fields of its arguments structs that hold keys.
var (
	keyParamNames = map[string]bool{"key": true, "keys": true, "newkey": true, "source": true, "destination": true,
		"dest": true, "destKey": true, "sourceKey": true, "sourceKeys": true, "dst": true, "store": true, "stream": true,
		"streams": true, "key1": true, "key2": true, "srcKey": true, "dstKey": true}
	keyFieldNames = map[string]bool{"Key": true, "Keys": true, "Key1": true, "Key2": true, "Stream": true,
		"Streams": true, "Store": true, "StoreDist": true}
)

// keysOfMethod counts the places a method's signature holds keys: key
// parameters (a variadic or slice one counts as many), and key fields of
// its struct parameters; it names the struct fields.
func keysOfMethod(sig *types.Signature) (places int, many bool, fields []string) {
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		t := p.Type()
		if keyParamNames[p.Name()] {
			places++
			if _, isSlice := t.Underlying().(*types.Slice); isSlice {
				many = true
			}
			continue
		}
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			t = ptr.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for j := range st.NumFields() {
			f := st.Field(j)
			if !keyFieldNames[f.Name()] {
				continue
			}
			places++
			fields = append(fields, p.Name()+"."+f.Name())
			if _, isSlice := f.Type().Underlying().(*types.Slice); isSlice {
				many = true
			}
		}
	}
	return places, many, fields
}

// notMultiKey are go-redis methods whose signature looks as if it held
// several keys but whose command takes one (or names no key there), with
// why.
var notMultiKey = map[string]string{
	"ClientKillByFilter": "its keys ...string are CLIENT KILL's filters, not keys",
	"GeoRadius":          "GEORADIUS_RO: go-redis refuses the query's Store and StoreDist (GeoRadiusStore sends them)",
	"GeoRadiusByMember":  "GEORADIUSBYMEMBER_RO: go-redis refuses the query's Store and StoreDist (GeoRadiusByMemberStore sends them)",
}

// TestEveryGoRedisMethodIsPlaced walks every method of go-redis v9.23.0's
// Cmdable (what ClusterClient, pipelines and transactions all implement):
// one whose signature holds several keys is in MultiKeyMethods, and one
// that takes its one key in a struct field is in singleKeyFields. A new
// go-redis method, or a key moved into a struct, fails here until the
// table places it.
func TestEveryGoRedisMethodIsPlaced(t *testing.T) {
	pkg := loadClient(t, "../../../testdata/cli", "github.com/redis/go-redis/v9")
	cmdable, ok := pkg.Scope().Lookup("Cmdable").Type().Underlying().(*types.Interface)
	if !ok {
		t.Fatal("no Cmdable interface")
	}
	var unplaced []string
	multi := 0
	for i := range cmdable.NumMethods() {
		m := cmdable.Method(i)
		places, many, fields := keysOfMethod(m.Signature())
		_, placed := MultiKeyMethods()[m.Name()]
		switch {
		case places >= 2 || many:
			multi++
			if !placed {
				if why, ok := notMultiKey[m.Name()]; !ok || why == "" {
					unplaced = append(unplaced, m.Name()+" (several keys)")
				}
			}
		case len(fields) == 1 && !placed:
			if f, ok := singleKeyFields[m.Name()]; !ok || m.Name() == "" || f[0]+"."+f[1] != fields[0] {
				unplaced = append(unplaced, m.Name()+" (its key in "+fields[0]+")")
			}
		}
	}
	sort.Strings(unplaced)
	if len(unplaced) > 0 {
		t.Errorf("%d of go-redis's Cmdable methods are not placed in the key tables:\n%s", len(unplaced), strings.Join(unplaced, "\n"))
	}
	if multi < 70 {
		t.Errorf("only %d methods with several keys found: the walk reads the signatures wrong", multi)
	}
	t.Logf("%d methods of Cmdable, %d with several keys", cmdable.NumMethods(), multi)
}
