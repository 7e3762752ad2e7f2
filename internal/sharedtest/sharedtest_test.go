package sharedtest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/sharedtest"
)

func TestLookupIsRelativeToTheModule(t *testing.T) {
	path, _ := sharedtest.Lookup("othello")
	// From internal/sharedtest the module's root is two up, so the shared
	// folder is three up.
	want := filepath.Join("..", "..", "..", "shared", "testdata", "othello")
	if path != want {
		t.Errorf("Lookup = %q, want %q", path, want)
	}
}

func TestEnvOverridesAndDirSkips(t *testing.T) {
	shared := t.TempDir()
	if err := os.MkdirAll(filepath.Join(shared, "testdata", "geister"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sharedtest.EnvVar, shared)
	if path, ok := sharedtest.Lookup("geister"); !ok {
		t.Errorf("Lookup with %s set: %q not found", sharedtest.EnvVar, path)
	}
	if _, ok := sharedtest.Lookup("pdd"); ok {
		t.Errorf("Lookup found a folder that does not exist")
	}
	skipped := false
	t.Run("absent", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		sharedtest.Dir(t, "pdd")
		t.Error("Dir returned for an absent folder")
	})
	if !skipped {
		t.Error("Dir did not skip")
	}
}

// TestNoTestNamesAnAbsolutePath reads every test file of the module: none
// may open the shared data by a fixed path, absolute or relative, instead of
// through this package, so the suite runs from a clone placed anywhere.
func TestNoTestNamesAnAbsolutePath(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") || strings.Contains(path, "sharedtest") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if strings.Contains(s, "shared/testdata") || strings.HasPrefix(s, "/work/") || s == "shared" {
				t.Errorf("%s: %q: find the shared test data with sharedtest.Dir or Lookup", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
