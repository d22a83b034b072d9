package features

// plusMinus returns +1 when b holds, -1 when not: the to_move feature of every set.
func plusMinus(b bool) float64 {
	if b {
		return 1
	}
	return -1
}
