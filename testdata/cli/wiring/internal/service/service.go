// Package service passes the client its importer gives it on to the store:
// the store's findings are judged where the service's client is wired.
package service

import (
	"github.com/redis/go-redis/v9"

	"example.com/cli/wiring/internal/store"
)

// Service is the profile service.
type Service struct {
	Profiles *store.Store
}

// New returns a service on rdb.
func New(rdb redis.UniversalClient) *Service {
	return &Service{Profiles: store.New(rdb)}
}
