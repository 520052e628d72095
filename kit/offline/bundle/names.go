package bundle

// SchemaVersion is written into every manifest; readers refuse versions they do not know.
const SchemaVersion = 1

// The files every experiment's bundle has.
const (
	ManifestFile = "manifest.json"
	SumsFile     = "SHA256SUMS"
)

// KitHost is the machine the kit itself ran on (it may differ from the engine's).
type KitHost struct {
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	GoVersion string `json:"go_version"`
}

// Image is one image the runs used.
type Image struct {
	Role         string `json:"role"`
	Tag          string `json:"tag"`
	ID           string `json:"id"`
	Architecture string `json:"architecture"`
	SizeBytes    int64  `json:"size_bytes"`
	BinarySHA256 string `json:"binary_sha256"`
	Runtime      string `json:"runtime"` // the API's language runtime, as it reported itself
	// Pulled is the reference by digest the nodes pulled the image by, from the
	// registry the kit pushed it to (--registry); empty when the node held it already.
	Pulled string `json:"pulled,omitempty"`
}
