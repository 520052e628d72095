package bundle

import "testing"

func TestMeanAndSumOfAll(t *testing.T) {
	self := func(o Opt) Opt { return o }
	for _, tc := range []struct {
		rows      []Opt
		mean, sum Opt
	}{
		{[]Opt{1, 2, 6}, 3, 9},
		{[]Opt{0}, 0, 0},
		{[]Opt{1, None, 6}, None, None},
		{nil, None, None},
	} {
		same := func(a, b Opt) bool { return a == b || !a.Present() && !b.Present() }
		if got := MeanOfAll(tc.rows, self); !same(got, tc.mean) {
			t.Errorf("MeanOfAll(%v) = %v, want %v", tc.rows, got, tc.mean)
		}
		if got := SumOfAll(tc.rows, self); !same(got, tc.sum) {
			t.Errorf("SumOfAll(%v) = %v, want %v", tc.rows, got, tc.sum)
		}
	}
}
