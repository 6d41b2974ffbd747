package keys

// CartKeys are one user's cart keys, under the user's tag.
type CartKeys struct {
	Items, Meta string
	TTL         int
}

// Cart builds the keys of u's cart.
func Cart(u string) CartKeys { // want Cart:`field 0 "cart:\{"\+p1\+"\}:items"; field 1 "cart:\{"\+p1\+"\}:meta"`
	tag := "cart:{" + u + "}"
	return CartKeys{Items: tag + ":items", Meta: tag + ":meta", TTL: 3600}
}

// CheckoutItems is the payment service's key of u's frozen cart: no tag.
func CheckoutItems(u string) string { return "checkout:" + u + ":items" } // want CheckoutItems:`key "checkout:"\+p1\+":items"`
