package bases

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/host/debian"
)

func TestUpstream(t *testing.T) {
	for in, want := range map[string]string{
		"18.20.4+dfsg-1~deb12u2":            "18.20.4",
		"3.11.2-6+deb12u8":                  "3.11.2",
		"1:4.4.33-2":                        "4.4.33",
		"4.18.2+~cs8.4.10-2":                "4.18.2",
		"1.10.0+~1.0.2-1":                   "1.10.0",
		"10.0.0":                            "10.0.0",
		"5.15.0+dfsg1+~cs20.10.9.3-1+deb12": "5.15.0",
	} {
		if have := Upstream(in); have != want {
			t.Errorf("Upstream(%q) = %q, want %q", in, have, want)
		}
	}
}

func TestTagsArePerPlatform(t *testing.T) {
	for platform, want := range map[string]string{
		"linux/amd64": "logbench/python-base:bookworm-amd64-" + Python.packagesDigest(),
		"linux/arm64": "logbench/python-base:bookworm-arm64-" + Python.packagesDigest(),
	} {
		if have, err := Python.Tag(platform); err != nil || have != want {
			t.Errorf("Tag(%s) = %q, %v", platform, have, err)
		}
	}
	if have, _ := Node.Tag("linux/arm64"); have != "logbench/node-base:bookworm-arm64-"+Node.packagesDigest() || Node.packagesDigest() == Python.packagesDigest() {
		t.Errorf("node: %s", have)
	}
}

func TestLabelsReadBack(t *testing.T) {
	res := debian.Result{Mirror: debian.DefaultMirror, Suite: "bookworm", Arch: "arm64",
		ReleaseDate: time.Date(2026, 7, 11, 10, 16, 37, 0, time.UTC), InReleaseSHA256: "ab", RootfsSHA256: "cd",
		Packages: []debian.Package{{Name: "node-express", Version: "4.18.2+~cs8.4.10-2", Architecture: "arm64"}, {Name: "nodejs", Version: "18.20.4+dfsg-1~deb12u2", Architecture: "arm64"}, {Name: "node-morgan", Version: "1.10.0+~1.0.2-1", Architecture: "arm64"}}}
	versions, err := Node.labels(res)
	if err != nil {
		t.Fatal(err)
	}
	labels := Labels(res)
	for k, v := range versions {
		labels[k] = v
	}
	have, haveVersions := fromLabels(labels)
	if d := cmp.Diff(res, have); d != "" {
		t.Errorf("result (-want +have):\n%s", d)
	}
	want := map[string]string{
		NodeVersionLabel: "18.20.4", NodeDebianVersionLabel: "18.20.4+dfsg-1~deb12u2",
		ExpressVersionLabel: "4.18.2", ExpressDebianVersionLabel: "4.18.2+~cs8.4.10-2",
		MorganVersionLabel: "1.10.0", MorganDebianVersionLabel: "1.10.0+~1.0.2-1",
	}
	if d := cmp.Diff(want, haveVersions); d != "" {
		t.Errorf("versions (-want +have):\n%s", d)
	}
	if _, err := Python.labels(res); err == nil {
		t.Error("a base without python3.x passed as the Python base")
	}
}

func TestReceiverBasesRecordTheirDaemon(t *testing.T) {
	res := debian.Result{Packages: []debian.Package{
		{Name: "rsyslog", Version: "8.2302.0-1+deb12u1"}, {Name: "syslog-ng-core", Version: "3.38.1-5+deb12u1"}}}
	for base, want := range map[*Base]map[string]string{
		&Rsyslog:  {RsyslogVersionLabel: "8.2302.0", RsyslogDebianVersionLabel: "8.2302.0-1+deb12u1"},
		&SyslogNG: {SyslogNGVersionLabel: "3.38.1", SyslogNGDebianVersionLabel: "3.38.1-5+deb12u1"},
	} {
		have, err := base.labels(res)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, have); d != "" {
			t.Errorf("%s (-want +have):\n%s", base.Repository, d)
		}
		if _, err := base.labels(debian.Result{}); err == nil {
			t.Errorf("%s: a base without its daemon passed", base.Repository)
		}
		if tag, _ := base.Tag("linux/amd64"); !strings.HasPrefix(tag, base.Repository+":bookworm-amd64-") {
			t.Errorf("%s: tag %s", base.Repository, tag)
		}
	}
	if !strings.HasPrefix(RsyslogTag, Rsyslog.Repository+":") || !strings.HasPrefix(SyslogNGTag, SyslogNG.Repository+":") {
		t.Errorf("the Dockerfiles' base names %s, %s are not the bases' repositories", RsyslogTag, SyslogNGTag)
	}
}
