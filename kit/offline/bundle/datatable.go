package bundle

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/offline/number"
	"github.com/logbench/logbench/kit/offline/printable"
)

// readTable is Resource.ReadTable: the Table Schema casts of the types a bundle uses
// (https://specs.frictionlessdata.io/table-schema/#types-and-formats), with their default
// formats: integer and number as decimal text, boolean's default true and false values,
// datetime in ISO 8601 (format "any": RFC 3339 with or without fractions).
// With keep false no row is kept: the file is only checked, in memory that does not
// grow with it.
func readTable(r Resource, body []byte, maxErrors int, keep bool) ([]map[string]any, []LineError) {
	var errs []LineError
	add := func(e LineError) bool {
		errs = append(errs, e)
		return maxErrors > 0 && len(errs) >= maxErrors
	}
	if r.Schema == nil {
		add(LineError{File: r.Path, Msg: "no schema: not a tabular resource"})
		return nil, errs
	}
	cr := csv.NewReader(bytes.NewReader(body))
	cr.ReuseRecord = !keep
	header, err := cr.Read()
	if err != nil {
		add(LineError{File: r.Path, Line: 1, Msg: "no header: " + err.Error()})
		return nil, errs
	}
	var want []string
	for _, f := range r.Schema.Fields {
		want = append(want, f.Name)
	}
	if !slices.Equal(header, want) {
		add(LineError{File: r.Path, Line: 1, Msg: "header " + printable.Cut(printable.Escape(strings.Join(header, ","), false), 200) + " is not the schema's fields " + printable.Cut(strings.Join(want, ","), 200)})
		return nil, errs
	}
	missing := map[string]bool{}
	for _, m := range r.Schema.MissingValues {
		missing[m] = true
	}
	var rows []map[string]any
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			add(LineError{File: r.Path, Line: line, Msg: err.Error()})
			return rows, errs
		}
		var row map[string]any
		if keep {
			row = make(map[string]any, len(rec))
		}
		for i, f := range r.Schema.Fields {
			v, err := cast(f, rec[i], missing)
			if err != nil {
				if add(LineError{File: r.Path, Line: line, Column: f.Name, Value: rec[i], Msg: err.Error()}) {
					return rows, errs
				}
				continue
			}
			if keep {
				row[f.Name] = v
			}
		}
		if keep {
			rows = append(rows, row)
		}
	}
	return rows, errs
}

// cast reads one value as its field's type; nil for a missing value.
func cast(f SchemaField, s string, missing map[string]bool) (any, error) {
	if missing[s] {
		if f.Constraints != nil && f.Constraints.Required {
			return nil, errors.New("missing, and the field is required")
		}
		return nil, nil
	}
	if f.Constraints != nil && len(f.Constraints.Enum) > 0 && !slices.Contains(f.Constraints.Enum, s) {
		return nil, errors.New("not one of " + strings.Join(f.Constraints.Enum, ", "))
	}
	switch f.Type {
	case "integer":
		v, err := number.ParseInt(s, 64)
		if err != nil {
			return nil, err
		}
		return v, nil
	case "number":
		// The spec allows NaN, INF and -INF (and ParseFloat many more spellings); a
		// bundle never writes them but as a missing value its schema declares.
		v, err := number.Parse(s)
		if err != nil {
			return nil, err
		}
		return v, nil
	case "boolean":
		switch s {
		case "true", "True", "TRUE", "1":
			return true, nil
		case "false", "False", "FALSE", "0":
			return false, nil
		}
		return nil, errors.New("not a boolean")
	case "datetime":
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, errors.New("not an ISO 8601 date and time")
		}
		return v, nil
	}
	return s, nil
}
