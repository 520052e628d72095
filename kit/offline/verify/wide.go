package verify

// WideShare is the half-width of a figure's 95% interval, as a share of the figure,
// past which verify names the figure as weakly determined.
const WideShare = 0.10

// Wide says a positive figure's 95% interval [lo, hi] is wider than ±WideShare of it;
// a figure without an interval (NaN ends) is not.
func Wide(figure, lo, hi float64) bool { return figure > 0 && (hi-lo)/2 > WideShare*figure }
