package fifostall

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"

	"github.com/logbench/logbench/kit/contract"
)

// ImageOf names the image that serves api.
func ImageOf(api string) string {
	if api == PythonAPI {
		return "api-python"
	}
	return "api"
}

// ReaderRate is the pacing bound of a reader kind in bytes per second (0: none).
func ReaderRate(kind string) (int64, error) {
	switch kind {
	case FastReader:
		return 0, nil
	case SlowReader:
		return contract.SlowReaderBytesPerSec, nil
	}
	return 0, fmt.Errorf("unknown reader %q (known: %s)", kind, strings.Join(Readers, ", "))
}

// ReaderBounds maps every reader kind to its bound, for the manifest.
func ReaderBounds() map[string]int64 {
	bounds := map[string]int64{}
	for _, kind := range Readers {
		bounds[kind], _ = ReaderRate(kind)
	}
	return bounds
}

// Settings are shared by every run. They follow from the parameters a manifest records
// (SettingsOf), so that what runs is what the manifest says ran.
type Settings struct {
	Protocol    contract.RunParams
	Limits      Limits
	MaxLogBytes int64
	// MaxSendLagP99 flags runs whose load generator was later than this against its
	// schedule (p99).
	MaxSendLagP99 time.Duration
	// ClientTopology is SharedClient or SplitClient.
	ClientTopology string
	// ReaderBounds are each reader's bound in bytes per second (0: none).
	ReaderBounds map[string]int64
}

// SettingsOf turns recorded parameters into run settings.
func SettingsOf(p Params) Settings {
	maxRun := time.Duration(p.MaxRunTimeS * float64(time.Second))
	s := Settings{
		Protocol: contract.RunParams{
			Rate:           p.RateRPS,
			Duration:       time.Duration(p.DurationS * float64(time.Second)),
			WarmupCount:    p.WarmupRequests,
			RequestTimeout: maxRun,
			MaxRunTime:     maxRun,
		},
		Limits:         p.Limits,
		MaxLogBytes:    p.MaxLogBytes,
		MaxSendLagP99:  time.Duration(p.MaxSendLagP99Ms * 1e6),
		ClientTopology: TopologyOf(p),
		ReaderBounds:   p.ReaderBounds,
	}
	if s.ReaderBounds == nil { // parameters made by hand, not read from a manifest
		s.ReaderBounds = ReaderBounds()
	}
	return s
}

// DefaultParams are the parameters of every command that performs runs of this
// experiment before any flag, on the command's own API: every mode and reader, the
// article's load and limits.
func DefaultParams(api string) *Params {
	return &Params{
		APIs: []string{api}, Modes: contract.LogModeNames(), Readers: slices.Clone(Readers), Rounds: 1, RateRPS: 20, DurationS: 8, WarmupRequests: 2,
		ReaderBounds: ReaderBounds(), ReadBytes: contract.ReaderReadBytes, QueueCapacity: contract.QueueCapacity,
		MaxRunTimeS: 120, MaxLogBytes: 256 << 20, MaxSendLagP99Ms: DefaultMaxSendLagP99Ms, ClientTopology: SharedClient,
		Limits: Limits{Limits: experiment.Limits{APICPUs: 0.25, APIMemoryBytes: 128 << 20, LoadgenCPUs: 0.25, LoadgenMemoryBytes: 256 << 20, PidsLimit: 128},
			ReaderCPUs: 0.25, ReaderMemoryBytes: 256 << 20},
	}
}

// TopologyOf reads a manifest's client topology; a bundle written before the kit
// offered the shared one has none, and ran split.
func TopologyOf(p Params) string {
	if p.ClientTopology == "" {
		return SplitClient
	}
	return p.ClientTopology
}
