package debian

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

// maxInRelease bounds the one file read before anything is verified.
const maxInRelease = 16 << 20

// get reads path from the mirror, unchecked: only InRelease, whose signature is checked
// next, is read this way.
func (o Options) get(ctx context.Context, path string) ([]byte, error) {
	body, err := o.download(ctx, path, maxInRelease)
	if err != nil {
		return nil, err
	}
	return body, nil
}

// download reads the mirror's path, at most limit bytes.
func (o Options) download(ctx context.Context, path string, limit int64) ([]byte, error) {
	var b bytes.Buffer
	if _, err := o.downloadTo(ctx, path, &b, limit); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// downloadTo copies the mirror's path to w, at most limit bytes, and returns how many
// it copied.
func (o Options) downloadTo(ctx context.Context, path string, w io.Writer, limit int64) (int64, error) {
	url := o.Mirror + "/" + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, fmt.Errorf("mirror %s: %w", o.Mirror, err)
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("mirror %s unreachable: %w", o.Mirror, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("mirror %s: %s: %s", o.Mirror, path, resp.Status)
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return n, fmt.Errorf("mirror %s: %s: %w", o.Mirror, path, err)
	}
	if n > limit {
		return n, fmt.Errorf("mirror %s: %s is larger than %d bytes", o.Mirror, path, limit)
	}
	return n, nil
}

// fetch makes the cache hold the mirror's path, which must have the given SHA-256 and
// size, and returns the cached file's name. A file already cached is checked again; a
// download is streamed to a temporary file beside it and kept only once it has
// checked out, so that no package is ever held in memory whole.
func (o Options) fetch(ctx context.Context, path, sum string, size int64) (string, error) {
	// The digest names the cache file: anything but 64 hex digits could name another.
	if !isSHA256(sum) {
		return "", fmt.Errorf("mirror %s: %s: the signed index gives %q, not a SHA-256 (64 hex digits)", o.Mirror, path, cut(sum))
	}
	cached := filepath.Join(o.CacheDir, sum)
	if have, n, err := fileSHA256(cached); err == nil {
		if have == sum && n == size {
			return cached, nil
		}
		os.Remove(cached) // damaged: fetched anew below
	}
	if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
		return "", fmt.Errorf("debian cache: %w", err)
	}
	f, err := os.CreateTemp(o.CacheDir, ".part-*")
	if err != nil {
		return "", fmt.Errorf("debian cache: %w", err)
	}
	defer os.Remove(f.Name()) // once renamed, there is nothing left to remove
	h := sha256.New()
	n, err := o.downloadTo(ctx, path, io.MultiWriter(f, h), size)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("debian cache: %w", cerr)
	}
	if err != nil {
		return "", err
	}
	if have := hex.EncodeToString(h.Sum(nil)); have != sum || n != size {
		return "", fmt.Errorf("mirror %s: %s does not match the signed index: sha256 %s (%d bytes), want %s (%d bytes)",
			o.Mirror, path, have, n, sum, size)
	}
	if err := os.Rename(f.Name(), cached); err != nil {
		return "", fmt.Errorf("debian cache: %w", err)
	}
	return cached, nil
}

// fileSHA256 reads the file name through and returns its SHA-256 and size.
func fileSHA256(name string) (string, int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// writeCache writes b to path through a temporary file, so that a reader never sees a
// partial file.
func writeCache(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".part-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// fetchAll fetches the packages' .deb files, a few at a time, and returns the cached
// files' names in pkgs' order.
func (o Options) fetchAll(ctx context.Context, pkgs []*entry) ([]string, error) {
	const parallel = 4
	out := make([]string, len(pkgs))
	errs := make([]error, len(pkgs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, p := range pkgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			name, err := o.fetch(ctx, p.Filename, p.SHA256, p.SizeBytes)
			if err != nil {
				errs[i] = fmt.Errorf("package %s %s: %w", p.Name, p.Version, err)
				cancel()
				return
			}
			out[i] = name
		}()
	}
	wg.Wait()
	// The first failure in pkgs' order, not a cancellation it caused.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}
