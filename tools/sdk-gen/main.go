// Command sdk-gen generates the language SDKs of a Pulumi package from its
// schema with the code generators of github.com/pulumi/pulumi/pkg/v3, without
// the Pulumi CLI or its language hosts.
//
//	sdk-gen --schema schema.json --out sdk [--languages python,nodejs,go]
//
// The schema is validated against the Pulumi package metaschema and bound;
// every diagnostic is printed and any error makes the command exit 1 before
// anything is written. Each language is then generated in memory and written
// to <out>/<language>, which the command owns: the previous content of that
// directory is replaced as a whole (stale files disappear). Files are written
// with fixed permissions, so the same schema gives byte-identical output.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// tool is the generator name written into the header of every generated file.
const tool = "pulumi-blockchain-nodes-sdk-gen"

var allLanguages = []string{"python", "nodejs", "go"}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("sdk-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	schemaPath := fs.String("schema", "", "path of the Pulumi package schema (JSON)")
	outDir := fs.String("out", "", "output directory; each language is written to <out>/<language>")
	languages := fs.String("languages", "python,nodejs", "comma-separated languages to generate: "+strings.Join(allLanguages, ", "))
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: sdk-gen --schema <schema.json> --out <dir> [--languages python,nodejs[,go]]\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 || *schemaPath == "" || *outDir == "" {
		fs.Usage()
		return 2
	}
	langs, err := parseLanguages(*languages)
	if err != nil {
		fmt.Fprintf(stderr, "sdk-gen: %v\n", err)
		return 2
	}

	pkg, ok := loadSchema(*schemaPath, stderr)
	if !ok {
		return 1
	}

	// Generate everything in memory first: a failing generator leaves the
	// output directory untouched.
	generated := make(map[string]map[string][]byte, len(langs))
	for _, lang := range langs {
		files, err := generate(lang, pkg)
		if err != nil {
			fmt.Fprintf(stderr, "sdk-gen: generating the %s SDK: %v\n", lang, err)
			return 1
		}
		generated[lang] = files
	}
	for _, lang := range langs {
		dir := filepath.Join(*outDir, lang)
		if err := replaceDir(dir, generated[lang]); err != nil {
			fmt.Fprintf(stderr, "sdk-gen: writing %s: %v\n", dir, err)
			return 1
		}
		fmt.Fprintf(stderr, "sdk-gen: %s: %d files in %s\n", lang, len(generated[lang]), dir)
	}
	return 0
}

func parseLanguages(s string) ([]string, error) {
	var langs []string
	seen := map[string]bool{}
	for _, l := range strings.Split(s, ",") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		known := false
		for _, k := range allLanguages {
			known = known || k == l
		}
		if !known {
			return nil, fmt.Errorf("unknown language %q (known: %s)", l, strings.Join(allLanguages, ", "))
		}
		if !seen[l] {
			seen[l] = true
			langs = append(langs, l)
		}
	}
	if len(langs) == 0 {
		return nil, errors.New("--languages: no language given")
	}
	return langs, nil
}

// loadSchema reads, validates and binds the schema, printing every diagnostic.
func loadSchema(path string, stderr io.Writer) (*schema.Package, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "sdk-gen: %v\n", err)
		return nil, false
	}
	fail := func(diags hcl.Diagnostics) (*schema.Package, bool) {
		printDiagnostics(stderr, path, diags)
		fmt.Fprintf(stderr, "sdk-gen: %s: invalid schema (%d error(s)); nothing generated\n", path, countErrors(diags))
		return nil, false
	}

	// Validate the document as written. BindSpec validates the spec after a
	// round trip through Go structs, which silently drops misspelled or
	// unknown properties; the raw document keeps them.
	var raw any
	if err := json.Unmarshal(data, &raw); err != nil {
		return fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "not valid JSON: " + err.Error()}})
	}
	if diags := validateRaw(raw); diags.HasErrors() {
		return fail(diags)
	}

	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "cannot decode the package spec: " + err.Error()}})
	}
	pkg, diags, err := schema.BindSpec(spec, refusingLoader{}, schema.ValidationOptions{})
	if err != nil {
		diags = diags.Append(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: err.Error()})
	}
	diags = append(diags, validateLanguageSections(spec.Language)...)
	diags = dedupe(diags)
	if diags.HasErrors() {
		return fail(diags)
	}
	printDiagnostics(stderr, path, diags) // warnings
	return pkg, true
}

