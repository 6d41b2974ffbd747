// Command ecosystem is a service that imports what Go services import most,
// beside a Redis client: metrics, tracing, RPC, cloud, Kubernetes types,
// SQL, logging, configuration, web frameworks, a Redis wrapper, and tests.
// The analyzer must read it under every front end without failing, and
// find its one bug.
package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/smithy-go"
	"github.com/gin-gonic/gin"
	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/model"
	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	zeroredis "github.com/zeromicro/go-zero/core/stores/redis"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

var requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "requests_total"}, []string{"route"})

var tracer trace.Tracer = otel.Tracer("ecosystem")

// Store keeps a user's profile and settings.
type Store struct {
	rdb  *redis.ClusterClient
	zero *zeroredis.Redis
	log  *zap.Logger
}

// Profile reads a user's profile and settings in one MGET: a bug on a
// cluster, the two keys are on different slots.
func (s *Store) Profile(ctx context.Context, id string) ([]any, error) {
	ctx, span := tracer.Start(ctx, "profile")
	defer span.End()
	requests.WithLabelValues("profile").Inc()
	return s.rdb.MGet(ctx, "user:"+id+":profile", "user:"+id+":settings").Result()
}

// Tagged is the fix: one hash tag for the user's keys.
func (s *Store) Tagged(ctx context.Context, id string) ([]any, error) {
	return s.rdb.MGet(ctx, "user:{"+id+"}:profile", "user:{"+id+"}:settings").Result()
}

// Cached reads through go-zero's wrapper.
func (s *Store) Cached(id string) (string, error) {
	return s.zero.Get("cache:" + id)
}

// Labels formats a metric the way Prometheus's model does.
func Labels(id string) string {
	return model.LabelSet{"user": model.LabelValue(id)}.String()
}

// Status is a gRPC error.
func Status(id string) error {
	if id == "" {
		return status.Error(codes.InvalidArgument, "no id")
	}
	return nil
}

// Marshal is a protobuf message's bytes.
func Marshal(id string) ([]byte, error) { return proto.Marshal(wrapperspb.String(id)) }

// Object is a Kubernetes object's metadata.
func Object(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name} }

func routes(s *Store) {
	g := gin.New()
	g.GET("/profile/:id", func(c *gin.Context) { s.Profile(c, c.Param("id")) })
	e := echo.New()
	e.GET("/profile/:id", func(c echo.Context) error { _, err := s.Profile(c.Request().Context(), c.Param("id")); return err })
	f := fiber.New()
	f.Get("/profile/:id", func(c *fiber.Ctx) error { _, err := s.Profile(c.Context(), c.Params("id")); return err })
	http.Handle("/metrics", promhttp.Handler())
	_ = grpc.NewServer()
	_ = &http2.Server{}
}

func main() {
	var dsn string
	cmd := &cobra.Command{Use: "ecosystem", RunE: func(*cobra.Command, []string) error {
		viper.AutomaticEnv()
		logger, _ := zap.NewProduction()
		zerolog.SetGlobalLevel(zerolog.InfoLevel)
		db, err := sqlx.Open("postgres", dsn)
		if err != nil {
			return err
		}
		defer db.Close()
		pool, err := pgxpool.New(context.Background(), dsn)
		if err != nil {
			return err
		}
		defer pool.Close()
		cfg := aws.Config{Region: viper.GetString("region")}
		var apiErr smithy.APIError
		_, _ = cfg, apiErr
		_, _ = rest.InClusterConfig()
		s := &Store{
			rdb:  redis.NewClusterClient(&redis.ClusterOptions{Addrs: viper.GetStringSlice("redis")}),
			zero: zeroredis.MustNewRedis(zeroredis.RedisConf{Host: viper.GetString("zero"), Type: zeroredis.ClusterType}),
			log:  logger,
		}
		routes(s)
		fmt.Println(Labels("1"))
		return http.ListenAndServe(":8080", nil)
	}}
	cmd.Flags().StringVar(&dsn, "dsn", "", "database")
	cmd.Execute()
}
