module github.com/crossslot/crossslot/guard

go 1.26.0

require (
	github.com/crossslot/crossslot v0.0.0
	github.com/redis/go-redis/v9 v9.23.0
)

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/yuin/gopher-lua v1.1.2 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)

replace github.com/crossslot/crossslot => ../
