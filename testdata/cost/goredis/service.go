// Package costredis is the twin of costglide: the same service, in
// go-redis, for bench/vetcost to compare what the analyzer costs on each
// client (generated; the same shape in both).
package costredis

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func op0(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a0", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a0", "user:{"+id+"}:b0")
	rdb.Rename(ctx, "user:{"+id+"}:a0", "user:{"+id+"}:c0")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n0")
	pipe.Incr(ctx, "user:{"+id+"}:m0")
	_, err := pipe.Exec(ctx)
	return err
}

func op1(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a1", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a1", "user:{"+id+"}:b1")
	rdb.Rename(ctx, "user:{"+id+"}:a1", "user:{"+id+"}:c1")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n1")
	pipe.Incr(ctx, "user:{"+id+"}:m1")
	_, err := pipe.Exec(ctx)
	return err
}

func op2(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a2", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a2", "user:{"+id+"}:b2")
	rdb.Rename(ctx, "user:{"+id+"}:a2", "user:{"+id+"}:c2")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n2")
	pipe.Incr(ctx, "user:{"+id+"}:m2")
	_, err := pipe.Exec(ctx)
	return err
}

func op3(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a3", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a3", "user:{"+id+"}:b3")
	rdb.Rename(ctx, "user:{"+id+"}:a3", "user:{"+id+"}:c3")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n3")
	pipe.Incr(ctx, "user:{"+id+"}:m3")
	_, err := pipe.Exec(ctx)
	return err
}

func op4(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a4", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a4", "user:{"+id+"}:b4")
	rdb.Rename(ctx, "user:{"+id+"}:a4", "user:{"+id+"}:c4")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n4")
	pipe.Incr(ctx, "user:{"+id+"}:m4")
	_, err := pipe.Exec(ctx)
	return err
}

func op5(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a5", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a5", "user:{"+id+"}:b5")
	rdb.Rename(ctx, "user:{"+id+"}:a5", "user:{"+id+"}:c5")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n5")
	pipe.Incr(ctx, "user:{"+id+"}:m5")
	_, err := pipe.Exec(ctx)
	return err
}

func op6(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a6", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a6", "user:{"+id+"}:b6")
	rdb.Rename(ctx, "user:{"+id+"}:a6", "user:{"+id+"}:c6")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n6")
	pipe.Incr(ctx, "user:{"+id+"}:m6")
	_, err := pipe.Exec(ctx)
	return err
}

func op7(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a7", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a7", "user:{"+id+"}:b7")
	rdb.Rename(ctx, "user:{"+id+"}:a7", "user:{"+id+"}:c7")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n7")
	pipe.Incr(ctx, "user:{"+id+"}:m7")
	_, err := pipe.Exec(ctx)
	return err
}

func op8(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a8", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a8", "user:{"+id+"}:b8")
	rdb.Rename(ctx, "user:{"+id+"}:a8", "user:{"+id+"}:c8")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n8")
	pipe.Incr(ctx, "user:{"+id+"}:m8")
	_, err := pipe.Exec(ctx)
	return err
}

func op9(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a9", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a9", "user:{"+id+"}:b9")
	rdb.Rename(ctx, "user:{"+id+"}:a9", "user:{"+id+"}:c9")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n9")
	pipe.Incr(ctx, "user:{"+id+"}:m9")
	_, err := pipe.Exec(ctx)
	return err
}

func op10(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a10", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a10", "user:{"+id+"}:b10")
	rdb.Rename(ctx, "user:{"+id+"}:a10", "user:{"+id+"}:c10")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n10")
	pipe.Incr(ctx, "user:{"+id+"}:m10")
	_, err := pipe.Exec(ctx)
	return err
}

func op11(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a11", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a11", "user:{"+id+"}:b11")
	rdb.Rename(ctx, "user:{"+id+"}:a11", "user:{"+id+"}:c11")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n11")
	pipe.Incr(ctx, "user:{"+id+"}:m11")
	_, err := pipe.Exec(ctx)
	return err
}

func op12(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a12", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a12", "user:{"+id+"}:b12")
	rdb.Rename(ctx, "user:{"+id+"}:a12", "user:{"+id+"}:c12")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n12")
	pipe.Incr(ctx, "user:{"+id+"}:m12")
	_, err := pipe.Exec(ctx)
	return err
}

