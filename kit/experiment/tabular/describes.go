package tabular

import "github.com/logbench/logbench/kit/offline/bundle"

// Describes is an Own.Describe that names the data package as every experiment's
// bundle is named, here and nowhere else: a result bundle of experiment, what it holds,
// and what its manifest records (manifestText).
func Describes(experiment, what, manifestText string) func(dp *bundle.DataPackage) {
	return func(dp *bundle.DataPackage) {
		dp.Name, dp.Title = "logbench-"+experiment+"-bundle", "logbench "+experiment+" result bundle"
		dp.Description = "A result bundle of the " + experiment + " experiment: " + what
		dp.Resources[0].Description = manifestText
	}
}
