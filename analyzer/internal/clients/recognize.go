package clients

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
	"github.com/crossslot/crossslot/analyzer/internal/ssaread"
)

// Recognize finds the client a call calls and where its keys are: a go-redis
// method, static or through an interface, a redigo command or script, or a
// rueidis or valkey-go built command or Lua script; nil for anything else.
func Recognize(call ssa.CallInstruction, ev *eval.Evaluator) *Site {
	common := call.Common()
	var site *Site
	if m := GoRedisMethod(common); m != nil {
		site = NewSite(ev, common, m.Signature())
		site.Method, site.Rule = m.Name(), MultiKeyMethods()[m.Name()]
	} else if site = redigoCall(common, ev); site == nil {
		if site = glideCall(common, ev); site == nil {
			site = builderCall(call, ev)
		}
	}
	if site != nil {
		site.Call = call
	}
	return site
}

// Client is the value the call talks through: its receiver; for a rueidis
// or valkey-go built command, the client whose B() built it; for the
// methods of a script (go-redis Script.Run and friends, redigo Script.Do,
// rueidis and valkey-go Lua.Exec), the client or connection it is given.
func (c *Site) Client() ssa.Value {
	if c.Builder != nil {
		if client := BuilderClient(c.Builder); client != nil {
			return client
		}
	}
	if recv := c.Sig.Recv(); recv != nil && runsOnGivenClient(recv.Type()) {
		if _, v, ok := c.Param("c"); ok {
			return v
		}
	}
	recv := c.Receiver()
	if fa, ok := recv.(*ssa.FieldAddr); ok && c.Library == Glide && ssaread.IsEmbedded(fa.X.Type(), fa.Field) {
		return fa.X // GLIDE's methods are its embedded baseClient's, or a batch's BaseBatch's
	}
	return recv
}

// runsOnGivenClient reports the script types whose methods take the client
// to run on as their parameter c.
func runsOnGivenClient(t types.Type) bool {
	if isScriptType(t) {
		return true
	}
	for mod := range builderModules {
		if ssaread.IsNamed(t, mod, "Lua") {
			return true
		}
	}
	return isRedigoNamed(t, "Script")
}
