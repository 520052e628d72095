package experiment

import (
	"flag"
	"strings"
)

// Repeated binds a flag each use of which adds to a list, whole (commas and all) rather
// than replacing it, as add reads the use into the list: --config NAME:ENV=A,ENV=B once
// per configuration. show writes one value of the list, and sep joins them, as the
// flag's default.
func Repeated[T any](p *[]T, add func(list []T, use string) []T, show func(T) string, sep string) flag.Value {
	return repeated[T]{p, add, show, sep}
}

type repeated[T any] struct {
	v    *[]T
	add  func([]T, string) []T
	show func(T) string
	sep  string
}

func (r repeated[T]) IsRepeatable() bool { return true }
func (r repeated[T]) String() string {
	if r.v == nil {
		return ""
	}
	shown := make([]string, len(*r.v))
	for i, v := range *r.v {
		shown[i] = r.show(v)
	}
	return strings.Join(shown, r.sep)
}
func (r repeated[T]) Set(s string) error { *r.v = r.add(*r.v, s); return nil }
