package eval

import (
	"go/types"
	"reflect"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/keymodel"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Values read from configuration are what a service's operators set: a key
// prefix there is where a deployment on a cluster puts its hash tag
// ("{app}:"), so the leading-value tier leaves keys that start with one
// alone (see keymodel.Part.Configured). A default the configuration's own
// struct tag gives is the value the code runs with when nothing sets it:
//
//	RedisPrefix string `yaml:"RedisPrefix" default:"{a}"` // one slot in a cluster
//
// reads as "{a}".

// configTags are the struct tag keys of the libraries that fill a struct
// from a file, the environment or flags.
var configTags = []string{
	"yaml", "json", "toml", "mapstructure", "env", "envconfig", "koanf", "ini",
	"hcl", "xml", "flag", "long", "conf", "config", "default", "envDefault",
}

// defaultTags are the struct tag keys that give a field its default.
var defaultTags = []string{"default", "envDefault"}

// configuredField says what field i of the struct type t (or *t) is as
// configuration: its default when a struct tag gives one, and whether a
// struct tag says a configuration library fills it.
func configuredField(t types.Type, i int) (def string, hasDefault, configured bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() || !ssaread.IsString(st.Field(i).Type()) {
		return "", false, false
	}
	tag := reflect.StructTag(st.Tag(i))
	for _, key := range defaultTags {
		if v, ok := tag.Lookup(key); ok {
			return v, true, true
		}
	}
	for _, key := range configTags {
		if _, ok := tag.Lookup(key); ok {
			return "", false, true
		}
	}
	return "", false, false
}

// configuredFieldKeys reads a field of a configuration struct that the
// package does not see every write of: its default's text, or one value
// marked as configured. ok is false for any other field.
func configuredFieldKeys(base types.Type, index int, part keymodel.Part) ([]keymodel.Key, bool) {
	def, hasDefault, configured := configuredField(base, index)
	switch {
	case hasDefault:
		return []keymodel.Key{keymodel.TextKey(def)}, true
	case configured:
		part.Configured = true
		return []keymodel.Key{keymodel.UnknownKey(part)}, true
	}
	return nil, false
}

// configuredCall reports a call that reads the environment or a
// configuration library: os.Getenv, os.LookupEnv's value, viper's getters.
func configuredCall(v ssa.Value) bool {
	if ext, ok := v.(*ssa.Extract); ok && ext.Index == 0 {
		v = ext.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return false
	}
	switch fn.Pkg.Pkg.Path() {
	case "os":
		return fn.Name() == "Getenv" || fn.Name() == "LookupEnv"
	case "github.com/spf13/viper":
		return fn.Name() == "GetString"
	}
	return false
}
