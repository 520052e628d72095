package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/archive"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/signature"
)

func archiveCommand() *cli.Command {
	return &cli.Command{
		Name:      "archive",
		Usage:     "verify a bundle folder, then pack it as a deterministic BUNDLE.tar.gz beside it",
		ArgsUsage: "BUNDLE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "the .tar.gz archive to write, which must not exist and not be inside a bundle folder (default: BUNDLE.tar.gz beside the folder)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: formatUsage},
			&cli.StringFlag{Name: "sign", Usage: "an OpenSSH private key file (no passphrase): also write a detached SSH signature of the bundle (its folder's name, its experiment and its SHA256SUMS), NAME" + signature.Suffix + " beside the archive (verify --key checks it; so does ssh-keygen -Y verify -n " + signature.Namespace + ")"},
		},
		Action: func(c *cli.Context) error {
			escapeOutput(c)
			args, err := positional(c)
			if err != nil {
				return helpOrErr(err)
			}
			format, err := outputFormat(c.String("format"))
			if err != nil {
				return err
			}
			if len(args) != 1 {
				return usagef("archive takes one bundle folder, got %d arguments", len(args))
			}
			dir := filepath.Clean(args[0])
			if bundle.IsArchive(dir) {
				return usagef("%s is already an archive; archive takes a bundle folder", dir)
			}
			out := c.String("out")
			if out == "" {
				out = dir + ".tar.gz"
			}
			if err := checkOutput(out, ".tar.gz", false, args); err != nil {
				return err
			}
			files, err := bundle.Open(dir)
			if err != nil {
				return err
			}
			exp, err := experiments.Of(files)
			if err != nil {
				return fmt.Errorf("%s: %w", dir, err)
			}
			res := exp.Verify(files)
			res.Name = dir
			doc := ArchiveJSON{Schema: schemaOf("archive"), Experiment: exp.Info().Name, Verification: verificationJSON(dir, res)}
			if !res.OK() {
				if format == "json" {
					if err := writeJSON(c.App.Writer, doc); err != nil {
						return err
					}
				} else {
					printVerification(c.App.Writer, res, false)
				}
				return fmt.Errorf("%s does not verify (%d problems): no archive written", dir, len(res.Problems))
			}
			var m bundle.Common
			if err := json.Unmarshal(files.Data[bundle.ManifestFile], &m); err != nil {
				return err
			}
			mtime := m.FinishedUTC
			if mtime.IsZero() {
				mtime = m.CreatedUTC
			}
			body, err := files.Archive(exp.Info().Layout, mtime)
			if err != nil {
				return err
			}
			// Read it back as any reader would, before it exists on disk.
			back, err := archiveMatches(body, files)
			if err != nil {
				return fmt.Errorf("the archive does not read back: %w", err)
			}
			var sig []byte
			sigPath := signature.PathFor(out)
			if key := c.String("sign"); key != "" {
				if err := checkOutput(sigPath, signature.Suffix, false, args); err != nil {
					return err
				}
				if sig, err = signBundle(files, exp, key); err != nil {
					return err
				}
			}
			if err := writeOutput(out, body, false); err != nil {
				return err
			}
			if sig != nil {
				if err := writeOutput(sigPath, sig, false); err != nil {
					return err
				}
				doc.Signature = &sigPath
			}
			sum := sha256.Sum256(body)
			doc.Archive, doc.Folder, doc.Files, doc.Bytes, doc.SHA256 = &out, files.Name, back, len(body), hex.EncodeToString(sum[:])
			if format == "json" {
				return writeJSON(c.App.Writer, doc)
			}
			if sig != nil {
				defer say(c.App.Writer, "signature: %s (of bundle %q of %s and its %s, namespace %s)", sigPath, files.Name, exp.Info().Name, bundle.SumsFile, signature.Namespace)
			}
			say(c.App.Writer, "%s", res.Summary())
			say(c.App.Writer, "archive: %s (%d files in %s/, %d bytes, sha256 %s)", out, back, files.Name, len(body), hex.EncodeToString(sum[:]))
			return nil
		},
	}
}

// archiveMatches reads an archive back and checks it holds exactly the bundle's files.
func archiveMatches(body []byte, files *bundle.Files) (int, error) {
	folder, got, err := archive.Read(bytes.NewReader(body), archive.DefaultLimits)
	if err != nil {
		return 0, err
	}
	if folder != files.Name || len(got) != len(files.Data) {
		return 0, fmt.Errorf("folder %q with %d files, want %q with %d", folder, len(got), files.Name, len(files.Data))
	}
	for _, f := range got {
		if !bytes.Equal(f.Body, files.Data[f.Name]) {
			return 0, fmt.Errorf("%s differs", f.Name)
		}
	}
	return len(got), nil
}
