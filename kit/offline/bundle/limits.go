package bundle

import "path"

// The sizes a bundle reader accepts, declared up front and checked before a file is
// read (an archive's tar header, a folder's file size): verify, compare and report
// hold a bundle's files in memory and parse them whole, at some 20 bytes of memory per
// byte of a table, so these bounds are what keeps them within a few hundred MB on any
// input. The biggest archived bundle is 3.5 MB, its biggest file 2 MB.
const (
	// maxFileBytes bounds a file of rows per request or per sample (requests.csv,
	// timeline.csv, trials.csv...).
	maxFileBytes = 16 << 20
	// maxSmallFileBytes bounds a file of one row per run or condition, a manifest or a
	// data package.
	maxSmallFileBytes = 4 << 20
	// maxSumsBytes bounds SHA256SUMS: a line per file.
	maxSumsBytes = 64 << 10
	// maxBundleBytes bounds all the files of a bundle together.
	maxBundleBytes = 48 << 20
)

// MaxFileBytes is the most a bundle file of this name may hold.
func MaxFileBytes(name string) int64 {
	switch name {
	case SumsFile:
		return maxSumsBytes
	case ManifestFile, "runs.csv", "conditions.csv", DataPackageFile: // every experiment's tables of runs and conditions
		return maxSmallFileBytes
	}
	if path.Ext(name) == ".json" {
		return maxSmallFileBytes
	}
	return maxFileBytes
}
