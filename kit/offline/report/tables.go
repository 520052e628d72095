package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Column is one bundle's column of a table of facts: its label and its values by
// fact.
type column struct {
	label  string
	values map[string]string
}

// sideBySide is a table of facts (rows) by bundle (columns), facts in first-seen order,
// rows where the bundles disagree marked.
func sideBySide(caption string, cols []column, order []string) Table {
	t := Table{Caption: caption, Header: []string{""}, Text: len(cols) + 1}
	for _, c := range cols {
		t.Header = append(t.Header, c.label)
	}
	for _, k := range order {
		row := []string{k}
		differs := false
		for i, c := range cols {
			v, ok := c.values[k]
			if !ok {
				v = "—"
			}
			row = append(row, v)
			if i > 0 && v != row[1] {
				differs = true
			}
		}
		t.Rows = append(t.Rows, row)
		t.Differs = append(t.Differs, differs)
	}
	return t
}

// HostsTable sets the bundles' hosts and kits side by side.
func HostsTable(labels []string, commons []*bundle.Common) Table {
	var cols []column
	var order []string
	for i, m := range commons {
		if m == nil {
			cols = append(cols, column{label: labels[i]})
			continue
		}
		e := m.Engine
		facts := [][2]string{
			{"host", e.Host}, {"architecture", e.Architecture + " (" + e.Platform + ")"}, {"CPUs", strconv.Itoa(e.CPUs)},
			{"memory", units.BytesSize(float64(e.MemoryBytes))}, {"kernel", e.Kernel}, {"OS", e.OS},
			{"Docker Engine", e.EngineVersion + " (API " + e.APIVersion + ")"}, {"cgroup", "v" + e.CgroupVersion + " " + e.CgroupDriver},
			{"storage driver", e.StorageDriver}, {"kit host", m.KitHost.OS + "/" + m.KitHost.Arch + ", " + m.KitHost.GoVersion},
			{"kit", strings.TrimSpace(m.KitVersion + " " + m.KitCommit)}, {"command", m.Command},
			{"measured", m.CreatedUTC.UTC().Format("2006-01-02 15:04") + " to " + m.FinishedUTC.UTC().Format("2006-01-02 15:04 UTC")},
			{"runs", fmt.Sprintf("%d planned, %d done, %d verified", m.RunsPlanned, m.RunsCompleted, m.RunsVerified)},
		}
		if m.Emulated {
			facts = append(facts, [2]string{"emulated", "yes: the figures time the emulator"})
		}
		c := column{label: labels[i], values: map[string]string{}}
		for _, f := range facts {
			order = appendNew(order, f[0])
			c.values[f[0]] = f[1]
		}
		cols = append(cols, c)
	}
	return sideBySide("Hosts and kits; shaded rows differ between bundles.", cols, order)
}

// ImagesTable lists every bundle's images.
func ImagesTable(labels []string, commons []*bundle.Common) Table {
	t := Table{Caption: "Images the runs used.", Header: []string{"bundle", "role", "tag", "arch", "size", "binary SHA-256", "runtime"}, Text: 7}
	for i, m := range commons {
		if m == nil {
			continue
		}
		for _, img := range m.Images {
			sum := img.BinarySHA256
			if len(sum) > 16 {
				sum = sum[:16] + "…"
			}
			t.Rows = append(t.Rows, []string{labels[i], img.Role, img.Tag, img.Architecture, units.BytesSize(float64(img.SizeBytes)), sum, img.Runtime})
		}
	}
	return t
}

// ParamsTable sets the bundles' parameters side by side, read from each one's JSON as
// the manifest has it (any experiment's): a row per field, nested objects as
// "limits.api_cpus", lists joined with commas, in the manifest's order.
func ParamsTable(labels []string, params []any) (Table, error) {
	var cols []column
	var order []string
	for i, p := range params {
		body, err := json.Marshal(p)
		if err != nil {
			return Table{}, err
		}
		c := column{label: labels[i], values: map[string]string{}}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := flatten(dec, "", func(k, v string) {
			order = appendNew(order, k)
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 && strings.HasSuffix(k, "bytes") {
				v += " (" + units.BytesSize(float64(n)) + ")"
			}
			c.values[k] = v
		}); err != nil {
			return Table{}, fmt.Errorf("parameters of %s: %w", labels[i], err)
		}
		cols = append(cols, c)
	}
	return sideBySide("Parameters, as each manifest records them; shaded rows differ between bundles.", cols, order), nil
}

// flatten reads one JSON value from dec and calls put for every scalar or list in it.
func flatten(dec *json.Decoder, prefix string, put func(k, v string)) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			empty := true
			for dec.More() {
				empty = false
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if prefix != "" {
					k = prefix + "." + k
				}
				if err := flatten(dec, k, put); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil { // }
				return err
			}
			if empty && prefix != "" {
				put(prefix, "none")
			}
		case '[':
			var items []string
			for dec.More() {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return err
				}
				items = append(items, scalar(raw))
			}
			if _, err := dec.Token(); err != nil { // ]
				return err
			}
			v := strings.Join(items, ", ")
			if len(items) == 0 {
				v = "none"
			}
			put(prefix, v)
		}
	default:
		put(prefix, token(t))
	}
	return nil
}

func token(t json.Token) string {
	switch v := t.(type) {
	case nil:
		return "—"
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case json.Number:
		return v.String()
	case string:
		if v == "" {
			return "—"
		}
		return v
	}
	return fmt.Sprint(t)
}

// scalar writes one JSON list item: a string bare, anything else as JSON.
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func appendNew(xs []string, x string) []string {
	if contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// OtherCoresNote says once, under a table, why a difference of CPU readings shows no
// figure below 0.
const OtherCoresNote = "other cores is the host's busy CPU less every reading the kit took of its own containers and the engine, each taken apart; a difference below 0 is within those readings' noise and shows as 0"

// Clamped writes a difference of readings that cannot be below 0 (other cores: the
// host's CPU less what the kit's own processes used) with decimals, at 0 where the
// readings' noise took it below; "-" where absent.
func Clamped(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(max(v, 0), 'f', decimals, 64)
}
