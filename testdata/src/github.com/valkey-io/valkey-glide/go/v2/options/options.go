// Package options is a stub of GLIDE's command options.
package options

type Script struct{ code string }

func NewScript(code string) *Script { return &Script{code: code} }

type ScriptOptions struct {
	Keys []string
	Args []string
}

func NewScriptOptions() *ScriptOptions { return &ScriptOptions{} }

func (o *ScriptOptions) WithKeys(keys []string) *ScriptOptions { o.Keys = keys; return o }
func (o *ScriptOptions) WithArgs(args []string) *ScriptOptions { o.Args = args; return o }

type RouteOption struct{ Route any }

type CopyOptions struct {
	Replace       bool
	DbDestination int64
}

func NewCopyOptions() *CopyOptions                            { return &CopyOptions{} }
func (o *CopyOptions) SetDBDestination(db int64) *CopyOptions { o.DbDestination = db; return o }
func (o *CopyOptions) SetReplace() *CopyOptions               { o.Replace = true; return o }

type KeysOrWeightedKeys interface{ ToArgs() ([]string, error) }

type KeyArray struct{ Keys []string }

func (k KeyArray) ToArgs() ([]string, error) { return k.Keys, nil }

type SortOptions struct{}

func NewSortOptions() *SortOptions                               { return &SortOptions{} }
func (o *SortOptions) SetByPattern(pattern string) *SortOptions  { return o }
func (o *SortOptions) AddGetPattern(pattern string) *SortOptions { return o }
func (o *SortOptions) SetIsAlpha(alpha bool) *SortOptions        { return o }
