package main

import (
	"errors"
	"fmt"
	"io"

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

// signSums signs a bundle's SHA256SUMS with the private key in keyFile (archive --sign).
func signSums(files *bundle.Files, keyFile string) ([]byte, error) {
	key, err := readSmall(keyFile, "--sign")
	if err != nil {
		return nil, err
	}
	sums, ok := files.Data[bundle.SumsFile]
	if !ok {
		return nil, errors.New("the bundle has no " + bundle.SumsFile + " to sign")
	}
	sig, err := signature.Sign(sums, key)
	if err != nil {
		return nil, fmt.Errorf("--sign %s: %w", keyFile, err)
	}
	return sig, nil
}

// verifySigned verifies the bundle at path, then checks its signature file (beside it:
// signature.PathFor) over its SHA256SUMS against the public key pub. The signature is
// checked whatever the files say, and a bad or missing one is a failure of the bundle.
func verifySigned(path string, pub []byte) (*verify.Result, signature.Signer, error) {
	files, err := bundle.Open(path)
	if err != nil {
		return nil, signature.Signer{}, err
	}
	exp, err := experiments.Of(files)
	if err != nil {
		return nil, signature.Signer{}, fmt.Errorf("%s: %w", path, err)
	}
	res := exp.Verify(files)
	res.Name = path
	sigPath := signature.PathFor(path)
	sig, err := readSmall(sigPath, "signature")
	if err != nil {
		return res, signature.Signer{}, fmt.Errorf("no signature read (%w): --key asks for one beside the bundle", err)
	}
	by, err := signature.Check(files.Data[bundle.SumsFile], sig, pub)
	if err != nil {
		return res, signature.Signer{}, fmt.Errorf("signature %s: %w", sigPath, err)
	}
	return res, by, nil
}

// verifyWithKey is verify --key for one bundle: the files, then the signature. It says
// whether both hold.
func verifyWithKey(w io.Writer, path string, pub []byte) bool {
	res, by, err := verifySigned(path, pub)
	if res == nil {
		say(w, "FAILED: %s: %v", path, err)
		return false
	}
	if err != nil {
		printVerification(w, path, res)
		say(w, "FAILED: %s: %v", path, err)
		return false
	}
	say(w, "  signature: good, by %s over %s (namespace %s)", by, bundle.SumsFile, signature.Namespace)
	printVerification(w, path, res)
	return res.OK()
}
