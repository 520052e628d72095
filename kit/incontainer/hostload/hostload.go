// Package hostload samples how busy the whole Docker host is while a run goes on: CPU
// utilisation, the 1-minute load average, the CPU time stolen by the hypervisor, and
// the kernel's CPU pressure (PSI), from /proc (which a container sees as the host's).
// A run on a noisy host is still data, but the bundle says how noisy.
package hostload

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/procfs"

	"github.com/logbench/logbench/kit/contract"
)

// Sampler reads /proc.
type Sampler struct {
	fs        procfs.FS
	lastBusy  float64
	lastAll   float64
	lastSteal float64
	// noPSI is set once the kernel has shown it has no /proc/pressure/cpu, so that
	// later samples do not try again.
	noPSI bool
}

// NewSampler opens the proc file system at mount ("/proc").
func NewSampler(mount string) (*Sampler, error) {
	fs, err := procfs.NewFS(mount)
	if err != nil {
		return nil, fmt.Errorf("host load: %w", err)
	}
	s := &Sampler{fs: fs}
	_, err = s.Sample() // the first utilisation needs a previous reading
	return s, err
}

// Sample takes one reading.
func (s *Sampler) Sample() (contract.HostSample, error) {
	now := time.Now().UnixNano()
	st, err := s.fs.Stat()
	if err != nil {
		return contract.HostSample{}, fmt.Errorf("host load: %w", err)
	}
	load, err := s.fs.LoadAvg()
	if err != nil {
		return contract.HostSample{}, fmt.Errorf("host load: %w", err)
	}
	c := st.CPUTotal
	idle := c.Idle + c.Iowait
	all := idle + c.User + c.Nice + c.System + c.IRQ + c.SoftIRQ + c.Steal
	out := contract.HostSample{UnixNano: now, Load1: load.Load1}
	out.CPUBusyPct = Utilisation(s.lastAll, s.lastAll-s.lastBusy, all, idle)
	out.StealPct = Share(s.lastAll, s.lastSteal, all, c.Steal)
	s.lastBusy, s.lastAll, s.lastSteal = all-idle, all, c.Steal
	if !s.noPSI {
		psi, err := s.fs.PSIStatsForResource("cpu")
		switch {
		case err != nil || psi.Some == nil:
			s.noPSI = true // no PSI in this kernel (or it is off): the samples say so by its absence
		default:
			out.CPUPressure = &contract.PSISomeLine{Avg10: psi.Some.Avg10, TotalUs: psi.Some.Total}
		}
	}
	return out, nil
}

// Utilisation is the busy share, in percent, between two readings of total and idle
// CPU time.
func Utilisation(prevAll, prevIdle, all, idle float64) float64 {
	dAll := all - prevAll
	if dAll <= 0 {
		return 0
	}
	// The counters are sums of floating-point seconds: round-off can leave a hair
	// outside 0..100.
	return min(100, max(0, 100*(dAll-(idle-prevIdle))/dAll))
}

// Share is the share, in percent, that one counter (steal) grew of the total CPU time
// between two readings.
func Share(prevAll, prevPart, all, part float64) float64 {
	dAll := all - prevAll
	if dAll <= 0 {
		return 0
	}
	return min(100, max(0, 100*(part-prevPart)/dAll))
}

// Every samples every interval until ctx ends, then returns the samples.
func (s *Sampler) Every(ctx context.Context, interval time.Duration) []contract.HostSample {
	var out []contract.HostSample
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if last, err := s.Sample(); err == nil {
				out = append(out, last)
			}
			return out
		case <-t.C:
			if sm, err := s.Sample(); err == nil {
				out = append(out, sm)
			}
		}
	}
}
