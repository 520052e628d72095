package tabular

// Verdict is how a run's progress line ends (Own.Progress): verified, or FAILED with
// the reasons the run is not data.
func Verdict(verified bool, failure string) string {
	if !verified {
		return "FAILED: " + failure
	}
	return "verified"
}
