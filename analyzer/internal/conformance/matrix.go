// Package conformance generates the conformance matrix: every way of
// building a key (a form) carried every way to a command (a carrier), sent
// by the clients' multi-key commands and transactions (go-redis's
// ClusterClient, UniversalClient and Ring, rueidis, valkey-go, redigo over
// redisc, GLIDE), with the builder in the caller's package or in another. Each cell is a bug, two different values of one
// untagged template ("user:1001:profile" and "user:1002:profile"), and its
// twin, one entity's keys under one tag ("user:{1001}:profile" and
// "user:{1001}:settings"). The test runs the analyzer over the generated
// packages and counts, by each dimension, the bugs found and the twins
// flagged. A command the client splits by slot (a plain pipeline, GLIDE's
// MGet) is silent: its bug cells are twins too.
package conformance

import (
	"fmt"
	"path/filepath"
	"strings"
)

// A Form builds the key of an entity id and a field. Decl is its top-level
// declarations, written twice: with V as U and the tag's braces {{L}} and
// {{R}} empty (the untagged template), and with V as T and the braces
// (the tagged one). Call is the expression at the call site: Q is the
// builder's package qualifier ("keys." or ""), ID and F the arguments.
type Form struct {
	Name, Decl, Call string
}

// Forms are the ways of building a key.
var Forms = []Form{
	{"concat", `func ConcatV(id, f string) string { return "user:{{L}}" + id + "{{R}}:" + f }`, `$QConcatV($ID, $F)`},
	{"sprintf", `func SprintfV(id, f string) string { return fmt.Sprintf("user:{{L}}%s{{R}}:%s", id, f) }`, `$QSprintfV($ID, $F)`},
	{"sprint", `func SprintV(id, f string) string { return fmt.Sprint("user:{{L}}", id, "{{R}}:", f) }`, `$QSprintV($ID, $F)`},
	{"join", `func JoinV(id, f string) string { return strings.Join([]string{"user", "{{L}}" + id + "{{R}}", f}, ":") }`, `$QJoinV($ID, $F)`},
	{"builder", `func BuilderV(id, f string) string {
	var b strings.Builder
	b.WriteString("user:{{L}}")
	b.WriteString(id)
	b.WriteString("{{R}}:")
	b.WriteString(f)
	return b.String()
}`, `$QBuilderV($ID, $F)`},
	{"buffer", `func BufferV(id, f string) string {
	var b bytes.Buffer
	b.WriteString("user:{{L}}")
	b.WriteString(id)
	b.WriteString("{{R}}:")
	b.WriteString(f)
	return b.String()
}`, `$QBufferV($ID, $F)`},
	{"method", `type UserV string

func (u UserV) Key(f string) string { return "user:{{L}}" + string(u) + "{{R}}:" + f }`, `$QUserV($ID).Key($F)`},
	{"pathjoin", `func PathV(id, f string) string { return path.Join("user", "{{L}}"+id+"{{R}}", f) }`, `$QPathV($ID, $F)`},
	{"tolower", `func LowerV(id, f string) string { return strings.ToLower("USER:{{L}}" + id + "{{R}}:" + f) }`, `$QLowerV($ID, $F)`},
	{"promoted", `type baseV struct{ ns string }

func (b baseV) Key(id, f string) string { return b.ns + "{{L}}" + id + "{{R}}:" + f }

type RepoV struct{ baseV }

func NewRepoV() RepoV { return RepoV{baseV{ns: "user:"}} }`, `$QNewRepoV().Key($ID, $F)`},
	{"bytesappend", `func BytesV(id, f string) string {
	b := make([]byte, 0, 64)
	b = append(b, "user:{{L}}"...)
	b = append(b, id...)
	b = append(b, "{{R}}:"...)
	b = append(b, f...)
	return string(b)
}`, `$QBytesV($ID, $F)`},
	{"templatemap", `var templatesV = map[string]string{"user": "user:{{L}}%s{{R}}:%s"}

func TemplateV(name string, args ...any) string { return fmt.Sprintf(templatesV[name], args...) }`, `$QTemplateV("user", $ID, $F)`},
	{"generic", `type UserRefV struct{ ID, F string }

func (u UserRefV) Key() string { return "user:{{L}}" + u.ID + "{{R}}:" + u.F }`, `$QKeyOf($QUserRefV{ID: $ID, F: $F})`},
	{"funcfield", `type FieldKeysV struct{ profile func(id, f string) string }

func NewFieldKeysV() *FieldKeysV {
	return &FieldKeysV{profile: func(id, f string) string { return "user:{{L}}" + id + "{{R}}:" + f }}
}

func (k *FieldKeysV) Key(id, f string) string { return k.profile(id, f) }`, `$QNewFieldKeysV().Key($ID, $F)`},
	{"methodvalue", `type mvV struct{}

func (mvV) key(id, f string) string { return "user:{{L}}" + id + "{{R}}:" + f }

func applyV(fn func(string, string) string, id, f string) string { return fn(id, f) }

func MethodValueV(id, f string) string { return applyV(mvV{}.key, id, f) }`, `$QMethodValueV($ID, $F)`},
	{"factory", `func flatV(prefix string) func(id, f string) string {
	return func(id, f string) string { return prefix + "{{L}}" + id + "{{R}}:" + f }
}

var FlatV = flatV("user:")`, `$QFlatV($ID, $F)`},
	{"wrapper", `func formatV(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func WrappedV(id, f string) string { return formatV("user:{{L}}%s{{R}}:%s", id, f) }`, `$QWrappedV($ID, $F)`},
	{"appendf", `func AppendfV(id, f string) string { return string(fmt.Appendf(nil, "user:{{L}}%s{{R}}:%s", id, f)) }`, `$QAppendfV($ID, $F)`},
	{"replaceall", `func ReplaceV(id, f string) string {
	return strings.ReplaceAll(strings.ReplaceAll("user:{{L}}<id>{{R}}:<f>", "<id>", id), "<f>", f)
}`, `$QReplaceV($ID, $F)`},
	{"replacer", `func ReplacerV(id, f string) string {
	return strings.NewReplacer("<id>", id, "<f>", f).Replace("user:{{L}}<id>{{R}}:<f>")
}`, `$QReplacerV($ID, $F)`},
	{"stringer", `type RefV struct{ ID, F string }

func (r RefV) String() string { return "user:{{L}}" + r.ID + "{{R}}:" + r.F }`, `fmt.Sprint($QRefV{ID: $ID, F: $F})`},
	{"generickeyfn", `type ArgV struct{ ID, F string }

var StoreV = Store[ArgV]{KeyFn: func(a ArgV) string { return "user:{{L}}" + a.ID + "{{R}}:" + a.F }}`, `$QStoreV.KeyFn($QArgV{ID: $ID, F: $F})`},
	{"prefixvar", `var PrefixV = "user:{{L}}"

func PrefixedV(id, f string) string { return PrefixV + id + "{{R}}:" + f }`, `$QPrefixedV($ID, $F)`},
}

