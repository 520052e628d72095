package tabular

import "testing"

// TestAVerdictSaysWhyARunFailed: verified, or FAILED with the reasons.
func TestAVerdictSaysWhyARunFailed(t *testing.T) {
	if have := Verdict(true, ""); have != "verified" {
		t.Errorf("verified run: %q", have)
	}
	if have := Verdict(false, "no trial measured"); have != "FAILED: no trial measured" {
		t.Errorf("failed run: %q", have)
	}
}
