package debian

import (
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
	url := o.Mirror + "/" + path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("mirror %s: %w", o.Mirror, err)
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("mirror %s unreachable: %w", o.Mirror, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("mirror %s: %s: %s", o.Mirror, path, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("mirror %s: %s: %w", o.Mirror, path, err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("mirror %s: %s is larger than %d bytes", o.Mirror, path, limit)
	}
	return body, nil
}

// fetch returns the mirror's path, which must have the given SHA-256 and size. The
// cache is tried first, and a file read from it is checked again; a download is kept
// in the cache only once it has checked out.
func (o Options) fetch(ctx context.Context, path, sum string, size int64) ([]byte, error) {
	// The digest names the cache file: anything but 64 hex digits could name another.
	if !isSHA256(sum) {
		return nil, fmt.Errorf("mirror %s: %s: the signed index gives %q, not a SHA-256 (64 hex digits)", o.Mirror, path, cut(sum))
	}
	cached := filepath.Join(o.CacheDir, sum)
	if b, err := os.ReadFile(cached); err == nil {
		if sha(b) == sum {
			return b, nil
		}
		os.Remove(cached) // damaged: fetched anew below
	}
	b, err := o.download(ctx, path, size)
	if err != nil {
		return nil, err
	}
	if have := sha(b); have != sum || int64(len(b)) != size {
		return nil, fmt.Errorf("mirror %s: %s does not match the signed index: sha256 %s (%d bytes), want %s (%d bytes)",
			o.Mirror, path, have, len(b), sum, size)
	}
	if err := writeCache(cached, b); err != nil {
		return nil, fmt.Errorf("debian cache: %w", err)
	}
	return b, nil
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

// fetchAll fetches the packages' .deb files, a few at a time, in pkgs' order.
func (o Options) fetchAll(ctx context.Context, pkgs []*entry) ([][]byte, error) {
	const parallel = 4
	out := make([][]byte, len(pkgs))
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
			b, err := o.fetch(ctx, p.Filename, p.SHA256, p.SizeBytes)
			if err != nil {
				errs[i] = fmt.Errorf("package %s %s: %w", p.Name, p.Version, err)
				cancel()
				return
			}
			out[i] = b
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

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
