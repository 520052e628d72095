//go:build !unix

package bundle

// noFollow: elsewhere the folder listing's own check has to do.
const noFollow = 0
