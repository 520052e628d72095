package schema

import (
	"github.com/logbench/logbench/kit/offline/verify"
)

// dataPackage checks a fifo-stall bundle's datapackage.json (see CheckDataPackage).
func (v *verifier) dataPackage() {
	verify.CheckDataPackage(v.res, v.files, DataFiles, NewDataPackage(), func(name string) bool { return v.ok[name] })
}
