package keys

// StockKeys builds one key per SKU: its callers' batches.
func StockKeys(skus []string) []string { // want StockKeys:`keys "stock:"\+p1\[i\] for each element of p1`
	ks := make([]string, 0, len(skus))
	for _, s := range skus {
		ks = append(ks, "stock:"+s)
	}
	return ks
}

// ShopKeys keeps a shop's SKUs under the shop's tag.
func ShopKeys(shop string, skus []string) []string { // want ShopKeys:`keys "stock:\{"\+p1\+"\}:"\+p2\[i\] for each element of p2`
	ks := make([]string, len(skus))
	for i, s := range skus {
		ks[i] = "stock:{" + shop + "}:" + s
	}
	return ks
}
