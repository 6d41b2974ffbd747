module github.com/crossslot/crossslot/guard/redigoguard

go 1.26.0

require (
	github.com/crossslot/crossslot v0.0.0
	github.com/gomodule/redigo v1.9.3
)

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/yuin/gopher-lua v1.1.2 // indirect
)

replace github.com/crossslot/crossslot => ../..
