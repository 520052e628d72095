package images

import (
	"context"
	"fmt"

	"github.com/logbench/logbench/kit/host/bases"
)

// WrkImage is the name a plan gives the wrk image (experiment.Plan.Images).
const WrkImage = "wrk"

// WrkBuilt is the wrk image with the versions its labels record.
type WrkBuilt struct {
	Built
	Versions map[string]string `json:"versions"`
}

// Runtime names wrk as Debian packages it.
func (w WrkBuilt) Runtime() string {
	return fmt.Sprintf("wrk %s (Debian %s)", w.Versions[bases.WrkVersionLabel], w.Versions[bases.WrkDebianVersionLabel])
}

// BuildWrk makes sure the wrk image exists for platform (logbench/wrk:bookworm-<arch>),
// built from Debian packages if the engine lacks it. It is the base itself: nothing of
// the kit's is added. BinarySHA256 is the digest of its root file system.
func (b *Builder) BuildWrk(ctx context.Context, platform string, base bases.Options) (WrkBuilt, error) {
	img, err := base.Ensure(ctx, b.Engine, bases.Wrk, platform, b.Progress)
	if err != nil {
		return WrkBuilt{}, err
	}
	if want := "linux/" + img.Architecture; platform != want {
		return WrkBuilt{}, fmt.Errorf("wrk for %s: the image %s is %s", platform, img.Tag, want)
	}
	if img.Versions[bases.WrkVersionLabel] == "" {
		return WrkBuilt{}, fmt.Errorf("image %s has no %s label: not a logbench wrk image", img.Tag, bases.WrkVersionLabel)
	}
	return WrkBuilt{Built: Built{Role: WrkImage, Image: img.Image, Platform: platform, BinarySHA256: img.Debian.RootfsSHA256, Reused: img.Reused},
		Versions: img.Versions}, nil
}
