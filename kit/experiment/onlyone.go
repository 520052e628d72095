package experiment

import "strings"

// OnlyOne refuses a list flag of `logbench run`, which performs one run, that names
// other than one value ("--mode json-sync,none: one run has one logging mode", with
// what "one logging mode"), or a value parse refuses (nil: any).
func OnlyOne(flag string, values []string, what string, parse func(string) error) error {
	if len(values) != 1 {
		return Usagef("--%s %s: one run has %s", flag, strings.Join(values, ","), what)
	}
	if parse == nil {
		return nil
	}
	if err := parse(values[0]); err != nil {
		return Usagef("--%s: %v", flag, err)
	}
	return nil
}
