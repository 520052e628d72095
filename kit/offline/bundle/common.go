package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// Common is the part of manifest.json every experiment's bundle has: which experiment
// and kit wrote it, on which engine, with which images, and how far its matrix got.
type Common struct {
	SchemaVersion int `json:"schema_version"`
	// Experiment names the experiment (kit/experiments); a bundle written before the
	// kit had several has none.
	Experiment string `json:"experiment,omitempty"`
	KitVersion string `json:"kit_version"`
	// KitCommit is the source tree's git commit the images were built from, with
	// "+dirty" when it had uncommitted changes; empty when it is not a git checkout.
	KitCommit     string               `json:"kit_commit"`
	Command       string               `json:"command"`
	CreatedUTC    time.Time            `json:"created_utc"`
	FinishedUTC   time.Time            `json:"finished_utc"`
	Engine        contract.EngineFacts `json:"engine"`
	KitHost       KitHost              `json:"kit_host"`
	Images        []Image              `json:"images"`
	RunsPlanned   int                  `json:"runs_planned"`
	RunsCompleted int                  `json:"runs_completed"`
	RunsVerified  int                  `json:"runs_verified"`
	// RunsSuperseded counts the runs of runs_completed that a later attempt replaced;
	// the matrix is complete when the others number runs_planned.
	RunsSuperseded int  `json:"runs_superseded,omitempty"`
	Complete       bool `json:"complete"`
	// Interrupted says the last invocation was stopped (SIGINT, SIGTERM) before its end.
	Interrupted bool `json:"interrupted"`
	// EngineContext and EngineEndpoint name the engine as it was chosen: the docker
	// context ("default" for DOCKER_HOST or the local socket) and the address dialled.
	// A bundle written before the kit chose engines by context has neither.
	EngineContext  string `json:"engine_context,omitempty"`
	EngineEndpoint string `json:"engine_endpoint,omitempty"`
	// Platform is the images' platform ("linux/arm64"); Emulated says the engine ran
	// them under emulation (qemu) because its own platform is another: the figures then
	// time the emulator, and are not a measurement of that platform.
	Platform string `json:"platform,omitempty"`
	Emulated bool   `json:"emulated,omitempty"`
	// SpeedProbe is the speed probe's spread over the runs (probes.csv); absent when
	// the probe was off, or in a bundle written before the kit had it.
	SpeedProbe *ProbeSummary `json:"speed_probe,omitempty"`
	// Precision says why reproduce --precision stopped adding rounds; absent from a
	// bundle of a fixed number of rounds.
	Precision *Precision `json:"precision,omitempty"`
}

// Why a reproduction with --precision stopped adding rounds (Precision.Stopped).
const (
	// Reached: every headline figure's 95% interval is within the target.
	Reached = "reached"
	// MaxRounds: the last round allowed ended with an interval still wider.
	MaxRounds = "max-rounds"
	// Interrupted: the rounds stopped before the rule did (a signal, a crash, a run
	// that stopped the matrix), or have not stopped yet; --resume continues them.
	Interrupted = "interrupted"
)

// Precision is the record of reproduce --precision: rounds are added, one at a time
// after MinRounds, until every headline figure's 95% interval has a half-width of at
// most Target times its value, or MaxRounds are done. The manifest's parameters hold
// the rounds planned so far, as for any bundle.
type Precision struct {
	// Target is the widest half-width allowed, a fraction of the figure's value: 0.02.
	Target    float64 `json:"target"`
	MinRounds int     `json:"min_rounds"`
	MaxRounds int     `json:"max_rounds"`
	// Rounds are the rounds the rule last judged (all of their runs done); 0 before
	// the first judgement.
	Rounds  int    `json:"rounds"`
	Stopped string `json:"stopped"`
	// Widest is the headline figure with the widest interval after Rounds, relative to
	// its value; absent before the first judgement, or when no headline figure had a
	// run.
	Widest *Widest `json:"widest,omitempty"`
}

// Widest is a headline figure with its interval's half-width: the one the rule waits
// for.
type Widest struct {
	Metric    string `json:"metric"`
	Condition string `json:"condition"`
	Unit      string `json:"unit"`
	Runs      int    `json:"runs"`
	// Value is the figure, HalfWidth its 95% interval's half-width, Relative the one
	// over the other's magnitude; each null when the runs do not give it (no run, one
	// run, a value of 0 with a spread).
	Value     *float64 `json:"value"`
	HalfWidth *float64 `json:"half_width"`
	Relative  *float64 `json:"relative"`
}

// ExperimentOf reads which experiment wrote a manifest: "" for a manifest written
// before the kit named its experiments (the registry, kit/experiments, knows whose).
// It reads as strictly as verify does (see DecodeStrict), but for the fields of the
// experiment's own, which it does not know: which experiment a manifest names must not
// depend on the reader.
func ExperimentOf(manifest []byte) (string, error) {
	if err := checkJSON(manifest, reflect.TypeFor[Common](), true); err != nil {
		return "", fmt.Errorf("%s: %w", ManifestFile, err)
	}
	var c Common
	if err := json.Unmarshal(manifest, &c); err != nil {
		return "", fmt.Errorf("%s: %w", ManifestFile, err)
	}
	return c.Experiment, nil
}

// WriteFiles writes a bundle's files to dir, every file replaced atomically and
// SHA256SUMS last, so that a bundle saved after each run is always complete and
// verifiable.
func WriteFiles(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, body := range files {
		if err := writeAtomic(filepath.Join(dir, name), body); err != nil {
			return err
		}
	}
	return writeAtomic(filepath.Join(dir, SumsFile), sums(files))
}

// Encode gives a bundle's files as every experiment writes them: each CSV table (file
// name -> pointer to a slice of rows) with its header even when it has no row, the
// manifest indented and ending in a newline, and the data package that describes them.
func Encode(manifest any, tables map[string]any, dataPackage DataPackage) (map[string][]byte, error) {
	files := map[string][]byte{}
	for name, rows := range tables {
		body, err := marshalCSV(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		files[name] = body
	}
	body, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, err
	}
	files[ManifestFile] = append(body, '\n')
	files[DataPackageFile] = dataPackage.JSON()
	return files, nil
}
