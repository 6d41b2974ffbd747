module github.com/crossslot/crossslot/guard/glideguard

go 1.26.0

require (
	github.com/crossslot/crossslot v0.0.0
	github.com/valkey-io/valkey-glide/go/v2 v2.5.3
)

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/yuin/gopher-lua v1.1.2 // indirect
	google.golang.org/protobuf v1.33.0 // indirect
)

replace github.com/crossslot/crossslot => ../..
