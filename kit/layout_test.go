package kit_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/logbench/logbench/"

type pkg struct {
	ImportPath   string
	Name         string
	Dir          string
	GoFiles      []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
}

// allImports are a package's imports and those of its tests.
func (p pkg) allImports() []string {
	return append(append(append([]string(nil), p.Imports...), p.TestImports...), p.XTestImports...)
}

// packages lists every package of the module with its imports and transitive deps.
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps=false", "-json=ImportPath,Name,Dir,GoFiles,Imports,TestImports,XTestImports,Deps", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

func rel(path string) string { return strings.TrimPrefix(path, module) }

func under(path, folder string) bool {
	r := rel(path)
	return r == folder || strings.HasPrefix(r, folder+"/")
}

func isStd(path string) bool { return !strings.Contains(strings.SplitN(path, "/", 2)[0], ".") }

// TestLayoutRules keeps the folders honest about where code runs.
func TestLayoutRules(t *testing.T) {
	// The engine client and the telemetry it drags in; github.com/docker/go-units is
	// only a units library.
	engineClient := []string{"github.com/docker/docker/", "go.opentelemetry.io/"}
	linksEngine := func(deps []string) string {
		for _, d := range deps {
			for _, prefix := range engineClient {
				if strings.HasPrefix(d, prefix) {
					return d
				}
			}
		}
		return ""
	}
	for _, p := range packages(t) {
		r := rel(p.ImportPath)
		switch {
		case under(p.ImportPath, "kit/contract"):
			for _, imp := range p.Imports {
				if !isStd(imp) && !under(imp, "kit/contract") {
					t.Errorf("%s imports %s: the contract imports only the standard library", r, imp)
				}
			}
		case under(p.ImportPath, "kit/incontainer"), under(p.ImportPath, "cmd/incontainer"):
			if d := linksEngine(p.Deps); d != "" {
				t.Errorf("%s runs inside a container but links %s", r, d)
			}
			for _, imp := range p.Imports {
				if under(imp, "kit/host") || under(imp, "kit/offline") {
					t.Errorf("%s runs inside a container but imports %s", r, rel(imp))
				}
			}
		case under(p.ImportPath, "kit/offline"), under(p.ImportPath, "kit/experiments"), under(p.ImportPath, "kit/experiment"):
			if d := linksEngine(p.Deps); d != "" {
				t.Errorf("%s works offline but links %s", r, d)
			}
			for _, imp := range p.Imports {
				if under(imp, "kit/host") {
					t.Errorf("%s works offline but imports %s", r, rel(imp))
				}
			}
		}
		if (under(p.ImportPath, "kit/offline") || under(p.ImportPath, "kit/experiments")) && !strings.Contains(r, "/internal/") {
			startsNoGoroutine(t, p)
		}
		if under(p.ImportPath, "kit") {
			for _, imp := range p.Imports {
				if under(imp, "cmd") {
					t.Errorf("%s imports the command %s", r, rel(imp))
				}
			}
			neverPrints(t, p)
		}
	}
}

// startsNoGoroutine fails for an offline package that starts a goroutine: scripts/test
// runs these packages' tests without the race detector, which could find nothing in
// code on one goroutine (test helpers under internal/ are run by the tests alone).
func startsNoGoroutine(t *testing.T, p pkg) {
	inspect(t, p, func(fset *token.FileSet, n ast.Node) {
		if g, ok := n.(*ast.GoStmt); ok {
			t.Errorf("%s: %s starts a goroutine: the offline packages run on one, and scripts/test runs their tests without the race detector; move the concurrency out, or run the package under -race", fset.Position(g.Pos()), rel(p.ImportPath))
		}
	})
}

// inspect calls f on every node of the package's non-test files.
func inspect(t *testing.T, p pkg, f func(*token.FileSet, ast.Node)) {
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			f(fset, n)
			return true
		})
	}
}

