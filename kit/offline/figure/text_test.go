package figure

import "testing"

// A figure over runs is stated with its interval; one run, or none, without.
func TestStatedHasTheIntervalWhereThereIsOne(t *testing.T) {
	for _, tc := range []struct {
		e    Estimate
		want string
	}{
		{Of([]float64{2, 4}), Text(3) + " " + Of([]float64{2, 4}).IntervalText()},
		{Of([]float64{2}), Text(2)},
		{Of(nil), "-"},
	} {
		if have := tc.e.Stated(); have != tc.want {
			t.Errorf("have %q, want %q", have, tc.want)
		}
	}
}
