module example.com/glide

go 1.24

require github.com/valkey-io/valkey-glide/go/v2 v2.5.3

require (
	github.com/google/uuid v1.6.0 // indirect
	google.golang.org/protobuf v1.33.0 // indirect
)