// shared are the declarations the forms share, written once per package.
const shared = `type Keyed interface{ Key() string }

func KeyOf[T Keyed](x T) string { return x.Key() }

type Store[T any] struct{ KeyFn func(T) string }
`

// A Carrier takes two keys to a command: Pre are the statements before
// the command, and either Args the two arguments or Slice the slice that
// holds them. E1 and E2 are the two keys' expressions; $EXPR(id, f), with
// ID1, F1, ID2, F2, is the form's expression for other arguments.
type Carrier struct {
	Name, Pre string
	Args      [2]string
	Slice     string
}

// Carriers are the ways of carrying keys to a command.
var Carriers = []Carrier{
	{Name: "direct", Args: [2]string{"$E1", "$E2"}},
	{Name: "locals", Pre: "k1 := $E1\n\tk2 := $E2", Args: [2]string{"k1", "k2"}},
	{Name: "sliceliteral", Pre: "ks := []string{$E1, $E2}", Slice: "ks"},
	{Name: "appended", Pre: "var ks []string\n\tks = append(ks, $E1)\n\tks = append(ks, $E2)", Slice: "ks"},
	{Name: "loop", Pre: "var ks []string\n\tfor _, p := range [][2]string{{$ID1, $F1}, {$ID2, $F2}} {\n\t\tks = append(ks, $EXPR(p[0], p[1]))\n\t}", Slice: "ks"},
	{Name: "closure", Pre: "var ks []string\n\tadd := func(id, f string) { ks = append(ks, $EXPR(id, f)) }\n\tadd($ID1, $F1)\n\tadd($ID2, $F2)", Slice: "ks"},
	{Name: "struct", Pre: "p := keyPair{From: $E1, To: $E2}", Args: [2]string{"p.From", "p.To"}},
	{Name: "helper", Pre: "ks := $HELPER($ID1, $F1, $ID2, $F2)", Slice: "ks"},
	{Name: "map", Pre: "m := map[string]string{\"from\": $E1, \"to\": $E2}", Args: [2]string{`m["from"]`, `m["to"]`}},
	{Name: "channel", Pre: "ch := make(chan string, 2)\n\tch <- $E1\n\tch <- $E2\n\tclose(ch)\n\tvar ks []string\n\tfor k := range ch {\n\t\tks = append(ks, k)\n\t}", Slice: "ks"},
}

