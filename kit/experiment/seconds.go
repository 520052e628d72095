package experiment

// WithinSeconds is Within of a duration flag, its values written as the flag takes
// them: "--duration 0s: want 1s to 1h0m0s".
func WithinSeconds(flag string, v, least, most float64) error {
	if v >= least && v <= most {
		return nil
	}
	return Usagef("--%s %s: want %s to %s", flag, FormatSeconds(v), FormatSeconds(least), FormatSeconds(most))
}
