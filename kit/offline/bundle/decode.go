package bundle

import (
	"bytes"
	"encoding"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/number"
	"github.com/logbench/logbench/kit/offline/printable"
)

// LineError is one line or field of a bundle file that does not parse. Line counts from
// 1 and includes the header; Column is empty when the whole line is at fault.
type LineError struct {
	File   string
	Line   int
	Column string
	Value  string
	Msg    string
}

func (e LineError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, " line %d", e.Line)
	}
	if e.Column != "" {
		// A header field can be anything, a whole line included: cut like a value.
		fmt.Fprintf(&b, ": column %s", printable.Cut(printable.Escape(e.Column, false), 60))
	}
	if e.Value != "" || e.Column != "" {
		fmt.Fprintf(&b, ": %s", quoteValue(e.Value))
	}
	fmt.Fprintf(&b, ": %s", e.Msg)
	return b.String()
}

// quoteValue shows a field as it is in the file, shortened, so that one error stays one
// line whatever the file holds.
func quoteValue(v string) string {
	const most = 60
	if len(v) > most {
		v = v[:most] + "…"
	}
	return strconv.Quote(v)
}

// Columns are the CSV columns of a row type (RunRow, RequestRow, ...), in the order a
// bundle writes them.
func Columns[T any]() []string {
	fields := csvFields(reflect.TypeFor[T]())
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return names
}

// Field is one CSV column of a row type and where its value is in the struct.
type Field struct {
	Column string
	Index  []int // for reflect.Value.FieldByIndex
}

// FieldsOf lists the columns of a row type with their struct fields, in file order.
func FieldsOf[T any]() []Field { return FieldsOfType(reflect.TypeFor[T]()) }

// FieldsOfType is FieldsOf of a row type known at run time.
func FieldsOfType(t reflect.Type) []Field {
	fields := csvFields(t)
	out := make([]Field, len(fields))
	for i, f := range fields {
		out[i] = Field{Column: f.name, Index: f.index}
	}
	return out
}

// Decoded is a bundle CSV file read by DecodeCSV.
type Decoded[T any] struct {
	Rows  []T
	Lines []int // the line of each row
	// Missing are columns of T the file does not have (a bundle written by an earlier
	// kit): their fields are zero, or absent for an Opt.
	Missing []string
	Errs    []LineError
}

// DecodeCSV reads one bundle CSV file strictly: the header may name only columns of T,
// each once, by its name or by a name it had in bundles already written (its `was`
// tag, see csvFields); every line must have as many fields as the header; every field must parse
// as its column's type. It never stops at the first bad line, so that one edit does not
// hide another, but keeps at most maxErrors problems, the last one saying how many more
// there were.
func DecodeCSV[T any](file string, body []byte, maxErrors int) (d Decoded[T]) {
	fields := csvFields(reflect.TypeFor[T]())
	more := 0
	fail := func(e LineError) {
		e.File = file
		if len(d.Errs) < maxErrors {
			d.Errs = append(d.Errs, e)
		} else {
			more++
		}
	}
	defer func() {
		if more > 0 && len(d.Errs) > 0 {
			d.Errs[len(d.Errs)-1].Msg += fmt.Sprintf(" (and %d more problems in this file)", more)
		}
	}()

	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1 // counted here, to say which line and how
	r.ReuseRecord = true
	header, err := r.Read()
	switch {
	case errors.Is(err, io.EOF):
		fail(LineError{Line: 1, Msg: "empty: no header line"})
		return d
	case err != nil:
		fail(LineError{Line: csvLine(err, 1), Msg: csvMsg(err)})
		return d
	}
	header = append([]string(nil), header...)
	byName := map[string]int{}
	for i, f := range fields {
		byName[f.name] = i
		for _, old := range f.was {
			byName[old] = i
		}
	}
	at := make([]int, len(header)) // header position -> index in fields
	inFile := map[string]bool{}    // by today's name: a column and its old name are one
	for i, h := range header {
		j, known := byName[h]
		name := h
		if known {
			name = fields[j].name
		}
		switch {
		case !known:
			fail(LineError{Line: 1, Column: h, Value: h, Msg: "not a column of this schema"})
		case inFile[name]:
			fail(LineError{Line: 1, Column: h, Value: h, Msg: "named twice in the header"})
		}
		at[i], inFile[name] = j, true
	}
	if len(d.Errs) > 0 {
		return d
	}
	for _, f := range fields {
		if !inFile[f.name] {
			d.Missing = append(d.Missing, f.name)
		}
	}
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A syntax error (a stray quote, a cut-off quoted field) leaves the reader
			// lost: the rest of the file cannot be trusted to be split into lines right.
			fail(LineError{Line: csvLine(err, 0), Msg: csvMsg(err) + "; the rest of the file was not read"})
			break
		}
		line, _ := r.FieldPos(0)
		if len(record) != len(header) {
			fail(LineError{Line: line, Msg: fmt.Sprintf("%d fields, want %d (%s)", len(record), len(header), cutShort(len(record), len(header)))})
			continue
		}
		var row T
		v := reflect.ValueOf(&row).Elem()
		for _, name := range d.Missing {
			// An absent figure reads as absent, not as 0.
			_ = setField(v.FieldByIndex(fields[byName[name]].index), "")
		}
		ok := true
		for i, s := range record {
			f := fields[at[i]]
			if err := setField(v.FieldByIndex(f.index), s); err != nil {
				fail(LineError{Line: line, Column: f.name, Value: s, Msg: err.Error()})
				ok = false
			}
		}
		if ok {
			d.Rows = append(d.Rows, row)
			d.Lines = append(d.Lines, line)
		}
	}
	return d
}

