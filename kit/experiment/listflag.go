package experiment

import (
	"errors"
	"flag"
	"slices"
	"strings"
)

// ListFlag is a flag of comma-separated values of a type of their own ("1m,64k" sizes,
// "200,1000" rates) and its rule, as CPUsFlag and SizeFlag are of one value: an axis of
// the matrix that is not a name (List binds those). A value given twice is kept as
// given, so that Check can refuse it, flag and manifest alike.
type ListFlag[T comparable] struct {
	Name, Usage string
	// Parse reads one value, Text writes one as the flag takes it; Syntax says what the
	// flag takes when a value does not parse ("want sizes such as 1m,64k").
	Parse  func(string) (T, error)
	Text   func(T) string
	Syntax string
	// What the values are, plural, in "want 1 to 64 sizes"; In says a value is within
	// the flag's range, and Range says that range ("want 1KiB to 1GiB").
	What  string
	In    func(T) bool
	Range string
}

// Bind declares the flag, bound to p.
func (f ListFlag[T]) Bind(fs *flag.FlagSet, p *[]T) { fs.Var(listOf[T]{f, p}, f.Name, f.Usage) }

// Check refuses a list of none or more than MaxListValues values, a value out of range,
// or one given twice, in that order.
func (f ListFlag[T]) Check(vs []T) error {
	if len(vs) == 0 || len(vs) > MaxListValues {
		return Usagef("--%s: want 1 to %d %s", f.Name, MaxListValues, f.What)
	}
	for i, v := range vs {
		if !f.In(v) {
			return Usagef("--%s %s: %s", f.Name, f.Text(v), f.Range)
		}
		if slices.Contains(vs[:i], v) {
			return Usagef("--%s: %s given twice", f.Name, f.Text(v))
		}
	}
	return nil
}

type listOf[T comparable] struct {
	f ListFlag[T]
	p *[]T
}

// Texts are the values as the flag writes each (Text): a plan's cells of this axis.
func (f ListFlag[T]) Texts(vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = f.Text(v)
	}
	return out
}

func (l listOf[T]) String() string {
	if l.p == nil {
		return ""
	}
	return strings.Join(l.f.Texts(*l.p), ",")
}

func (l listOf[T]) Set(s string) error {
	var out []T
	for _, field := range strings.Split(s, ",") {
		v, err := l.f.Parse(strings.TrimSpace(field))
		if err != nil {
			return errors.New(l.f.Syntax)
		}
		out = append(out, v)
	}
	*l.p = out
	return nil
}
