package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/signature"
	"github.com/logbench/logbench/kit/offline/verify"
)

// maxShownProblems bounds the problems printed per bundle; the count says the rest.
const maxShownProblems = 100

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check a bundle (folder or .tar.gz): every SHA-256, every file, and every figure recomputed from the rows it comes from",
		ArgsUsage: "BUNDLE...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "key", Usage: "an OpenSSH public key (.pub): each bundle must also carry a good signature by it of its name, experiment and SHA256SUMS, in BUNDLE" + signature.Suffix + " beside it (archive --sign writes it); without --key a signature there is said to be present and not checked"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text: print only each bundle's verdict line and its problems (the exit status is the same)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: formatUsage},
		},
		Action: func(c *cli.Context) error {
			escapeOutput(c)
			paths, err := positional(c)
			if err != nil {
				return helpOrErr(err)
			}
			format, err := outputFormat(c.String("format"))
			if err != nil {
				return err
			}
			if len(paths) == 0 {
				return usagef("verify takes one or more bundles (folders or .tar.gz archives)")
			}
			var pub []byte
			if k := c.String("key"); k != "" {
				if pub, err = readSmall(k, "--key"); err != nil {
					return usageError{Msg: err.Error()}
				}
			}
			// Every bundle is checked and reported, whatever became of the ones before.
			failed := 0
			doc := VerifyJSON{Schema: schemaOf("verify"), OK: true, Bundles: []BundleJSON{}}
			for _, path := range paths {
				check := checkBundle(path, pub)
				if !check.ok() {
					failed++
				}
				if format == "json" {
					doc.Bundles = append(doc.Bundles, check.json())
					continue
				}
				check.print(c.App.Writer, c.Bool("quiet"))
			}
			if format == "json" {
				doc.OK = failed == 0
				if err := writeJSON(c.App.Writer, doc); err != nil {
					return err
				}
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d bundles do not verify", failed, len(paths))
			}
			return nil
		},
	}
}

// bundleCheck is one bundle's verification as verify reports it: its files and figures,
// and its signature.
type bundleCheck struct {
	path string
	res  *verify.Result // nil: the bundle could not be read at all (err says why)
	err  error          // the bundle could not be read, or its signature does not hold
	// sig is the signature's state (signature.go): none, unchecked, good or bad; by
	// is the signer and what it signed, when good.
	sig, by string
	sigNote string // the signature's line in the text
}

func (b bundleCheck) ok() bool { return b.res != nil && b.err == nil && b.res.OK() }

// checkBundle verifies the bundle at path, and its signature against pub when given.
func checkBundle(path string, pub []byte) bundleCheck {
	if pub != nil {
		return checkSigned(path, pub)
	}
	res, err := verifyPath(path)
	b := bundleCheck{path: path, res: res, err: err}
	b.sig, b.sigNote = signaturePresent(path)
	return b
}

// print writes the check as text: the verdict line first, then the problems, then the
// notes, the conditions and what weakens them, and the signature; quiet, only the
// verdict and the problems.
func (b bundleCheck) print(w io.Writer, quiet bool) {
	if b.res == nil {
		say(w, "FAILED: %s: %v", b.path, b.err)
		return
	}
	printVerification(w, b.res, quiet)
	if b.sigNote != "" && !quiet {
		say(w, "  signature: %s", b.sigNote)
	}
	if b.err != nil {
		say(w, "FAILED: %s: %v", b.path, b.err)
	}
}

// verifyPath reads and verifies the bundle at path; an error is a bundle that could not
// be read at all (missing, not a bundle, a refused archive).
func verifyPath(path string) (*verify.Result, error) {
	_, res, err := openVerified(path)
	return res, err
}

// openVerified reads the bundle at path and verifies it as the experiment that wrote it
// says.
func openVerified(path string) (experiment.Experiment, *verify.Result, error) {
	files, err := bundle.Open(path)
	if err != nil {
		return nil, nil, err
	}
	exp, err := experiments.Of(files)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	res := exp.Verify(files)
	res.Name = path
	return exp, res, nil
}

// printVerification prints a bundle's verification: its verdict line, its problems
// (at most maxShownProblems), its notes, then one line per condition and what weakens
// the figures; quiet, the verdict and the problems only.
func printVerification(w io.Writer, res *verify.Result, quiet bool) {
	verdict, rest, _ := strings.Cut(res.Summary(), "\n")
	say(w, "%s", verdict)
	for i, p := range res.Problems {
		if i == maxShownProblems {
			say(w, "  … and %d more problems", len(res.Problems)-i)
			break
		}
		say(w, "  %s", p)
	}
	if quiet {
		return
	}
	for _, n := range res.Notes {
		say(w, "  note: %s", n)
	}
	if rest != "" {
		say(w, "%s", rest)
	}
}

// positional returns a command's arguments, taking any flag among them as if it came
// first: urfave/cli stops at the first argument, but `logbench compare a b --published`
// is what people type. --help anywhere shows the command's help and ends it
// (errHelpShown: see helpOrErr).
func positional(c *cli.Context) ([]string, error) {
	args := c.Args().Slice()
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		if a == "--help" || a == "-h" || a == "-help" {
			parent := c
			if l := c.Lineage(); len(l) > 1 {
				parent = l[1]
			}
			if err := cli.ShowCommandHelp(parent, c.Command.Name); err != nil {
				return nil, err
			}
			return nil, errHelpShown
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var def cli.Flag
		for _, f := range c.Command.Flags {
			if slices.Contains(f.Names(), name) {
				def = f
			}
		}
		if def == nil {
			return nil, unknownFlag(c, name)
		}
		if _, isBool := def.(*cli.BoolFlag); isBool && !hasValue {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, usagef("flag needs an argument: %s", a)
			}
			i++
			value = args[i]
		}
		if err := c.Set(name, value); err != nil {
			return nil, badValue(c, name, value)
		}
	}
	return out, nil
}
