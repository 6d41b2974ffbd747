module github.com/crossslot/crossslot/guard/rueidisguard

go 1.26.0

require (
	github.com/crossslot/crossslot v0.0.0
	github.com/redis/rueidis v1.0.79
)

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/yuin/gopher-lua v1.1.2 // indirect
	golang.org/x/sys v0.47.0 // indirect
)

replace github.com/crossslot/crossslot => ../..
