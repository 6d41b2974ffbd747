package clients

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
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

// moduleDir is where the go command keeps module path, as the fixture
// module in dir requires it.
func moduleDir(t *testing.T, dir, path string) string {
	t.Helper()
	// go list -m names no directory for a module not yet in the cache (a
	// fresh machine): go mod download fetches it first, at the version the
	// fixture module requires, and says where it is.
	cmd := exec.Command("go", "mod", "download", "-json", path)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	var mod struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &mod)
	}
	if err != nil || mod.Dir == "" {
		t.Fatalf("go mod download %s in %s: %v %s", path, dir, err, mod.Error)
	}
	return mod.Dir
}

// notBuilderKeys are builder methods whose generated code computes a slot
// of what they are given, but that are not keys.
var notBuilderKeys = map[string]string{
	"Channel": "a sharded channel (SPUBLISH), judged by the sharded pub/sub check",
}

// TestEveryBuilderKeyMethodIsPlaced walks the generated command builders of
// rueidis and valkey-go v1.0.79: every method whose body computes the slot
// of its parameter (the generator's mark of a key) is in
// builderKeyMethods, so a command with a new kind of key fails here until
// the table places it.
func TestEveryBuilderKeyMethodIsPlaced(t *testing.T) {
	for _, mod := range []string{"github.com/redis/rueidis", "github.com/valkey-io/valkey-go"} {
		dir := filepath.Join(moduleDir(t, "../../../testdata/clients", mod), "internal", "cmds")
		files, err := filepath.Glob(filepath.Join(dir, "gen_*.go"))
		if err != nil || len(files) < 10 {
			t.Fatalf("%s: %d generated builder files: %v", mod, len(files), err)
		}
		slotted := map[string]int{}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv == nil || fd.Body == nil || !slotsParam(fd) {
					continue
				}
				slotted[fd.Name.Name]++
			}
		}
		var unplaced []string
		for name := range slotted {
			if !builderKeyMethods[name] && notBuilderKeys[name] == "" {
				unplaced = append(unplaced, name)
			}
		}
		sort.Strings(unplaced)
		if len(unplaced) > 0 {
			t.Errorf("%s: builder methods that take keys but are not in builderKeyMethods: %s", mod, strings.Join(unplaced, ", "))
		}
		if slotted["Key"] < 100 {
			t.Errorf("%s: only %d Key methods compute a slot: the walk reads the builders wrong", mod, slotted["Key"])
		}
		t.Logf("%s: %d key-taking builder method names", mod, len(slotted))
	}
}

// slotsParam: the method's body calls slot(p) on one of its parameters,
// or on each element of one.
func slotsParam(fd *ast.FuncDecl) bool {
	params := map[string]bool{}
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			params[n.Name] = true
		}
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			// for _, k := range key { ... slot(k) }: an element of the parameter.
			if x, ok := r.X.(*ast.Ident); ok && params[x.Name] {
				if v, ok := r.Value.(*ast.Ident); ok {
					params[v.Name] = true
				}
			}
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "slot" {
			if arg, ok := call.Args[0].(*ast.Ident); ok && params[arg.Name] {
				found = true
			}
		}
		return true
	})
	return found
}

// glideKeyParams are the parameter names GLIDE gives keys.
var glideKeyParams = map[string]bool{"key": true, "keys": true, "newKey": true, "source": true, "destination": true,
	"destinationKey": true, "sourceKey": true, "sourceKeys": true, "key1": true, "key2": true, "keysAndIds": true,
	"keyValueMap": true, "keysOrWeightedKeys": true}

// notGlideMultiKey are GLIDE methods whose signature looks as if it held
// several keys but that send one key, or none, with why.
var notGlideMultiKey = map[string]string{}

// TestEveryGlideMethodIsPlaced walks every method of GLIDE v2.5.3's
// *ClusterClient: one whose parameters hold several keys (two key
// parameters, or a slice or map of them) is in glideMultiKey.
func TestEveryGlideMethodIsPlaced(t *testing.T) {
	pkg := loadClient(t, "../../../testdata/glide", "github.com/valkey-io/valkey-glide/go/v2")
	obj := pkg.Scope().Lookup("ClusterClient")
	if obj == nil {
		t.Fatal("no ClusterClient")
	}
	ms := types.NewMethodSet(types.NewPointer(obj.Type()))
	var unplaced []string
	multi := 0
	for i := range ms.Len() {
		m, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !m.Exported() {
			continue
		}
		sig := m.Signature()
		places, many := 0, false
		for j := range sig.Params().Len() {
			p := sig.Params().At(j)
			if !glideKeyParams[p.Name()] {
				continue
			}
			places++
			switch p.Type().Underlying().(type) {
			case *types.Slice, *types.Map, *types.Interface:
				many = true
			}
		}
		if places < 2 && !many {
			continue
		}
		multi++
		if _, ok := glideMultiKey()[m.Name()]; !ok && notGlideMultiKey[m.Name()] == "" {
			unplaced = append(unplaced, m.Name())
		}
	}
	sort.Strings(unplaced)
	if len(unplaced) > 0 {
		t.Errorf("%d of GLIDE's ClusterClient methods with several keys are not in glideMultiKey:\n%s", len(unplaced), strings.Join(unplaced, "\n"))
	}
	if multi < 40 {
		t.Errorf("only %d methods with several keys found: the walk reads the signatures wrong", multi)
	}
	t.Logf("%d methods of *ClusterClient with several keys", multi)
}