func cutShort(have, want int) string {
	if have < want {
		return "cut short?"
	}
	return "a stray comma?"
}

// csvLine is the line a csv.ParseError names, or otherwise.
func csvLine(err error, otherwise int) int {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Line
	}
	return otherwise
}

func csvMsg(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return "not CSV: " + pe.Err.Error()
	}
	return err.Error()
}

type csvField struct {
	name  string
	index []int
	was   []string // the names the column had in bundles already written
}

// csvFields lists a struct's columns as gocsv names them: the `csv` tag (options after
// a comma dropped, "-" skipped), embedded structs flattened in place. A column renamed
// so that one idea has one name in every experiment keeps its former names in a `was`
// tag (space-separated): the kit writes the new name and reads either, so that bundles
// already archived still read.
func csvFields(t reflect.Type) []csvField {
	var out []csvField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && !unmarshals(f.Type) {
			for _, inner := range csvFields(f.Type) {
				out = append(out, csvField{name: inner.name, index: append([]int{i}, inner.index...), was: inner.was})
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("csv"), ",")
		if name = strings.TrimSpace(name); name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, csvField{name: name, index: []int{i}, was: strings.Fields(f.Tag.Get("was"))})
	}
	return out
}

// csvUnmarshaler is gocsv's interface for a field that reads itself.
type csvUnmarshaler interface{ UnmarshalCSV(string) error }

func unmarshals(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[csvUnmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

// setField parses s into v as gocsv writes each kind.
func setField(v reflect.Value, s string) error {
	if v.CanAddr() {
		switch u := v.Addr().Interface().(type) {
		case csvUnmarshaler:
			if err := u.UnmarshalCSV(s); err != nil {
				// A number some other reader takes says why it is refused here.
				for _, why := range []error{number.ErrNotPlain, number.ErrNegativeZero, number.ErrUnderflow, number.ErrNotFinite} {
					if errors.Is(err, why) {
						return why
					}
				}
				return fmt.Errorf("not a number or empty")
			}
			// A figure type reads an empty field as absent (a NaN); any other
			// spelling of a NaN or an infinity is refused, whatever the type took.
			if k := v.Kind(); (k == reflect.Float32 || k == reflect.Float64) && s != "" && !number.Finite(v.Float()) {
				return number.ErrNotFinite
			}
			return nil
		case encoding.TextUnmarshaler:
			return u.UnmarshalText([]byte(s))
		}
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("not true or false")
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := number.ParseInt(s, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := number.ParseUint(s, v.Type().Bits())
		if err != nil {
			return err
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := number.Parse(s)
		if err == nil && v.Kind() == reflect.Float32 && !number.Finite(float64(float32(f))) {
			err = number.ErrNotFinite
		}
		if err != nil {
			return err
		}
		v.SetFloat(f)
	default:
		return fmt.Errorf("a column of type %s, which this reader cannot parse", v.Type())
	}
	return nil
}
