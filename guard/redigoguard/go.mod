module github.com/crossslot/crossslot/guard/redigoguard

go 1.26.0

require (
	github.com/crossslot/crossslot v0.0.0
	github.com/gomodule/redigo v1.9.3
)

require github.com/yuin/gopher-lua v1.1.2 // indirect

replace github.com/crossslot/crossslot => ../..
