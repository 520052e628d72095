package images

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// ForPlans builds what plans name: every Go image always (calibration measures with
// them), and each image on a base (the interpreted APIs, wrk, the syslog receivers) a
// plan names.
type ForPlans struct {
	Builder *Builder
	// Bases say where the bases' Debian packages come from.
	Bases bases.Options
}

// PythonImage is the Python API's image.
const PythonImage = "api-python"

// onBase are the images built on a base the kit makes from Debian's packages, each
// with the runtime it reports for the manifest.
var onBase = map[string]func(b *Builder, ctx context.Context, platform string, o bases.Options) (Built, string, error){
	PythonImage: func(b *Builder, ctx context.Context, platform string, o bases.Options) (Built, string, error) {
		p, err := b.BuildPython(ctx, platform, o)
		return p.Built, p.Runtime(), err
	},
	NodeImage: func(b *Builder, ctx context.Context, platform string, o bases.Options) (Built, string, error) {
		n, err := b.BuildNode(ctx, platform, o)
		return n.Built, n.Runtime(), err
	},
	WrkImage: func(b *Builder, ctx context.Context, platform string, o bases.Options) (Built, string, error) {
		w, err := b.BuildWrk(ctx, platform, o)
		return w.Built, w.Runtime(), err
	},
	RsyslogImage: func(b *Builder, ctx context.Context, platform string, o bases.Options) (Built, string, error) {
		r, err := b.BuildRsyslog(ctx, platform, o)
		return r.Built, r.Runtime(), err
	},
	SyslogNGImage: func(b *Builder, ctx context.Context, platform string, o bases.Options) (Built, string, error) {
		r, err := b.BuildSyslogNG(ctx, platform, o)
		return r.Built, r.Runtime(), err
	},
}

// BaseOf is the base the image name is built on (the interpreted APIs', wrk's and the
// syslog receivers'), for `logbench build --save`: a host with no network then finds the
// base among the loaded images instead of building it from Debian's packages.
func BaseOf(name string) (bases.Base, bool) {
	switch name {
	case PythonImage:
		return bases.Python, true
	case NodeImage:
		return bases.Node, true
	case WrkImage:
		return bases.Wrk, true
	case RsyslogImage:
		return bases.Rsyslog, true
	case SyslogNGImage:
		return bases.SyslogNG, true
	}
	return bases.Base{}, false
}

// Build finds or builds the images names need for platform, and says which in the order
// a manifest lists them: the Go roles, then the images on bases in the order named. A
// name the kit has no image of is an error naming it.
func (f ForPlans) Build(ctx context.Context, platform string, names []string, progress io.Writer) (map[string]string, []bundle.Image, error) {
	built, err := f.Builder.Build(ctx, platform)
	if err != nil {
		return nil, nil, err
	}
	order := append([]string(nil), Roles...)
	runtimes := map[string]string{"api": "go (" + runtime.Version() + " toolchain)"}
	for _, name := range names {
		if _, ok := built[name]; ok {
			continue
		}
		build, ok := onBase[name]
		if !ok {
			return nil, nil, fmt.Errorf("the kit has no image %q", name)
		}
		b, rt, err := build(f.Builder, ctx, platform, f.Bases)
		if err != nil {
			return nil, nil, fmt.Errorf("image %s: %w", name, err)
		}
		built[name], runtimes[name] = b, rt
		order = append(order, name)
	}
	ids := map[string]string{}
	var imgs []bundle.Image
	for _, name := range order {
		b := built[name]
		state := "built"
		if b.Reused {
			state = "unchanged"
		}
		fmt.Fprintf(progress, "image %-10s %s %s (%s, %s)\n", name, b.ID[:19], state, b.Architecture, units.BytesSize(float64(b.SizeBytes)))
		ids[name] = b.ID
		imgs = append(imgs, bundle.Image{Role: name, Tag: b.Tag, ID: b.ID, Architecture: b.Architecture, SizeBytes: b.SizeBytes, BinarySHA256: b.BinarySHA256, Runtime: runtimes[name]})
	}
	return ids, imgs, nil
}
