package didyoumean

import "testing"

func TestClosest(t *testing.T) {
	commands := []string{"reproduce", "experiments", "run", "build", "load", "clean", "calibrate", "verify", "archive", "compare", "report", "version", "completion", "help"}
	experiments := []string{"fifo-stall", "qps", "line-cost", "your-api"}
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"verfy", commands, "verify"},
		{"verifyy", commands, "verify"},
		{"reprodcue", commands, "reproduce"},
		{"comprae", commands, "compare"},
		{"versoin", commands, "version"},
		{"qsp", experiments, "qps"},
		{"fifo", experiments, "fifo-stall"},
		{"linecost", experiments, "line-cost"},
		{"yourapi", experiments, "your-api"},
		{"quiet", []string{"quiet", "key", "format"}, "quiet"},
		{"qiet", []string{"quiet", "key", "format"}, "quiet"},
		{"fromat", []string{"quiet", "key", "format"}, "format"},
		// Nothing near: no suggestion rather than a wild one.
		{"bogus", commands, ""},
		{"x", experiments, ""},
		{"kubernetes", experiments, ""},
		{"", commands, ""},
	} {
		have, ok := Closest(tc.name, tc.candidates)
		if have != tc.want || ok != (tc.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", tc.name, have, ok, tc.want)
		}
	}
	if have, want := Suffix("verfy", commands), `; did you mean "verify"?`; have != want {
		t.Errorf("Suffix: %q, want %q", have, want)
	}
}
