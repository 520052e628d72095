package bundle

import "reflect"

// Absent is a row with every figure (each Opt field, those of its exported embedded
// structs too) absent and the rest zero: a row to fill with what was measured, where a figure
// its source never gave stays missing rather than 0, which would read as a figure.
func Absent[R any]() R {
	var r R
	absent(reflect.ValueOf(&r).Elem())
	return r
}

func absent(v reflect.Value) {
	if v.Kind() != reflect.Struct {
		return
	}
	for i := range v.NumField() {
		switch f := v.Field(i); {
		case !f.CanSet():
		case f.Type() == reflect.TypeFor[Opt]():
			f.Set(reflect.ValueOf(None))
		case v.Type().Field(i).Anonymous:
			absent(f)
		}
	}
}
