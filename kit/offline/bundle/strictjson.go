package bundle

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A manifest is read strictly, so that it has one meaning for every JSON reader. Go's
// encoding/json matches a key to a field in any case and takes the last of duplicate
// keys; other readers match exactly and take the first, or refuse. A manifest with
// `"experiment":"fifo-stall"` then `"EXPERIMENT":"qps"` would be a fifo-stall bundle
// to them and a qps one to the kit. So a manifest is refused when it has, in any object
// at any depth: a key twice; two keys that differ only in case; a key that names one of
// the schema's fields only in another case; or a key the schema does not have at all.
// Invalid UTF-8 (which Go's reader replaces silently) and anything after the one JSON
// value are refused too.

// JSONError is a JSON document refused by the strict reader: Path names the key at
// fault ("parameters.connections", "" for the document), Offset the byte it ends at.
type JSONError struct {
	Path   string
	Offset int64
	Msg    string
}

func (e *JSONError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// maxJSONDepth bounds how deeply a manifest nests: the kit's nest a few levels.
const maxJSONDepth = 32

// CheckJSONKeys refuses a JSON document that is not one valid UTF-8 JSON value, or
// that has, in any object, a key twice or two keys that differ only in case.
func CheckJSONKeys(body []byte) error { return checkJSON(body, nil, true) }

// DecodeStrict decodes the JSON document body into v (a pointer), refusing what
// CheckJSONKeys refuses and every key that is not exactly the name of a field of v's
// type where v's type has fields (a struct; a map, an interface or a type that decodes
// itself takes any key).
func DecodeStrict(body []byte, v any) error {
	if err := checkJSON(body, reflect.TypeOf(v), false); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields() // the walk found none; a second opinion
	return dec.Decode(v)
}

// checkJSON walks body's tokens against type t (nil: any shape). allowUnknown lets a
// struct's object hold keys that match no field at all (a partial view, as Common is of
// a manifest); a key that matches a field only in another case is refused all the same.
func checkJSON(body []byte, t reflect.Type, allowUnknown bool) error {
	if !utf8.Valid(body) {
		return &JSONError{Offset: int64(invalidUTF8At(body)), Msg: "not valid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	w := &jsonWalker{dec: dec, allowUnknown: allowUnknown}
	if err := w.value(t, "", 0); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &JSONError{Offset: dec.InputOffset(), Msg: "more after the JSON value: a document is one value"}
	}
	return nil
}

func invalidUTF8At(body []byte) int {
	for i := 0; i < len(body); {
		r, n := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(body)
}

type jsonWalker struct {
	dec          *json.Decoder
	allowUnknown bool
}

func (w *jsonWalker) fail(path, format string, args ...any) error {
	return &JSONError{Path: path, Offset: w.dec.InputOffset(), Msg: fmt.Sprintf(format, args...)}
}

// value reads one value of type t at path.
func (w *jsonWalker) value(t reflect.Type, path string, depth int) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err // a *json.SyntaxError, or io.EOF / io.ErrUnexpectedEOF for a cut-off one
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return nil
	}
	if depth >= maxJSONDepth {
		return w.fail(path, "nested more than %d levels deep", maxJSONDepth)
	}
	t = shapeOf(t)
	if d == '[' {
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	var fields map[string]reflect.Type
	var elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		fields = jsonFields(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	}
	seen := map[string]bool{}
	folded := map[string]string{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		at := key
		if path != "" {
			at = path + "." + key
		}
		if seen[key] {
			return w.fail(at, "the key appears twice in one object (JSON readers disagree on which one counts)")
		}
		f := foldKey(key)
		if other, ok := folded[f]; ok {
			return w.fail(at, "keys %s and %s differ only in case (Go's reader takes either for one field, others keep both)", strconv.Quote(other), strconv.Quote(key))
		}
		seen[key], folded[f] = true, key
		next := elem
		if fields != nil {
			ft, known := fields[key]
			switch {
			case known:
				next = ft
			case caseVariantOf(fields, f) != "":
				return w.fail(at, "not a field of the schema, whose field is %s (Go's reader matches a key in any case, others do not)", strconv.Quote(caseVariantOf(fields, f)))
			case !w.allowUnknown:
				return w.fail(at, "not a field of the schema (a manifest holds only the fields the kit writes)")
			}
		}
		if err := w.value(next, at, depth+1); err != nil {
			return err
		}
	}
	_, err = w.dec.Token()
	return err
}

// shapeOf is the type whose shape a JSON value must have: pointers followed, nil for any
// shape (an interface, or a type that decodes itself: time.Time, json.RawMessage).
func shapeOf(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface {
		return nil
	}
	p := reflect.PointerTo(t)
	if p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
		return nil
	}
	return t
}

// jsonFields are the JSON names of a struct's fields as encoding/json decodes them
// (tag names, "-" skipped, embedded structs' fields promoted, the shallowest first),
// with their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	level := []reflect.Type{t}
	visited := map[reflect.Type]bool{}
	for len(level) > 0 {
		var next []reflect.Type
		found := map[string]reflect.Type{}
		for _, st := range level {
			if visited[st] {
				continue
			}
			visited[st] = true
			for i := range st.NumField() {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				ft := f.Type
				for ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if _, shallower := out[name]; !shallower {
					found[name] = f.Type
				}
			}
		}
		for name, ft := range found {
			out[name] = ft
		}
		level = next
	}
	return out
}

// caseVariantOf is the field whose name folds to f, or "".
func caseVariantOf(fields map[string]reflect.Type, f string) string {
	for name := range fields {
		if foldKey(name) == f {
			return name
		}
	}
	return ""
}

// foldKey maps every string that strings.EqualFold takes for s to one key: each rune
// becomes the least of its case-folding orbit ('K', 'k' and the Kelvin sign alike).
func foldKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
