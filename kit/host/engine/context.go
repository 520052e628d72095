package engine

import (
	"fmt"
	"path/filepath"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	dockerconfig "github.com/docker/cli/cli/config"
	clicontext "github.com/docker/cli/cli/context"
	"github.com/docker/cli/cli/context/docker"
	"github.com/docker/cli/cli/context/store"
	"github.com/docker/cli/opts"
)

// DefaultContext is the docker CLI's name for the engine of DOCKER_HOST, or of the
// default socket when DOCKER_HOST is unset.
const DefaultContext = "default"

// Choice is what chooses the engine, read the way the docker CLI reads it (see
// resolveContextName in github.com/docker/cli/cli/command): --context, then
// DOCKER_HOST, then DOCKER_CONTEXT, then the config's currentContext, then the
// default socket. The store and the config are read with the docker CLI's own code, so
// `docker context use` and `docker context create` mean the same to the kit.
type Choice struct {
	// Context is the --context flag ("" when not given).
	Context string
	// Getenv reads DOCKER_HOST, DOCKER_CONTEXT, DOCKER_CONFIG, DOCKER_TLS_VERIFY and
	// DOCKER_CERT_PATH; nil reads none (os.Getenv in a command).
	Getenv func(string) string
	// Home is the user's home folder, holding .docker when DOCKER_CONFIG is unset.
	Home string
}

// Endpoint is a chosen engine: the context's name and the address the client dials.
type Endpoint struct {
	// Context is the context's name; DefaultContext for DOCKER_HOST or the socket.
	Context string `json:"context"`
	// Host is the engine's address ("unix:///var/run/docker.sock", "ssh://pi@pi5").
	Host string `json:"host"`
	// ChosenBy says what chose it: "--context", "DOCKER_HOST", "DOCKER_CONTEXT",
	// "currentContext in <config.json>", "--engine" or "the default socket".
	ChosenBy string `json:"chosen_by"`

	endpoint docker.Endpoint
}

func (c Choice) getenv(name string) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv(name)
}

// ConfigDir is the docker CLI's configuration folder: DOCKER_CONFIG, or ~/.docker.
func (c Choice) ConfigDir() string {
	if dir := c.getenv("DOCKER_CONFIG"); dir != "" {
		return dir
	}
	return filepath.Join(c.Home, ".docker")
}

// Resolve names the engine the choice selects. An unknown context is an error that
// names it; nothing is dialled yet.
func (c Choice) Resolve() (Endpoint, error) {
	name, by, err := c.contextName()
	if err != nil {
		return Endpoint{}, err
	}
	if name == DefaultContext {
		if by == "" {
			by = "the default socket"
			if c.getenv("DOCKER_HOST") != "" {
				by = "DOCKER_HOST"
			}
		}
		return c.hostEndpoint(c.getenv("DOCKER_HOST"), by)
	}
	return c.storedContext(name, by)
}

// Named resolves one engine of several (`reproduce --engine`): a context's name, or an
// endpoint address ("unix:///run/other.sock", "tcp://host:2376", "ssh://user@host").
func (c Choice) Named(engine string) (Endpoint, error) {
	if strings.Contains(engine, "://") {
		return c.hostEndpoint(engine, "--engine")
	}
	if engine == DefaultContext {
		return c.hostEndpoint(c.getenv("DOCKER_HOST"), "--engine")
	}
	return c.storedContext(engine, "--engine")
}

// contextName follows the docker CLI's order; by is empty for the default context
// reached by no setting at all.
func (c Choice) contextName() (name, by string, err error) {
	if c.Context != "" {
		return c.Context, "--context", nil
	}
	if c.getenv("DOCKER_HOST") != "" {
		return DefaultContext, "DOCKER_HOST", nil
	}
	if name := c.getenv("DOCKER_CONTEXT"); name != "" {
		return name, "DOCKER_CONTEXT", nil
	}
	cfg, err := dockerconfig.Load(c.ConfigDir())
	if err != nil {
		return "", "", fmt.Errorf("docker CLI config: %w", err)
	}
	if cfg.CurrentContext != "" {
		return cfg.CurrentContext, "currentContext in " + cfg.Filename, nil
	}
	return DefaultContext, "", nil
}

// hostEndpoint is the default context's endpoint for host (the default socket when
// empty), with the TLS files of DOCKER_CERT_PATH when DOCKER_TLS_VERIFY or
// DOCKER_CERT_PATH asks for TLS, as the docker CLI does.
func (c Choice) hostEndpoint(host, by string) (Endpoint, error) {
	tlsVerify := c.getenv("DOCKER_TLS_VERIFY") != ""
	certPath := c.getenv("DOCKER_CERT_PATH")
	useTLS := tlsVerify || certPath != ""
	parsed, err := opts.ParseHost(useTLS, host)
	if err != nil {
		return Endpoint{}, fmt.Errorf("engine address %q: %w", host, err)
	}
	ep := docker.Endpoint{EndpointMeta: docker.EndpointMeta{Host: parsed}}
	if useTLS {
		if certPath == "" {
			certPath = c.ConfigDir()
		}
		ep.SkipTLSVerify = !tlsVerify
		ep.TLSData, err = clicontext.TLSDataFromFiles(filepath.Join(certPath, "ca.pem"), filepath.Join(certPath, "cert.pem"), filepath.Join(certPath, "key.pem"))
		if err != nil {
			return Endpoint{}, fmt.Errorf("TLS files for %s: %w", parsed, err)
		}
	}
	return Endpoint{Context: DefaultContext, Host: parsed, ChosenBy: by, endpoint: ep}, nil
}

// storedContext reads a context from the docker CLI's store
// (<config>/contexts/meta/<sha256 of the name>/meta.json) with its TLS material.
func (c Choice) storedContext(name, by string) (Endpoint, error) {
	dir := filepath.Join(c.ConfigDir(), "contexts")
	s := store.New(dir, store.NewConfig(
		func() any { return &map[string]any{} },
		store.EndpointTypeGetter(docker.DockerEndpoint, func() any { return &docker.EndpointMeta{} }),
	))
	meta, err := s.GetMetadata(name)
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return Endpoint{}, &UnknownContextError{Name: name, ChosenBy: by, StoreDir: dir}
		}
		return Endpoint{}, fmt.Errorf("docker context %q: %w", name, err)
	}
	em, err := docker.EndpointFromContext(meta)
	if err != nil {
		return Endpoint{}, fmt.Errorf("docker context %q: %w", name, err)
	}
	ep, err := docker.WithTLSData(s, name, em)
	if err != nil {
		return Endpoint{}, fmt.Errorf("docker context %q: %w", name, err)
	}
	host := ep.Host
	if host == "" {
		// A context without a host means the default one, as in the docker CLI.
		if host, err = opts.ParseHost(false, ""); err != nil {
			return Endpoint{}, err
		}
		ep.Host = host
	}
	return Endpoint{Context: name, Host: host, ChosenBy: by, endpoint: ep}, nil
}

// UnknownContextError is a context name the docker CLI's store does not hold.
type UnknownContextError struct {
	Name, ChosenBy, StoreDir string
}

func (e *UnknownContextError) Error() string {
	return fmt.Sprintf("docker context %q (from %s) does not exist in %s; `docker context ls` lists them", e.Name, e.ChosenBy, e.StoreDir)
}
