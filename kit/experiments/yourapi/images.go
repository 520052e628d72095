package yourapi

import "github.com/logbench/logbench/kit/experiment"

var _ experiment.Imager = Experiment{}

// ImagesFor names the kit's own images: the service's is the user's, which the engine
// must already have, so there is no API to choose.
func (Experiment) ImagesFor(api string) ([]string, error) {
	if api != "" && api != "all" {
		return nil, usagef("--api %s: %s runs your service's image (reproduce --image); the kit builds only its load generator", api, Name)
	}
	return (&Plan{}).Images(), nil
}