func op13(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a13", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a13", "user:{"+id+"}:b13")
	rdb.Rename(ctx, "user:{"+id+"}:a13", "user:{"+id+"}:c13")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n13")
	pipe.Incr(ctx, "user:{"+id+"}:m13")
	_, err := pipe.Exec(ctx)
	return err
}

func op14(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a14", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a14", "user:{"+id+"}:b14")
	rdb.Rename(ctx, "user:{"+id+"}:a14", "user:{"+id+"}:c14")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n14")
	pipe.Incr(ctx, "user:{"+id+"}:m14")
	_, err := pipe.Exec(ctx)
	return err
}

func op15(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a15", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a15", "user:{"+id+"}:b15")
	rdb.Rename(ctx, "user:{"+id+"}:a15", "user:{"+id+"}:c15")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n15")
	pipe.Incr(ctx, "user:{"+id+"}:m15")
	_, err := pipe.Exec(ctx)
	return err
}

func op16(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a16", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a16", "user:{"+id+"}:b16")
	rdb.Rename(ctx, "user:{"+id+"}:a16", "user:{"+id+"}:c16")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n16")
	pipe.Incr(ctx, "user:{"+id+"}:m16")
	_, err := pipe.Exec(ctx)
	return err
}

func op17(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a17", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a17", "user:{"+id+"}:b17")
	rdb.Rename(ctx, "user:{"+id+"}:a17", "user:{"+id+"}:c17")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n17")
	pipe.Incr(ctx, "user:{"+id+"}:m17")
	_, err := pipe.Exec(ctx)
	return err
}

func op18(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a18", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a18", "user:{"+id+"}:b18")
	rdb.Rename(ctx, "user:{"+id+"}:a18", "user:{"+id+"}:c18")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n18")
	pipe.Incr(ctx, "user:{"+id+"}:m18")
	_, err := pipe.Exec(ctx)
	return err
}

func op19(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a19", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a19", "user:{"+id+"}:b19")
	rdb.Rename(ctx, "user:{"+id+"}:a19", "user:{"+id+"}:c19")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n19")
	pipe.Incr(ctx, "user:{"+id+"}:m19")
	_, err := pipe.Exec(ctx)
	return err
}

func op20(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a20", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a20", "user:{"+id+"}:b20")
	rdb.Rename(ctx, "user:{"+id+"}:a20", "user:{"+id+"}:c20")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n20")
	pipe.Incr(ctx, "user:{"+id+"}:m20")
	_, err := pipe.Exec(ctx)
	return err
}

func op21(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a21", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a21", "user:{"+id+"}:b21")
	rdb.Rename(ctx, "user:{"+id+"}:a21", "user:{"+id+"}:c21")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n21")
	pipe.Incr(ctx, "user:{"+id+"}:m21")
	_, err := pipe.Exec(ctx)
	return err
}

func op22(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a22", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a22", "user:{"+id+"}:b22")
	rdb.Rename(ctx, "user:{"+id+"}:a22", "user:{"+id+"}:c22")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n22")
	pipe.Incr(ctx, "user:{"+id+"}:m22")
	_, err := pipe.Exec(ctx)
	return err
}

func op23(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a23", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a23", "user:{"+id+"}:b23")
	rdb.Rename(ctx, "user:{"+id+"}:a23", "user:{"+id+"}:c23")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n23")
	pipe.Incr(ctx, "user:{"+id+"}:m23")
	_, err := pipe.Exec(ctx)
	return err
}

func op24(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a24", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a24", "user:{"+id+"}:b24")
	rdb.Rename(ctx, "user:{"+id+"}:a24", "user:{"+id+"}:c24")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n24")
	pipe.Incr(ctx, "user:{"+id+"}:m24")
	_, err := pipe.Exec(ctx)
	return err
}

func op25(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a25", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a25", "user:{"+id+"}:b25")
	rdb.Rename(ctx, "user:{"+id+"}:a25", "user:{"+id+"}:c25")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n25")
	pipe.Incr(ctx, "user:{"+id+"}:m25")
	_, err := pipe.Exec(ctx)
	return err
}

func op26(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a26", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a26", "user:{"+id+"}:b26")
	rdb.Rename(ctx, "user:{"+id+"}:a26", "user:{"+id+"}:c26")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n26")
	pipe.Incr(ctx, "user:{"+id+"}:m26")
	_, err := pipe.Exec(ctx)
	return err
}

