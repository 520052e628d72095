//go:build !unix

package regular

// Elsewhere the checks before and after opening have to do.
const (
	nonBlock = 0
	noFollow = 0
)
