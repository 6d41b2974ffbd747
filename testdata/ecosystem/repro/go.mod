module example.com/repro

go 1.26

require github.com/prometheus/common v0.66.1

require (
	github.com/kr/pretty v0.3.1 // indirect
	github.com/prometheus/client_model v0.6.2 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	google.golang.org/protobuf v1.36.8 // indirect
)