// neverPrints fails for a library package that prints or exits: that is for mains.
func neverPrints(t *testing.T, p pkg) {
	forbidden := map[string]bool{
		"fmt.Print": true, "fmt.Printf": true, "fmt.Println": true,
		"os.Exit": true, "log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
		"log.Print": true, "log.Printf": true, "log.Println": true, "log.Panic": true,
		"os.Stdout": true, "os.Stderr": true,
	}
	inspect(t, p, func(fset *token.FileSet, n ast.Node) {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return
		}
		if id, ok := sel.X.(*ast.Ident); ok && forbidden[id.Name+"."+sel.Sel.Name] {
			t.Errorf("%s: %s uses %s.%s: library packages never print or exit", fset.Position(sel.Pos()), rel(p.ImportPath), id.Name, sel.Sel.Name)
		}
	})
}

// incontainerThroughContract are the imports of kit/incontainer by kit/experiments that
// are still allowed, by importer. The line-cost experiment shares its catalogue with its
// measuring program in kit/incontainer/linecost: the ways and libraries, each library's
// line and time stamp, and the regeneration of a trial's expected bytes. The Python and
// Node.js programs' tests read that catalogue from kit/incontainer/linecost/libraries.go,
// so it moves to kit/contract with them, not alone.
var incontainerThroughContract = map[string][]string{
	"kit/experiments/linecost": {"kit/incontainer/linecost"},
}

// TestImportFloors keeps the arrows between the kit's layers pointing one way, tests
// included where a test could carry an arrow back up:
//   - cmd/ names no single experiment: it serves every one through kit/experiments and
//     the capabilities of kit/experiment (its tests may read an experiment's bundle);
//   - an experiment reaches what runs in the containers only through kit/contract,
//     where the documents that cross the boundary are (but incontainerThroughContract);
//   - kit/offline reads bundles for every experiment and names none, nor the engine;
//   - kit/incontainer knows nothing of the host, the bundles or the experiments;
//   - a test helper (a package that imports testing, or is named *test) lives under an
//     internal/ folder, not in the exported library.
func TestImportFloors(t *testing.T) {
	oneExperiment := func(imp string) bool {
		return under(imp, "kit/experiments") && rel(imp) != "kit/experiments" && !strings.Contains(rel(imp), "/internal/")
	}
	usedAllowance := map[string]bool{}
	for _, p := range packages(t) {
		r := rel(p.ImportPath)
		switch {
		case under(p.ImportPath, "cmd"):
			for _, imp := range p.Imports {
				if oneExperiment(imp) {
					t.Errorf("%s imports the experiment %s: commands serve every experiment through kit/experiments", r, rel(imp))
				}
			}
		case under(p.ImportPath, "kit/experiments"):
			for _, imp := range p.allImports() {
				allowed := false
				for importer, imports := range incontainerThroughContract {
					if under(p.ImportPath, importer) && slices.Contains(imports, rel(imp)) {
						allowed, usedAllowance[importer+" "+rel(imp)] = true, true
					}
				}
				if under(imp, "kit/incontainer") && !allowed {
					t.Errorf("%s imports %s: an experiment reaches the containers' programs through kit/contract", r, rel(imp))
				}
			}
		case under(p.ImportPath, "kit/offline"):
			for _, imp := range p.allImports() {
				if under(imp, "kit/experiment") || under(imp, "kit/experiments") || under(imp, "kit/host") {
					t.Errorf("%s imports %s: kit/offline serves every experiment and names none, nor the engine", r, rel(imp))
				}
			}
		case under(p.ImportPath, "kit/incontainer"):
			for _, imp := range p.allImports() {
				for _, layer := range []string{"kit/offline", "kit/host", "kit/experiment", "kit/experiments"} {
					if under(imp, layer) {
						t.Errorf("%s runs inside a container but imports %s", r, rel(imp))
					}
				}
			}
		}
		internal := strings.HasPrefix(r, "internal/") || strings.Contains(r, "/internal/")
		if !internal && p.Name != "main" && (strings.HasSuffix(p.Name, "test") || slices.Contains(p.Imports, "testing")) {
			t.Errorf("%s (package %s) is a test helper in the exported library: move it into the _test.go files of its one user, or under an internal/ folder", r, p.Name)
		}
	}
	for importer, imports := range incontainerThroughContract {
		for _, imp := range imports {
			if !usedAllowance[importer+" "+imp] {
				t.Errorf("%s no longer imports %s: remove it from incontainerThroughContract", importer, imp)
			}
		}
	}
}
