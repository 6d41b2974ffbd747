package clients

import (
	"golang.org/x/tools/go/ssa"

	"github.com/crossslot/crossslot/analyzer/internal/eval"
)

// Recognize finds the client a call calls and where its keys are: a go-redis
// method, static or through an interface, a redigo command or script, or a
// rueidis or valkey-go built command or Lua script; nil for anything else.
func Recognize(call ssa.CallInstruction, ev *eval.Evaluator) *Site {
	common := call.Common()
	if m := GoRedisMethod(common); m != nil {
		site := NewSite(ev, common, m.Signature())
		site.Method, site.Rule = m.Name(), MultiKeyMethods[m.Name()]
		return site
	}
	if site := redigoCall(common, ev); site != nil {
		return site
	}
	return builderCall(call, ev)
}