func validateRaw(raw any) hcl.Diagnostics {
	err := schema.MetaSchema.Validate(raw)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "metaschema validation: " + err.Error()}}
	}
	var diags hcl.Diagnostics
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		// Leaves carry the precise messages; inner nodes only say "doesn't validate with ...".
		if len(e.Causes) == 0 {
			loc := "#" + e.InstanceLocation
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  loc + ": " + e.Message,
				Detail:   "metaschema rule " + e.KeywordLocation,
			})
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(verr)
	if len(diags) == 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: verr.Error()})
	}
	return diags
}

// languageInfo holds, for each language this tool generates, the type its
// generator decodes `language.<lang>` into.
var languageInfo = map[string]func() any{
	"python": func() any { return &python.PackageInfo{} },
	"nodejs": func() any { return &nodejs.NodePackageInfo{} },
	"go":     func() any { return &gogen.GoPackageInfo{} },
}

// validateLanguageSections decodes language.python, language.nodejs and
// language.go strictly: the generators ignore unknown options, so a misspelled
// one (say "respectSchemaVersio") would otherwise silently fall back to the
// default (a 0.0.0 version).
func validateLanguageSections(sections map[string]schema.RawMessage) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, lang := range allLanguages {
		raw, ok := sections[lang]
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(languageInfo[lang]()); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("#/language/%s: %v", lang, err),
				Detail:   fmt.Sprintf("the options of language.%s are the JSON fields of %T in github.com/pulumi/pulumi/pkg/v3", lang, languageInfo[lang]()),
			})
		}
	}
	return diags
}

func dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		key := fmt.Sprintf("%d\x00%s\x00%s", d.Severity, d.Summary, d.Detail)
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}

func countErrors(diags hcl.Diagnostics) int {
	n := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

func printDiagnostics(w io.Writer, path string, diags hcl.Diagnostics) {
	sorted := append(hcl.Diagnostics(nil), diags...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Severity < sorted[j].Severity })
	for _, d := range sorted {
		sev := "warning"
		if d.Severity == hcl.DiagError {
			sev = "error"
		}
		fmt.Fprintf(w, "%s: %s: %s\n", path, sev, d.Summary)
		if d.Detail != "" {
			fmt.Fprintf(w, "    %s\n", d.Detail)
		}
	}
}

func generate(lang string, pkg *schema.Package) (map[string][]byte, error) {
	switch lang {
	case "python":
		files, err := python.GeneratePackage(tool, pkg, nil, refusingLoader{})
		if err != nil {
			return nil, err
		}
		addPythonRootReadme(files)
		return files, nil
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, refusingLoader{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, nil)
	}
	return nil, fmt.Errorf("unknown language %q", lang)
}

// addPythonRootReadme gives the Python SDK the README.md that its generated
// packaging reads next to itself: pyproject.toml names it (`readme =
// "README.md"`; setuptools refuses to build without it) and setup.py reads it
// for the long description (else a placeholder). The generator only writes one
// inside the package directory; the root copy has the same text.
func addPythonRootReadme(files map[string][]byte) {
	_, pyproject := files["pyproject.toml"]
	_, setup := files["setup.py"]
	if !pyproject && !setup {
		return
	}
	if _, ok := files["README.md"]; ok {
		return
	}
	var inner []string
	for name := range files {
		if dir, base := filepath.Split(filepath.ToSlash(name)); base == "README.md" && strings.Count(dir, "/") == 1 {
			inner = append(inner, name)
		}
	}
	if len(inner) == 1 {
		files["README.md"] = files[inner[0]]
	}
}

// replaceDir writes files into a fresh sibling directory and swaps it in for
// dir, so dir ends up with exactly these files (or is left as it was).
func replaceDir(dir string, files map[string][]byte) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		clean := filepath.Clean(filepath.FromSlash(name))
		if filepath.IsAbs(clean) || clean == "." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) || clean == ".." {
			return fmt.Errorf("generator produced a path outside the output directory: %q", name)
		}
		target := filepath.Join(tmp, clean)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}

	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			_ = os.Rename(old, dir)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// refusingLoader is the loader for a schema that references no other package:
// any attempt to load one fails with a clear error instead of looking for
// plugins on this machine.
type refusingLoader struct{}

func refuse(name string, version *semver.Version) error {
	v := ""
	if version != nil {
		v = "@" + version.String()
	}
	return fmt.Errorf("the schema references the package %s%s; sdk-gen only supports schemas "+
		"that reference no other package", name, v)
}

func (refusingLoader) LoadPackage(pkg string, version *semver.Version) (*schema.Package, error) {
	return nil, refuse(pkg, version)
}

func (refusingLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refuse(d.Name, d.Version)
}

func (refusingLoader) LoadPackageReference(pkg string, version *semver.Version) (schema.PackageReference, error) {
	return nil, refuse(pkg, version)
}

func (refusingLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refuse(d.Name, d.Version)
}
