package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
)

// The names a plan gives the syslog receivers' images (experiment.Plan.Images).
const (
	RsyslogImage  = "rsyslog"
	SyslogNGImage = "syslog-ng"
)

// The environment a receiver's configuration reads. Port and queue have no default.
const (
	// ReceiverPortEnv is the port on 127.0.0.1 where the receiver takes TCP and UDP syslog.
	ReceiverPortEnv = "LOGBENCH_SYSLOG_PORT"
	// ReceiverQueueEnv bounds the messages the receiver holds in memory.
	ReceiverQueueEnv = "LOGBENCH_QUEUE_MESSAGES"
	// ReceiverFIFOEnv is the FIFO each message's text goes to, ReceiverDefaultFIFO
	// when unset.
	ReceiverFIFOEnv     = "LOGBENCH_FIFO"
	ReceiverDefaultFIFO = "/run/logbench/log.fifo"
)

// receiver is a syslog daemon the kit runs as a log consumer: the image's folder in the
// source tree (its Dockerfile, starting FROM baseTag, and the daemon's configuration),
// and the base with the labels of the daemon's versions.
type receiver struct {
	name, daemon, dir, config string
	base                      bases.Base
	baseTag                   string
	versionLabel, debianLabel string
}

var (
	rsyslogReceiver = receiver{name: RsyslogImage, daemon: "rsyslog", dir: "images/rsyslog", config: "rsyslog.conf",
		base: bases.Rsyslog, baseTag: bases.RsyslogTag,
		versionLabel: bases.RsyslogVersionLabel, debianLabel: bases.RsyslogDebianVersionLabel}
	syslogNGReceiver = receiver{name: SyslogNGImage, daemon: "syslog-ng", dir: "images/syslog-ng", config: "syslog-ng.conf",
		base: bases.SyslogNG, baseTag: bases.SyslogNGTag,
		versionLabel: bases.SyslogNGVersionLabel, debianLabel: bases.SyslogNGDebianVersionLabel}
)

// ReceiverBuilt is a syslog receiver's image and the daemon's versions as its base
// records them. BinarySHA256 is the digest of the image's own files (Dockerfile and
// configuration).
type ReceiverBuilt struct {
	Built
	Daemon        string `json:"daemon"`         // "rsyslog", "syslog-ng"
	Version       string `json:"version"`        // upstream: "8.2302.0"
	DebianVersion string `json:"debian_version"` // "8.2302.0-1+deb12u2"
}

// Runtime names the daemon as Debian packages it: "rsyslog 8.2302.0 (Debian 8.2302.0-1+deb12u2)".
func (r ReceiverBuilt) Runtime() string {
	return fmt.Sprintf("%s %s (Debian %s)", r.Daemon, r.Version, r.DebianVersion)
}

// BuildRsyslog makes sure the rsyslog receiver's image exists for platform, on the
// rsyslog base of that platform (built from Debian packages if the engine lacks it).
func (b *Builder) BuildRsyslog(ctx context.Context, platform string, base bases.Options) (ReceiverBuilt, error) {
	return b.buildReceiver(ctx, platform, base, rsyslogReceiver)
}

// BuildSyslogNG makes sure the syslog-ng receiver's image exists for platform, on the
// syslog-ng base of that platform (built from Debian packages if the engine lacks it).
func (b *Builder) BuildSyslogNG(ctx context.Context, platform string, base bases.Options) (ReceiverBuilt, error) {
	return b.buildReceiver(ctx, platform, base, syslogNGReceiver)
}

func (b *Builder) buildReceiver(ctx context.Context, platform string, o bases.Options, r receiver) (ReceiverBuilt, error) {
	baseImg, err := o.Ensure(ctx, b.Engine, r.base, platform, b.Progress)
	if err != nil {
		return ReceiverBuilt{}, err
	}
	if want := "linux/" + baseImg.Architecture; platform != want {
		return ReceiverBuilt{}, fmt.Errorf("%s for %s: the base image %s is %s", r.name, platform, baseImg.Tag, want)
	}
	version, debianVersion := baseImg.Versions[r.versionLabel], baseImg.Versions[r.debianLabel]
	if version == "" || debianVersion == "" {
		return ReceiverBuilt{}, fmt.Errorf("image %s has no %s label: not a logbench %s base", baseImg.Tag, r.versionLabel, r.daemon)
	}
	// The Dockerfile starts FROM the unsuffixed name: point it at this platform's base.
	if err := b.Engine.Tag(ctx, baseImg.ID, r.baseTag); err != nil {
		return ReceiverBuilt{}, err
	}
	files, sourceSum, err := receiverContext(filepath.Join(b.SourceDir, r.dir), r.config, r.baseTag)
	if err != nil {
		return ReceiverBuilt{}, fmt.Errorf("%s image: %w", r.name, err)
	}
	labels := map[string]string{
		"io.logbench.role":          r.name,
		"io.logbench.source-sha256": sourceSum,
		r.versionLabel:              version,
		r.debianLabel:               debianVersion,
	}
	// The base's ID is an input: a rebuilt base gives a new image.
	img, reused, err := b.ensure(ctx, "logbench/"+r.name, baseImg.ID, engine.BuildSpec{Platform: platform, Files: files, Labels: labels})
	if err != nil {
		return ReceiverBuilt{}, err
	}
	return ReceiverBuilt{
		Built:  Built{Role: r.name, Image: img, Platform: platform, BinarySHA256: sourceSum, Reused: reused},
		Daemon: r.daemon, Version: version, DebianVersion: debianVersion,
	}, nil
}

// receiverContext reads a receiver's build context from dir: every file directly in it
// (the Dockerfile and the configuration, which must be there) and the empty rundir/
// that becomes the run volume's mount point; and the digest of those files. The
// Dockerfile must start FROM its BASE argument, baseTag by default.
func receiverContext(dir, config, baseTag string) (map[string]engine.ContextFile, string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, "", err
	}
	files := map[string]engine.ContextFile{"rundir/": {Dir: true, Mode: 0o755}}
	source := sha256.New()
	for _, e := range entries { // ReadDir sorts by name
		if !e.Type().IsRegular() {
			continue
		}
		body, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, "", err
		}
		files[e.Name()] = engine.ContextFile{Body: body, Mode: 0o644}
		fmt.Fprintf(source, "%s\x00%x\x00", e.Name(), sha256.Sum256(body))
	}
	for _, need := range []string{"Dockerfile", config} {
		if _, ok := files[need]; !ok {
			return nil, "", fmt.Errorf("no %s in %s", need, dir)
		}
	}
	dockerfile := files["Dockerfile"].Body
	if from, base := firstFrom(dockerfile), argDefault(dockerfile, "BASE"); from != "${BASE}" || base != baseTag {
		return nil, "", fmt.Errorf("%s/Dockerfile starts FROM %q with BASE=%q, want FROM ${BASE} with BASE=%q", dir, from, base, baseTag)
	}
	return files, hex.EncodeToString(source.Sum(nil)), nil
}

// argDefault is the default of a Dockerfile's ARG name ("" if it has none).
func argDefault(dockerfile []byte, name string) string {
	for _, line := range strings.Split(string(dockerfile), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 2 && strings.EqualFold(fields[0], "ARG") {
			if k, v, ok := strings.Cut(fields[1], "="); ok && k == name {
				return v
			}
		}
	}
	return ""
}