func op27(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a27", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a27", "user:{"+id+"}:b27")
	rdb.Rename(ctx, "user:{"+id+"}:a27", "user:{"+id+"}:c27")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n27")
	pipe.Incr(ctx, "user:{"+id+"}:m27")
	_, err := pipe.Exec(ctx)
	return err
}

func op28(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a28", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a28", "user:{"+id+"}:b28")
	rdb.Rename(ctx, "user:{"+id+"}:a28", "user:{"+id+"}:c28")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n28")
	pipe.Incr(ctx, "user:{"+id+"}:m28")
	_, err := pipe.Exec(ctx)
	return err
}

func op29(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a29", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a29", "user:{"+id+"}:b29")
	rdb.Rename(ctx, "user:{"+id+"}:a29", "user:{"+id+"}:c29")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n29")
	pipe.Incr(ctx, "user:{"+id+"}:m29")
	_, err := pipe.Exec(ctx)
	return err
}

func op30(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a30", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a30", "user:{"+id+"}:b30")
	rdb.Rename(ctx, "user:{"+id+"}:a30", "user:{"+id+"}:c30")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n30")
	pipe.Incr(ctx, "user:{"+id+"}:m30")
	_, err := pipe.Exec(ctx)
	return err
}

func op31(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a31", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a31", "user:{"+id+"}:b31")
	rdb.Rename(ctx, "user:{"+id+"}:a31", "user:{"+id+"}:c31")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n31")
	pipe.Incr(ctx, "user:{"+id+"}:m31")
	_, err := pipe.Exec(ctx)
	return err
}

func op32(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a32", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a32", "user:{"+id+"}:b32")
	rdb.Rename(ctx, "user:{"+id+"}:a32", "user:{"+id+"}:c32")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n32")
	pipe.Incr(ctx, "user:{"+id+"}:m32")
	_, err := pipe.Exec(ctx)
	return err
}

func op33(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a33", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a33", "user:{"+id+"}:b33")
	rdb.Rename(ctx, "user:{"+id+"}:a33", "user:{"+id+"}:c33")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n33")
	pipe.Incr(ctx, "user:{"+id+"}:m33")
	_, err := pipe.Exec(ctx)
	return err
}

func op34(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a34", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a34", "user:{"+id+"}:b34")
	rdb.Rename(ctx, "user:{"+id+"}:a34", "user:{"+id+"}:c34")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n34")
	pipe.Incr(ctx, "user:{"+id+"}:m34")
	_, err := pipe.Exec(ctx)
	return err
}

func op35(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a35", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a35", "user:{"+id+"}:b35")
	rdb.Rename(ctx, "user:{"+id+"}:a35", "user:{"+id+"}:c35")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n35")
	pipe.Incr(ctx, "user:{"+id+"}:m35")
	_, err := pipe.Exec(ctx)
	return err
}

func op36(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a36", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a36", "user:{"+id+"}:b36")
	rdb.Rename(ctx, "user:{"+id+"}:a36", "user:{"+id+"}:c36")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n36")
	pipe.Incr(ctx, "user:{"+id+"}:m36")
	_, err := pipe.Exec(ctx)
	return err
}

func op37(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a37", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a37", "user:{"+id+"}:b37")
	rdb.Rename(ctx, "user:{"+id+"}:a37", "user:{"+id+"}:c37")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n37")
	pipe.Incr(ctx, "user:{"+id+"}:m37")
	_, err := pipe.Exec(ctx)
	return err
}

func op38(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a38", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a38", "user:{"+id+"}:b38")
	rdb.Rename(ctx, "user:{"+id+"}:a38", "user:{"+id+"}:c38")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n38")
	pipe.Incr(ctx, "user:{"+id+"}:m38")
	_, err := pipe.Exec(ctx)
	return err
}

func op39(ctx context.Context, rdb *redis.ClusterClient, id string) error {
	rdb.Set(ctx, "user:{"+id+"}:a39", "1", 0)
	rdb.MGet(ctx, "user:{"+id+"}:a39", "user:{"+id+"}:b39")
	rdb.Rename(ctx, "user:{"+id+"}:a39", "user:{"+id+"}:c39")
	pipe := rdb.TxPipeline()
	pipe.Incr(ctx, "user:{"+id+"}:n39")
	pipe.Incr(ctx, "user:{"+id+"}:m39")
	_, err := pipe.Exec(ctx)
	return err
}
