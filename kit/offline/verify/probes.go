package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Probes checks probes.csv, the speed probe's table that any bundle may hold: listed in
// SHA256SUMS and matching it, parsed strictly, every row a run of the bundle (runs), its
// speeds and drift as bundle.DeriveProbes derives them from its own before and after
// columns, and the manifest's summary of them (common.SpeedProbe) the same. It keeps
// each run's speed relative to the bundle's median in res.Speed, and names in
// res.Weakened the runs whose host drifted, by condition. A bundle without the table
// says that its host's speed was not recorded.
func Probes(res *Result, files map[string][]byte, common *bundle.Common, runs map[string]bool) {
	const file = bundle.ProbeFile
	body, ok := files[file]
	if !ok {
		if common != nil && common.SpeedProbe != nil {
			res.Problem(Problem{File: file, Msg: "missing, though the manifest sums up its speed_probe"})
			return
		}
		res.Weakened = append(res.Weakened, "the host's speed was not recorded (no speed probe): a slower host cannot be told from a slower logger")
		return
	}
	if !listed(res, files, file, body) {
		return
	}
	var rows []bundle.ProbeRow
	lines, ok, _ := Rows(res, files, file, &rows, nil)
	if !ok {
		return
	}
	want, sum := bundle.DeriveProbes(rows, "")
	for i, have := range rows {
		line := lines[i]
		if !runs[have.RunID] {
			res.Problem(Problem{File: file, Line: line, Key: "run " + Short(have.RunID), Msg: "no such run in runs.csv"})
		}
		w := want[i]
		for _, f := range []struct {
			column     string
			have, want float64
		}{
			{"speed_mb_per_s", float64(have.SpeedMBPerS), float64(w.SpeedMBPerS)},
			{"relative_speed", float64(have.Relative), float64(w.Relative)},
		} {
			if !Same(f.have, f.want) {
				res.Problem(Problem{File: file, Line: line, Key: "run " + Short(have.RunID), Column: f.column, Have: Number(f.have), Want: Number(f.want),
					Msg: "recomputed from before_mb_per_s and after_mb_per_s over the bundle"})
			}
		}
		if have.Drifted != w.Drifted {
			res.Problem(Problem{File: file, Line: line, Key: "run " + Short(have.RunID), Column: "drifted", Have: fmt.Sprint(have.Drifted), Want: fmt.Sprint(w.Drifted),
				Msg: fmt.Sprintf("relative_speed more than %g%% off 1", bundle.ProbeDrift*100)})
		}
	}
	if common != nil {
		recorded := common.SpeedProbe
		switch {
		case (recorded == nil) != (sum == nil):
			res.Problem(Problem{File: bundle.ManifestFile, Column: "speed_probe", Msg: "absent or present unlike " + file})
		case sum != nil && (recorded.Runs != sum.Runs || recorded.Drifted != sum.Drifted || !Same(recorded.MedianMBPerS, sum.MedianMBPerS) ||
			!Same(recorded.MinMBPerS, sum.MinMBPerS) || !Same(recorded.MaxMBPerS, sum.MaxMBPerS)):
			res.Problem(Problem{File: bundle.ManifestFile, Column: "speed_probe",
				Have: fmt.Sprintf("%d runs, median %s, drifted %d", recorded.Runs, Number(recorded.MedianMBPerS), recorded.Drifted),
				Want: fmt.Sprintf("%d runs, median %s, drifted %d", sum.Runs, Number(sum.MedianMBPerS), sum.Drifted), Msg: "recomputed from " + file})
		}
	}
	res.Speed = map[string]float64{}
	drifted := map[string]int{}
	for _, r := range want {
		if r.Relative > 0 {
			res.Speed[r.RunID] = float64(r.Relative)
		}
		if r.Drifted {
			drifted[r.Condition]++
		}
	}
	if sum != nil && sum.Drifted > 0 {
		var by []string
		for _, c := range slices.Sorted(maps.Keys(drifted)) {
			by = append(by, fmt.Sprintf("%s %d", c, drifted[c]))
		}
		res.Weakened = append(res.Weakened, fmt.Sprintf("%d runs ran on a host more than %g%% off the bundle's median speed (%s MB/s): %s",
			sum.Drifted, bundle.ProbeDrift*100, Number(sum.MedianMBPerS), strings.Join(by, ", ")))
	}
}

// listed checks that SHA256SUMS lists an optional file and that it matches.
func listed(res *Result, files map[string][]byte, file string, body []byte) bool {
	sums, ok := files[bundle.SumsFile]
	if !ok {
		return false // Checksums said so
	}
	for i, line := range strings.Split(string(sums), "\n") {
		sum, name, ok := parseSumLine(line)
		if !ok || name != file {
			continue
		}
		have := sha256.Sum256(body)
		if h := hex.EncodeToString(have[:]); h != strings.ToLower(sum) {
			res.Problem(Problem{File: file, Column: "SHA-256", Have: h, Want: strings.ToLower(sum), Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, i+1, len(body))})
			return false
		}
		res.Counts.Files++
		return true
	}
	res.Problem(Problem{File: file, Msg: "not listed in " + bundle.SumsFile})
	return false
}
