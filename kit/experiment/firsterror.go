package experiment

// FirstError is the first of errs that is not nil: FirstProblem of checks cheap and
// harmless enough to make all of them, written as the list of their results (a run of
// Within and UsageIf), in the order their problem is to be said.
func FirstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// UsageIf is Usagef when bad holds, nil otherwise: a rule Within cannot say, as one
// entry of FirstError.
func UsageIf(bad bool, format string, args ...any) error {
	if bad {
		return Usagef(format, args...)
	}
	return nil
}
