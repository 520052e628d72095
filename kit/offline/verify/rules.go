package verify

// Rule words a problem that breaks one of an experiment's rules of what can happen at
// all (each experiment's README, "What verify checks"), so that the message names it:
// "rule lines-per-request: ...".
func Rule(name, msg string) string { return "rule " + name + ": " + msg }
