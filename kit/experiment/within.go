package experiment

// Within refuses, in one line naming the flag, a value outside lo to hi: "--trials 1:
// want 2 to 1000", then more (" lines per trial", " (an interval needs two)").
func Within[T int | int64 | float64](flag string, v, lo, hi T, more string) error {
	if v >= lo && v <= hi {
		return nil
	}
	return Usagef("--%s %v: want %v to %v%s", flag, v, lo, hi, more)
}
