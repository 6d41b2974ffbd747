// Package costglide is the twin of costredis: the same service, in Valkey
// GLIDE, for bench/vetcost to compare what the analyzer costs on each
// client (generated; the same shape in both).
package costglide

import (
	"context"

	glide "github.com/valkey-io/valkey-glide/go/v2"
	"github.com/valkey-io/valkey-glide/go/v2/pipeline"
)

func op0(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a0", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a0", "user:{" + id + "}:b0"})
	c.Rename(ctx, "user:{"+id+"}:a0", "user:{"+id+"}:c0")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n0")
	b.Incr("user:{" + id + "}:m0")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op1(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a1", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a1", "user:{" + id + "}:b1"})
	c.Rename(ctx, "user:{"+id+"}:a1", "user:{"+id+"}:c1")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n1")
	b.Incr("user:{" + id + "}:m1")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op2(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a2", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a2", "user:{" + id + "}:b2"})
	c.Rename(ctx, "user:{"+id+"}:a2", "user:{"+id+"}:c2")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n2")
	b.Incr("user:{" + id + "}:m2")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op3(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a3", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a3", "user:{" + id + "}:b3"})
	c.Rename(ctx, "user:{"+id+"}:a3", "user:{"+id+"}:c3")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n3")
	b.Incr("user:{" + id + "}:m3")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op4(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a4", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a4", "user:{" + id + "}:b4"})
	c.Rename(ctx, "user:{"+id+"}:a4", "user:{"+id+"}:c4")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n4")
	b.Incr("user:{" + id + "}:m4")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op5(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a5", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a5", "user:{" + id + "}:b5"})
	c.Rename(ctx, "user:{"+id+"}:a5", "user:{"+id+"}:c5")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n5")
	b.Incr("user:{" + id + "}:m5")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op6(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a6", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a6", "user:{" + id + "}:b6"})
	c.Rename(ctx, "user:{"+id+"}:a6", "user:{"+id+"}:c6")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n6")
	b.Incr("user:{" + id + "}:m6")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op7(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a7", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a7", "user:{" + id + "}:b7"})
	c.Rename(ctx, "user:{"+id+"}:a7", "user:{"+id+"}:c7")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n7")
	b.Incr("user:{" + id + "}:m7")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op8(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a8", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a8", "user:{" + id + "}:b8"})
	c.Rename(ctx, "user:{"+id+"}:a8", "user:{"+id+"}:c8")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n8")
	b.Incr("user:{" + id + "}:m8")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op9(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a9", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a9", "user:{" + id + "}:b9"})
	c.Rename(ctx, "user:{"+id+"}:a9", "user:{"+id+"}:c9")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n9")
	b.Incr("user:{" + id + "}:m9")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op10(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a10", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a10", "user:{" + id + "}:b10"})
	c.Rename(ctx, "user:{"+id+"}:a10", "user:{"+id+"}:c10")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n10")
	b.Incr("user:{" + id + "}:m10")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op11(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a11", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a11", "user:{" + id + "}:b11"})
	c.Rename(ctx, "user:{"+id+"}:a11", "user:{"+id+"}:c11")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n11")
	b.Incr("user:{" + id + "}:m11")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op12(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a12", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a12", "user:{" + id + "}:b12"})
	c.Rename(ctx, "user:{"+id+"}:a12", "user:{"+id+"}:c12")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n12")
	b.Incr("user:{" + id + "}:m12")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op13(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a13", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a13", "user:{" + id + "}:b13"})
	c.Rename(ctx, "user:{"+id+"}:a13", "user:{"+id+"}:c13")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n13")
	b.Incr("user:{" + id + "}:m13")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op14(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a14", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a14", "user:{" + id + "}:b14"})
	c.Rename(ctx, "user:{"+id+"}:a14", "user:{"+id+"}:c14")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n14")
	b.Incr("user:{" + id + "}:m14")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op15(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a15", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a15", "user:{" + id + "}:b15"})
	c.Rename(ctx, "user:{"+id+"}:a15", "user:{"+id+"}:c15")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n15")
	b.Incr("user:{" + id + "}:m15")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op16(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a16", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a16", "user:{" + id + "}:b16"})
	c.Rename(ctx, "user:{"+id+"}:a16", "user:{"+id+"}:c16")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n16")
	b.Incr("user:{" + id + "}:m16")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op17(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a17", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a17", "user:{" + id + "}:b17"})
	c.Rename(ctx, "user:{"+id+"}:a17", "user:{"+id+"}:c17")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n17")
	b.Incr("user:{" + id + "}:m17")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op18(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a18", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a18", "user:{" + id + "}:b18"})
	c.Rename(ctx, "user:{"+id+"}:a18", "user:{"+id+"}:c18")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n18")
	b.Incr("user:{" + id + "}:m18")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op19(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a19", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a19", "user:{" + id + "}:b19"})
	c.Rename(ctx, "user:{"+id+"}:a19", "user:{"+id+"}:c19")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n19")
	b.Incr("user:{" + id + "}:m19")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op20(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a20", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a20", "user:{" + id + "}:b20"})
	c.Rename(ctx, "user:{"+id+"}:a20", "user:{"+id+"}:c20")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n20")
	b.Incr("user:{" + id + "}:m20")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op21(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a21", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a21", "user:{" + id + "}:b21"})
	c.Rename(ctx, "user:{"+id+"}:a21", "user:{"+id+"}:c21")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n21")
	b.Incr("user:{" + id + "}:m21")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op22(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a22", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a22", "user:{" + id + "}:b22"})
	c.Rename(ctx, "user:{"+id+"}:a22", "user:{"+id+"}:c22")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n22")
	b.Incr("user:{" + id + "}:m22")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op23(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a23", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a23", "user:{" + id + "}:b23"})
	c.Rename(ctx, "user:{"+id+"}:a23", "user:{"+id+"}:c23")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n23")
	b.Incr("user:{" + id + "}:m23")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op24(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a24", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a24", "user:{" + id + "}:b24"})
	c.Rename(ctx, "user:{"+id+"}:a24", "user:{"+id+"}:c24")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n24")
	b.Incr("user:{" + id + "}:m24")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op25(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a25", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a25", "user:{" + id + "}:b25"})
	c.Rename(ctx, "user:{"+id+"}:a25", "user:{"+id+"}:c25")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n25")
	b.Incr("user:{" + id + "}:m25")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op26(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a26", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a26", "user:{" + id + "}:b26"})
	c.Rename(ctx, "user:{"+id+"}:a26", "user:{"+id+"}:c26")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n26")
	b.Incr("user:{" + id + "}:m26")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op27(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a27", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a27", "user:{" + id + "}:b27"})
	c.Rename(ctx, "user:{"+id+"}:a27", "user:{"+id+"}:c27")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n27")
	b.Incr("user:{" + id + "}:m27")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op28(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a28", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a28", "user:{" + id + "}:b28"})
	c.Rename(ctx, "user:{"+id+"}:a28", "user:{"+id+"}:c28")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n28")
	b.Incr("user:{" + id + "}:m28")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op29(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a29", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a29", "user:{" + id + "}:b29"})
	c.Rename(ctx, "user:{"+id+"}:a29", "user:{"+id+"}:c29")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n29")
	b.Incr("user:{" + id + "}:m29")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op30(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a30", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a30", "user:{" + id + "}:b30"})
	c.Rename(ctx, "user:{"+id+"}:a30", "user:{"+id+"}:c30")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n30")
	b.Incr("user:{" + id + "}:m30")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op31(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a31", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a31", "user:{" + id + "}:b31"})
	c.Rename(ctx, "user:{"+id+"}:a31", "user:{"+id+"}:c31")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n31")
	b.Incr("user:{" + id + "}:m31")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op32(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a32", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a32", "user:{" + id + "}:b32"})
	c.Rename(ctx, "user:{"+id+"}:a32", "user:{"+id+"}:c32")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n32")
	b.Incr("user:{" + id + "}:m32")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op33(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a33", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a33", "user:{" + id + "}:b33"})
	c.Rename(ctx, "user:{"+id+"}:a33", "user:{"+id+"}:c33")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n33")
	b.Incr("user:{" + id + "}:m33")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op34(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a34", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a34", "user:{" + id + "}:b34"})
	c.Rename(ctx, "user:{"+id+"}:a34", "user:{"+id+"}:c34")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n34")
	b.Incr("user:{" + id + "}:m34")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op35(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a35", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a35", "user:{" + id + "}:b35"})
	c.Rename(ctx, "user:{"+id+"}:a35", "user:{"+id+"}:c35")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n35")
	b.Incr("user:{" + id + "}:m35")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op36(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a36", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a36", "user:{" + id + "}:b36"})
	c.Rename(ctx, "user:{"+id+"}:a36", "user:{"+id+"}:c36")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n36")
	b.Incr("user:{" + id + "}:m36")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op37(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a37", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a37", "user:{" + id + "}:b37"})
	c.Rename(ctx, "user:{"+id+"}:a37", "user:{"+id+"}:c37")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n37")
	b.Incr("user:{" + id + "}:m37")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op38(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a38", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a38", "user:{" + id + "}:b38"})
	c.Rename(ctx, "user:{"+id+"}:a38", "user:{"+id+"}:c38")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n38")
	b.Incr("user:{" + id + "}:m38")
	_, err := c.Exec(ctx, *b, true)
	return err
}

func op39(ctx context.Context, c *glide.ClusterClient, id string) error {
	c.Set(ctx, "user:{"+id+"}:a39", "1")
	c.MGet(ctx, []string{"user:{" + id + "}:a39", "user:{" + id + "}:b39"})
	c.Rename(ctx, "user:{"+id+"}:a39", "user:{"+id+"}:c39")
	b := pipeline.NewClusterBatch(true)
	b.Incr("user:{" + id + "}:n39")
	b.Incr("user:{" + id + "}:m39")
	_, err := c.Exec(ctx, *b, true)
	return err
}
