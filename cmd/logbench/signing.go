package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/regular"
	"github.com/logbench/logbench/kit/offline/signature"
	"github.com/logbench/logbench/kit/offline/verify"
)

// maxKeyFileBytes bounds a key or signature file read: real ones are a few KiB.
const maxKeyFileBytes = 64 << 10

// readSmall reads a key or signature file, refusing anything that cannot be one: more
// than maxKeyFileBytes, or no regular file (a FIFO, a device, a link to one), which is
// refused without being opened for reading.
func readSmall(path, what string) ([]byte, error) {
	body, err := regular.ReadFile(path, maxKeyFileBytes, regular.FollowLinks)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return body, nil
}

// subjectOf is what a signature of the bundle covers: its name, its experiment and its
// SHA256SUMS.
func subjectOf(files *bundle.Files, exp experiment.Experiment) (signature.Subject, error) {
	sums, ok := files.Data[bundle.SumsFile]
	if !ok {
		return signature.Subject{}, errors.New("the bundle has no " + bundle.SumsFile)
	}
	return signature.Subject{Name: files.Name, Experiment: exp.Info().Name, Sums: sums}, nil
}

// signBundle signs a bundle (its name, experiment and SHA256SUMS) with the private key
// in keyFile (archive --sign).
func signBundle(files *bundle.Files, exp experiment.Experiment, keyFile string) ([]byte, error) {
	key, err := readSmall(keyFile, "--sign")
	if err != nil {
		return nil, err
	}
	subject, err := subjectOf(files, exp)
	if err != nil {
		return nil, fmt.Errorf("--sign: %w", err)
	}
	sig, err := signature.Sign(subject, key)
	if err != nil {
		return nil, fmt.Errorf("--sign %s: %w", keyFile, err)
	}
	return sig, nil
}

// verifySigned verifies the bundle at path, then checks its signature file (beside it:
// signature.PathFor) of its name, experiment and SHA256SUMS against the public key pub.
// The signature is checked whatever the files say, and a bad or missing one is a
// failure of the bundle.
func verifySigned(path string, pub []byte) (*verify.Result, signature.Subject, signature.Signer, error) {
	var subject signature.Subject
	files, err := bundle.Open(path)
	if err != nil {
		return nil, subject, signature.Signer{}, err
	}
	exp, err := experiments.Of(files)
	if err != nil {
		return nil, subject, signature.Signer{}, fmt.Errorf("%s: %w", path, err)
	}
	res := exp.Verify(files)
	res.Name = path
	sigPath := signature.PathFor(path)
	sig, err := readSmall(sigPath, "signature")
	if err != nil {
		return res, subject, signature.Signer{}, fmt.Errorf("no signature read (%w): --key asks for one beside the bundle", err)
	}
	if subject, err = subjectOf(files, exp); err != nil {
		return res, subject, signature.Signer{}, fmt.Errorf("signature %s: %w", sigPath, err)
	}
	by, err := signature.Check(subject, sig, pub)
	if err != nil {
		return res, subject, signature.Signer{}, fmt.Errorf("signature %s: %w", sigPath, err)
	}
	return res, subject, by, nil
}

// checkSigned is verify --key for one bundle: the files, then the signature, which
// must hold as well.
func checkSigned(path string, pub []byte) bundleCheck {
	res, subject, by, err := verifySigned(path, pub)
	b := bundleCheck{path: path, res: res, err: err, sig: "bad"}
	if res != nil && err == nil {
		b.sig, b.by = "good", fmt.Sprintf("%s, of %s and its %s", by, subject, bundle.SumsFile)
		b.sigNote = "good, by " + b.by + ": it proves that this key's holder signed these files under this name, not that what they record was measured honestly"
	}
	return b
}

// signaturePresent says, for verify without --key, whether the bundle at path has a
// signature beside it, which nothing has checked: its state (none or unchecked) and its
// line in the text. The file is not opened.
func signaturePresent(path string) (state, note string) {
	sigPath := signature.PathFor(path)
	info, err := os.Lstat(sigPath)
	switch {
	case err != nil:
		return "none", ""
	case info.Mode().IsRegular():
		return "unchecked", fmt.Sprintf("present (%s), not checked: give --key with the signer's public key", sigPath)
	}
	return "unchecked", fmt.Sprintf("%s is not a regular file, and was not read", sigPath)
}
