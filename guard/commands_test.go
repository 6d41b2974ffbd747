package guard_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/crossslot/crossslot/internal/commands"
	"github.com/crossslot/crossslot/internal/redistest"
)

// keyless are the commands go-redis v9.23 sends that the live Redis 7.0
// server does not know and that take no key, with what they are; HIMPORT
// takes a key in its SET subcommand only, which the command table cannot
// say (and no release documents yet).
var keyless = map[string]string{
	// Sharded channels, which the command table leaves out: the
	// shardedpubsub check reads them.
	"SPUBLISH": "a sharded channel, not a key",
	// Argument keywords a method writes before calling the helper that
	// writes its command's name.
	"BY": "a keyword", "BYSCORE": "a keyword", "LIMIT": "a keyword", "STORE": "a keyword", "JUSTID": "a keyword",
	"WEIGHTS": "a keyword", "WITHSCORES": "a keyword",
	"WAITAOF": "Redis 7.2: waits for the AOF fsync; no key",
	"HOTKEYS": "Redis 8.x: the server's hot keys; no key",
	"HIMPORT": "Redis 8.x: HIMPORT SET key ...; a subcommand's key",
}

// TestEveryGoRedisCommandIsKnown reads the command each of go-redis
// v9.23's command methods sends (the first name it writes: NewXCmd(ctx,
// "name", ...), []interface{}{"name", ...}, args[0] = "name", or
// append(args, "name", ...)), outside the modules' commands (search, time
// series, JSON, vector sets, arrays): each is in the command table or its
// newer commands, or the live server says it takes no key, or it is one of
// the keyless commands above. A multi-key command go-redis gains and the
// table lacks fails here.
func TestEveryGoRedisCommandIsKnown(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/redis/go-redis/v9").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	files, _ := filepath.Glob(filepath.Join(dir, "*_commands.go"))
	files = append(files, filepath.Join(dir, "commands.go"))
	sent := map[string]string{} // name -> the method that sends it
	fset := token.NewFileSet()
	for _, f := range files {
		switch filepath.Base(f) {
		case "search_commands.go", "timeseries_commands.go", "json.go", "vectorset_commands.go", "array_commands.go", "probabilistic.go":
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Body == nil {
				continue
			}
			if name := firstName(fn.Body); name != "" {
				sent[name] = fn.Name.Name
			}
		}
	}
	if len(sent) < 150 {
		t.Fatalf("read %d commands from %s: the reading no longer fits go-redis's source", len(sent), dir)
	}
	c, err := redistest.Dial(redistest.PlainAddr(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var names []string
	for n := range sent {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := commands.Lookup(name); ok || keyless[name] != "" {
			continue
		}
		reply, err := c.Do("COMMAND", "INFO", name)
		list, _ := reply.([]any)
		if err != nil || len(list) != 1 || list[0] == nil {
			t.Errorf("%s (go-redis's %s): unknown to the live server and not in the command table: add it to commands.Newer, or to keyless here", name, sent[name])
			continue
		}
		if info, ok := list[0].([]any); ok && len(info) > 3 {
			if first, ok := info[3].(int64); ok && first != 0 {
				t.Errorf("%s (go-redis's %s): the server says it takes keys, and the command table lacks it", name, sent[name])
			}
		}
	}
	t.Logf("%d commands of go-redis's methods: each known", len(names))
}

// firstName is the first command name a method's body writes, upper case.
func firstName(body *ast.BlockStmt) (name string) {
	str := func(e ast.Expr) string {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			return strings.ToUpper(s)
		}
		return ""
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if name != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) > 1 &&
				(strings.HasPrefix(id.Name, "New") && strings.HasSuffix(id.Name, "Cmd") || id.Name == "append") {
				name = str(n.Args[1])
			}
		case *ast.AssignStmt:
			if ix, ok := n.Lhs[0].(*ast.IndexExpr); ok && len(n.Rhs) == 1 {
				if b, ok := ix.Index.(*ast.BasicLit); ok && b.Value == "0" {
					name = str(n.Rhs[0])
				}
			}
		case *ast.CompositeLit:
			if at, ok := n.Type.(*ast.ArrayType); ok && len(n.Elts) > 0 {
				if _, ok := at.Elt.(*ast.InterfaceType); ok {
					name = str(n.Elts[0])
				}
			}
		}
		return name == ""
	})
	return name
}
