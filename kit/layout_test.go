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
	"strings"
	"testing"
)

const module = "github.com/logbench/logbench/"

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

// packages lists every package of the module with its imports and transitive deps.
func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps=false", "-json=ImportPath,Dir,GoFiles,Imports,Deps", "./...")
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

// neverPrints fails for a library package that prints or exits: that is for mains.
func neverPrints(t *testing.T, p pkg) {
	forbidden := map[string]bool{
		"fmt.Print": true, "fmt.Printf": true, "fmt.Println": true,
		"os.Exit": true, "log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
		"log.Print": true, "log.Printf": true, "log.Println": true, "log.Panic": true,
		"os.Stdout": true, "os.Stderr": true,
	}
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && forbidden[id.Name+"."+sel.Sel.Name] {
				t.Errorf("%s: %s uses %s.%s: library packages never print or exit", fset.Position(sel.Pos()), rel(p.ImportPath), id.Name, sel.Sel.Name)
			}
			return true
		})
	}
}
