//go:build ignore

// exported counts the module's exported identifiers and lists the ones no
// other package uses. Run from the module root:
//
//	go run scripts/exported.go          # totals
//	go run scripts/exported.go -unused  # and the identifiers only their own package uses
//
// Counted: in every package but main, the exported top-level functions,
// types, variables and constants, and the exported methods, of non-test
// files (methods of exported types only). An identifier is used outside its package when another package's
// file (test files included, and the package's own external _test
// package) refers to it as pkg.Name; methods are not checked for use.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const module = "github.com/defersim/defersim"

type ident struct{ pkg, name string }

func main() {
	unused := flag.Bool("unused", false, "list exported top-level identifiers no other package uses")
	flag.Parse()
	fset := token.NewFileSet()
	decls := map[ident]bool{} // top-level
	methods := map[string]int{}
	pkgName := map[string]string{}
	used := map[ident]bool{}
	type file struct {
		dir, pkg string
		f        *ast.File
		test     bool
	}
	var files []file
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, c := range f.Comments {
			if slices.ContainsFunc(c.List, func(c *ast.Comment) bool { return strings.HasPrefix(c.Text, "//go:build ignore") }) {
				return nil
			}
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		files = append(files, file{dir, f.Name.Name, f, strings.HasSuffix(path, "_test.go")})
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, fl := range files {
		if fl.test || fl.pkg == "main" {
			continue
		}
		pkgName[fl.dir] = fl.pkg
		for _, d := range fl.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					if recvExported(d.Recv.List[0].Type) {
						methods[fl.dir]++
					}
				} else {
					decls[ident{fl.dir, d.Name.Name}] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							decls[ident{fl.dir, s.Name.Name}] = true
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								decls[ident{fl.dir, n.Name}] = true
							}
						}
					}
				}
			}
		}
	}
	for _, fl := range files {
		aliases := map[string]string{} // local name → package dir
		for _, imp := range fl.f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			rest, ok := strings.CutPrefix(p, module)
			if !ok {
				continue
			}
			dir := strings.TrimPrefix(rest, "/")
			if dir == "" {
				dir = "."
			}
			name := pkgName[dir]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			aliases[name] = dir
		}
		ast.Inspect(fl.f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok {
				if dir, ok := aliases[x.Name]; ok && dir != fl.dir || ok && fl.pkg != pkgName[dir] {
					used[ident{dir, sel.Sel.Name}] = true
				}
			}
			return true
		})
	}
	nm := 0
	for _, n := range methods {
		nm += n
	}
	fmt.Printf("exported: %d top-level identifiers and %d methods, %d in all\n", len(decls), nm, len(decls)+nm)
	var lonely []string
	for id := range decls {
		if !used[id] {
			lonely = append(lonely, id.pkg+"."+id.name)
		}
	}
	sort.Strings(lonely)
	fmt.Printf("exported top-level identifiers no other package uses: %d\n", len(lonely))
	if *unused {
		for _, s := range lonely {
			fmt.Println("  " + s)
		}
	}
}

// recvExported reports whether a method's receiver type is exported.
func recvExported(t ast.Expr) bool {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}