// A Command sends the keys: Args with A1 and A2, or Slice with KS. Silent
// marks a command the client splits by slot (a plain pipeline on a cluster
// client): it must stay silent in its bug cells as in its twins, and a
// finding in either is false. The client is the name's part before the dot.
type Command struct {
	Name, Args, Slice string
	Silent            bool
}

// Client is the client a command's name names (goredis, ring, rueidis...).
func (c Command) Client() string {
	client, _, _ := strings.Cut(c.Name, ".")
	return client
}

// getsArgs and getsSlice end a callback that gets each key, for go-redis's
// transactions and pipelines; luaMGet is a script that reads its two KEYS.
const (
	getsArgs  = "\t\tpipe.Get(ctx, $A1)\n\t\tpipe.Get(ctx, $A2)\n\t\treturn nil\n\t})"
	getsSlice = "\t\tfor _, kk := range $KS {\n\t\t\tpipe.Get(ctx, kk)\n\t\t}\n\t\treturn nil\n\t})"
	luaMGet   = `"return redis.call('MGET', KEYS[1], KEYS[2])"`
)

// Commands are the clients' multi-key commands. Commands whose API takes
// no slice of keys (RENAME, MSET) take the slice's elements by index, or,
// for MSETNX and redigo's Args.Add, the pairs or arguments a loop builds.
var Commands = []Command{
	{Name: "goredis.MGet", Args: "rdb.MGet(ctx, $A1, $A2)", Slice: "rdb.MGet(ctx, $KS...)"},
	{Name: "goredis.TxPipelined", Args: "rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsArgs,
		Slice: "rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsSlice},
	{Name: "rueidis.Mget", Args: "c.Do(ctx, c.B().Mget().Key($A1, $A2).Build())", Slice: "c.Do(ctx, c.B().Mget().Key($KS...).Build())"},
	{Name: "redigo.MGET", Args: `conn.Do("MGET", $A1, $A2)`, Slice: `conn.Do("MGET", redigo.Args{}.AddFlat($KS)...)`},

	// go-redis's ClusterClient. TxPipeline is run by a deferred Exec, and
	// TxPipelineExec, its control, by an Exec after the commands.
	{Name: "goredis.Del", Args: "rdb.Del(ctx, $A1, $A2)", Slice: "rdb.Del(ctx, $KS...)"},
	{Name: "goredis.Rename", Args: "rdb.Rename(ctx, $A1, $A2)", Slice: "rdb.Rename(ctx, $KS[0], $KS[1])"},
	{Name: "goredis.SUnionStore", Args: "rdb.SUnionStore(ctx, $A1, $A2)", Slice: "rdb.SUnionStore(ctx, $KS[0], $KS[1:]...)"},
	{Name: "goredis.SInterCard", Args: "rdb.SInterCard(ctx, 0, $A1, $A2)", Slice: "rdb.SInterCard(ctx, 0, $KS...)"},
	{Name: "goredis.PFCount", Args: "rdb.PFCount(ctx, $A1, $A2)", Slice: "rdb.PFCount(ctx, $KS...)"},
	{Name: "goredis.BLPop", Args: "rdb.BLPop(ctx, time.Second, $A1, $A2)", Slice: "rdb.BLPop(ctx, time.Second, $KS...)"},
	{Name: "goredis.XRead", Args: `rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{$A1, $A2, "0", "0"}})`,
		Slice: "ids := []string{\"0\", \"0\"}\n\trdb.XRead(ctx, &redis.XReadArgs{Streams: append($KS, ids...)})"},
	{Name: "goredis.MSet", Args: `rdb.MSet(ctx, $A1, "v1", $A2, "v2")`, Slice: `rdb.MSet(ctx, $KS[0], "v1", $KS[1], "v2")`},
	{Name: "goredis.MSetNX", Args: `rdb.MSetNX(ctx, $A1, "v1", $A2, "v2")`,
		Slice: "pairs := make([]interface{}, 0, 2*len($KS))\n\tfor _, kk := range $KS {\n\t\tpairs = append(pairs, kk, \"v\")\n\t}\n\trdb.MSetNX(ctx, pairs...)"},
	{Name: "goredis.ZUnionStore", Args: "rdb.ZUnionStore(ctx, $A1, &redis.ZStore{Keys: []string{$A1, $A2}})",
		Slice: "rdb.ZUnionStore(ctx, $KS[0], &redis.ZStore{Keys: $KS})"},
	{Name: "goredis.Eval", Args: "rdb.Eval(ctx, " + luaMGet + ", []string{$A1, $A2})", Slice: "rdb.Eval(ctx, " + luaMGet + ", $KS)"},
	{Name: "goredis.ScriptRun", Args: "redis.NewScript(" + luaMGet + ").Run(ctx, rdb, []string{$A1, $A2})",
		Slice: "redis.NewScript(" + luaMGet + ").Run(ctx, rdb, $KS)"},
	{Name: "goredis.TxPipeline", Args: "pipe := rdb.TxPipeline()\n\tdefer pipe.Exec(ctx)\n\tpipe.Get(ctx, $A1)\n\tpipe.Get(ctx, $A2)",
		Slice: "pipe := rdb.TxPipeline()\n\tdefer pipe.Exec(ctx)\n\tfor _, kk := range $KS {\n\t\tpipe.Get(ctx, kk)\n\t}"},
	{Name: "goredis.TxPipelineExec", Args: "pipe := rdb.TxPipeline()\n\tpipe.Get(ctx, $A1)\n\tpipe.Get(ctx, $A2)\n\tpipe.Exec(ctx)",
		Slice: "pipe := rdb.TxPipeline()\n\tfor _, kk := range $KS {\n\t\tpipe.Get(ctx, kk)\n\t}\n\tpipe.Exec(ctx)"},
	{Name: "goredis.Watch", Args: "rdb.Watch(ctx, func(tx *redis.Tx) error { return nil }, $A1, $A2)",
		Slice: "rdb.Watch(ctx, func(tx *redis.Tx) error { return nil }, $KS...)"},
	{Name: "goredis.Pipelined", Silent: true, Args: "rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsArgs,
		Slice: "rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsSlice},

	// go-redis's UniversalClient (a cluster's, when given several
	// addresses) and Ring, which shards by hash tag and has its own check.
	{Name: "universal.MGet", Args: "u.MGet(ctx, $A1, $A2)", Slice: "u.MGet(ctx, $KS...)"},
	{Name: "universal.TxPipelined", Args: "u.TxPipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsArgs,
		Slice: "u.TxPipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsSlice},
	{Name: "ring.MGet", Args: "ring.MGet(ctx, $A1, $A2)", Slice: "ring.MGet(ctx, $KS...)"},
	{Name: "ring.TxPipelined", Args: "ring.TxPipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsArgs,
		Slice: "ring.TxPipelined(ctx, func(pipe redis.Pipeliner) error {\n" + getsSlice},
	{Name: "ring.Watch", Args: "ring.Watch(ctx, func(tx *redis.Tx) error { return nil }, $A1, $A2)",
		Slice: "ring.Watch(ctx, func(tx *redis.Tx) error { return nil }, $KS...)"},

	// rueidis: a MULTI/EXEC in DoMulti, on a dedicated connection, and a
	// cached read.
	{Name: "rueidis.DoMultiTx", Args: "c.DoMulti(ctx, c.B().Multi().Build(), c.B().Get().Key($A1).Build(), c.B().Get().Key($A2).Build(), c.B().Exec().Build())",
		Slice: "cmds := rueidis.Commands{c.B().Multi().Build()}\n\tfor _, kk := range $KS {\n\t\tcmds = append(cmds, c.B().Get().Key(kk).Build())\n\t}\n\tcmds = append(cmds, c.B().Exec().Build())\n\tc.DoMulti(ctx, cmds...)"},
	{Name: "rueidis.Dedicated", Args: "c.Dedicated(func(d rueidis.DedicatedClient) error {\n\t\td.Do(ctx, d.B().Mget().Key($A1, $A2).Build())\n\t\treturn nil\n\t})",
		Slice: "c.Dedicated(func(d rueidis.DedicatedClient) error {\n\t\td.Do(ctx, d.B().Mget().Key($KS...).Build())\n\t\treturn nil\n\t})"},
	{Name: "rueidis.DoCache", Args: "c.DoCache(ctx, c.B().Mget().Key($A1, $A2).Cache(), time.Minute)", Slice: "c.DoCache(ctx, c.B().Mget().Key($KS...).Cache(), time.Minute)"},

	// valkey-go's builders.
	{Name: "valkey.Mget", Args: "vk.Do(ctx, vk.B().Mget().Key($A1, $A2).Build())", Slice: "vk.Do(ctx, vk.B().Mget().Key($KS...).Build())"},
	{Name: "valkey.Sunionstore", Args: "vk.Do(ctx, vk.B().Sunionstore().Destination($A1).Key($A2).Build())",
		Slice: "vk.Do(ctx, vk.B().Sunionstore().Destination($KS[0]).Key($KS[1:]...).Build())"},

	// redigo over redisc: Do with Args.Add, and Send and Flush.
	{Name: "redigo.DEL", Args: `conn.Do("DEL", redigo.Args{}.Add($A1).Add($A2)...)`,
		Slice: "args := redigo.Args{}\n\tfor _, kk := range $KS {\n\t\targs = args.Add(kk)\n\t}\n\tconn.Do(\"DEL\", args...)"},
	{Name: "redigo.SendMGET", Args: "conn.Send(\"MGET\", $A1, $A2)\n\tconn.Flush()", Slice: "conn.Send(\"MGET\", redigo.Args{}.AddFlat($KS)...)\n\tconn.Flush()"},

	// GLIDE: the cluster client's MGet, which GLIDE's core splits by slot
	// (silent), and an atomic batch.
	{Name: "glide.MGet", Silent: true, Args: "gl.MGet(ctx, []string{$A1, $A2})", Slice: "gl.MGet(ctx, $KS)"},
	{Name: "glide.AtomicBatch", Args: "tx := pipeline.NewClusterBatch(true)\n\ttx.Get($A1)\n\ttx.Get($A2)\n\tgl.Exec(ctx, *tx, true)",
		Slice: "tx := pipeline.NewClusterBatch(true)\n\tfor _, kk := range $KS {\n\t\ttx.Get(kk)\n\t}\n\tgl.Exec(ctx, *tx, true)"},
}

// Placements are where the builder is: in the caller's package, or in
// another package (keys) the caller imports.
var Placements = []string{"same", "other"}

// The values the cells use: a bug's two ids (on slots 2549 and 9393 as
// "user:1001:profile" and "user:1002:profile"), a twin's two fields.
const (
	bugID1, bugID2 = `"1001"`, `"1002"`
	field1, field2 = `"profile"`, `"settings"`
)

// A Cell names one generated function.
type Cell struct {
	Form, Carrier, Command, Placement string
	Bug                               bool
}

// FuncName is the generated function's name; ParseFuncName reads it back.
func (c Cell) FuncName() string {
	kind := "twin"
	if c.Bug {
		kind = "bug"
	}
	return strings.Join([]string{"cell", strings.ReplaceAll(c.Command, ".", "_"), c.Form, c.Carrier, kind}, "__")
}

// ParseFuncName is the cell a generated function's name names.
func ParseFuncName(name, placement string) (Cell, bool) {
	parts := strings.Split(name, "__")
	if len(parts) != 5 || parts[0] != "cell" {
		return Cell{}, false
	}
	return Cell{Command: strings.Replace(parts[1], "_", ".", 1), Form: parts[2], Carrier: parts[3], Placement: placement, Bug: parts[4] == "bug"}, true
}

// Files are the generated packages' files, by path below src/: one
// package per placement, command and form (matrix/<placement>/<command>/
// <form>), so that each package stays small (the analyzer's reading of a
// parameter's callers scans its package once per parameter), and the keys
// package every "other" package imports.
func Files() map[string]string {
	files := map[string]string{}
	files[filepath.Join("matrix", "keys", "keys.go")] = "package keys\n\n" + imports("bytes", "fmt", "path", "strings") + shared + "\n" + decls(Forms...)
	for _, placement := range Placements {
		for _, cmd := range Commands {
			for _, f := range Forms {
				files[filepath.Join("matrix", placement, cmdDir(cmd.Name), f.Name, "cells.go")] = cells(placement, cmd, f)
			}
		}
	}
	return files
}

// cmdDir is a command's directory: goredis_MGet.
func cmdDir(name string) string { return strings.ReplaceAll(name, ".", "_") }

// PackagePath is the generated package of a placement, command and form.
func PackagePath(placement, command, form string) string {
	return strings.Join([]string{"matrix", placement, cmdDir(command), form}, "/")
}

// Placement is the placement a generated package's path names.
func Placement(pkgPath string) string {
	parts := strings.Split(pkgPath, "/")
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// cells is one package: a command's cells of one form, every carrier, bug
// and twin.
func cells(placement string, cmd Command, f Form) string {
	q := ""
	body := ""
	extra := []string{}
	if placement == "other" {
		q = "keys."
		extra = append(extra, "matrix/keys")
	} else {
		body = shared + "\n" + decls(f)
	}
	var b strings.Builder
	b.WriteString("package cells\n\n")
	b.WriteString(imports(append([]string{"bytes", "context", "fmt", "path", "strings", "time",
		"github.com/gomodule/redigo/redis:redigo", "github.com/mna/redisc", "github.com/redis/go-redis/v9", "github.com/redis/rueidis",
		"github.com/valkey-io/valkey-go", "github.com/valkey-io/valkey-glide/go/v2:glide", "github.com/valkey-io/valkey-glide/go/v2/pipeline"}, extra...)...))
	b.WriteString("var (\n\t_ = bytes.MinRead\n\t_ = fmt.Sprint\n\t_ = path.Join\n\t_ = strings.Join\n\t_ = time.Second\n\t_ = pipeline.NewClusterBatch\n\t_ redigo.Args\n)\n\n")
	b.WriteString("var cluster = &redisc.Cluster{StartupNodes: []string{\":7000\"}}\n\n")
	b.WriteString("type keyPair struct{ From, To string }\n\n")
	b.WriteString(body)
	for _, tagged := range []bool{false, true} {
		b.WriteString(helper(f, q, tagged))
	}
	for _, c := range Carriers {
		for _, bug := range []bool{true, false} {
			b.WriteString(cell(Cell{Form: f.Name, Carrier: c.Name, Command: cmd.Name, Placement: placement, Bug: bug}, f, c, cmd, q))
		}
	}
	return b.String()
}

func imports(paths ...string) string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range paths {
		if path, name, ok := strings.Cut(p, ":"); ok {
			fmt.Fprintf(&b, "\t%s %q\n", name, path)
		} else {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
	}
	b.WriteString(")\n\n")
	return b.String()
}

// decls are the forms' declarations, untagged and tagged.
func decls(forms ...Form) string {
	var b strings.Builder
	for _, f := range forms {
		for _, tagged := range []bool{false, true} {
			b.WriteString(variant(f.Decl, tagged) + "\n\n")
		}
	}
	return b.String()
}

// variant is a form's text with V and the tag's braces put in.
func variant(text string, tagged bool) string {
	v, l, r := "U", "", ""
	if tagged {
		v, l, r = "T", "{", "}"
	}
	text = strings.ReplaceAll(text, "{{L}}", l)
	text = strings.ReplaceAll(text, "{{R}}", r)
	return replaceWord(text, "V", v)
}

// replaceWord replaces the placeholder where it ends an identifier (ConcatV,
// UserV) and not elsewhere.
func replaceWord(text, placeholder, with string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if strings.HasPrefix(text[i:], placeholder) && i > 0 && isIdent(text[i-1]) && (i+len(placeholder) == len(text) || !isIdent(text[i+len(placeholder)])) {
			b.WriteString(with)
			i += len(placeholder) - 1
			continue
		}
		b.WriteByte(text[i])
	}
	return b.String()
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// expr is the form's call with arguments id and f.
func expr(f Form, q string, tagged bool, id, field string) string {
	return strings.NewReplacer("$Q", q, "$ID", id, "$F", field).Replace(variant(f.Call, tagged))
}

// helperName is the helper carrier's function for a form.
func helperName(f Form, tagged bool) string {
	if tagged {
		return "pairOfT_" + f.Name
	}
	return "pairOfU_" + f.Name
}

func helper(f Form, q string, tagged bool) string {
	return fmt.Sprintf("func %s(a, fa, b, fb string) []string {\n\treturn []string{%s, %s}\n}\n\n",
		helperName(f, tagged), expr(f, q, tagged, "a", "fa"), expr(f, q, tagged, "b", "fb"))
}

// cell is one generated function.
func cell(c Cell, f Form, carrier Carrier, cmd Command, q string) string {
	id1, id2, f1, f2 := bugID1, bugID2, field1, field1
	tagged := !c.Bug
	if tagged {
		id1, id2, f1, f2 = bugID1, bugID1, field1, field2
	}
	fill := func(s string) string {
		s = strings.ReplaceAll(s, "$HELPER", helperName(f, tagged))
		for {
			i := strings.Index(s, "$EXPR(")
			if i < 0 {
				break
			}
			end := i + strings.Index(s[i:], ")")
			args := strings.Split(s[i+len("$EXPR("):end], ", ")
			s = s[:i] + expr(f, q, tagged, args[0], args[1]) + s[end+1:]
		}
		return strings.NewReplacer("$E1", expr(f, q, tagged, id1, f1), "$E2", expr(f, q, tagged, id2, f2),
			"$ID1", id1, "$ID2", id2, "$F1", f1, "$F2", f2).Replace(s)
	}
	var send string
	if carrier.Slice != "" {
		send = strings.ReplaceAll(cmd.Slice, "$KS", carrier.Slice)
	} else {
		send = strings.NewReplacer("$A1", carrier.Args[0], "$A2", carrier.Args[1]).Replace(cmd.Args)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "func %s(ctx context.Context, rdb *redis.ClusterClient, c rueidis.Client, u redis.UniversalClient, ring *redis.Ring, vk valkey.Client, gl *glide.ClusterClient) {\n", c.FuncName())
	b.WriteString("\tconn := cluster.Get()\n\tdefer conn.Close()\n")
	if carrier.Pre != "" {
		b.WriteString("\t" + fill(carrier.Pre) + "\n")
	}
	b.WriteString("\t" + fill(send) + "\n}\n\n")
	return b.String()
}
