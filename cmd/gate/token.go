package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gate-dev/gate/engine"
)

// The bearer token of a server on loopback: made at its first start, kept
// in the user's state directory, read by gate approvals (as Jupyter does).

// stateDir is gate's state directory: $XDG_STATE_HOME/gate, or
// ~/.local/state/gate.
func stateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gate"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "no state directory for the token (set XDG_STATE_HOME or HOME, or give --token-file)", Err: err}
	}
	return filepath.Join(home, ".local", "state", "gate"), nil
}

// defaultTokenFile is where gate serve keeps its token.
func defaultTokenFile() (string, error) {
	dir, err := stateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "token"), nil
}

// serverAuth says which token a server listening on listen requires, and
// where it comes from, for the log: --token-file, then GATE_TOKEN; none
// with --no-token (loopback and unix sockets only) or on a unix socket;
// otherwise, on loopback, the state directory's token file, made at the
// first start. Any other address needs an explicit token.
func serverAuth(listen, tokenFile string, noToken bool) (token, source string, err error) {
	local := loopback(listen) || isUnixListen(listen)
	switch {
	case noToken && tokenFile != "":
		return "", "", usagef("--no-token and --token-file contradict each other")
	case noToken && !local:
		return "", "", usagef("refusing --no-token on %s: it is not a loopback address or a unix socket, so anyone who can reach it could run commands", listen)
	case noToken:
		return "", "none (--no-token)", nil
	case tokenFile != "":
		token, err := readToken(tokenFile)
		return token, tokenFile, err
	case os.Getenv("GATE_TOKEN") != "":
		token, err := readToken("")
		return token, "$GATE_TOKEN", err
	case isUnixListen(listen):
		return "", "none (unix socket: its file permissions)", nil
	case !local:
		return "", "", usagef("refusing to listen on %s without a bearer token: it is not a loopback address, so anyone who can reach it could run commands; give --token-file FILE or set GATE_TOKEN", listen)
	}
	file, err := defaultTokenFile()
	if err != nil {
		return "", "", err
	}
	token, err = stateToken(file, true)
	return token, file, err
}

// clientToken is the token a client sends: --token-file, then GATE_TOKEN,
// then the state directory's token file when there is one.
func clientToken(tokenFile string) (string, error) {
	if tokenFile != "" || os.Getenv("GATE_TOKEN") != "" {
		return readToken(tokenFile)
	}
	file, err := defaultTokenFile()
	if err != nil {
		return "", nil
	}
	return stateToken(file, false)
}

// stateToken reads the token file gate keeps, which must be readable by
// its owner only; when there is none it makes one if create is set, and
// answers "" otherwise.
func stateToken(file string, create bool) (string, error) {
	token, err := readPrivateToken(file)
	switch {
	case err == nil:
		return token, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	case !create:
		return "", nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "token directory", Err: err}
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", &engine.Error{Code: engine.CodeInternal, Message: "generating a token", Err: err}
	}
	// Written aside, then linked into place: a reader never sees a partial
	// file, and of two gates starting at once the second reads the first's.
	tmp, err := os.CreateTemp(filepath.Dir(file), ".token-*.tmp")
	if err != nil {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "token file", Err: err}
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(hex.EncodeToString(raw) + "\n")
	if err := errors.Join(werr, tmp.Chmod(0o600), tmp.Sync(), tmp.Close()); err != nil {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "token file", Err: err}
	}
	if err := os.Link(tmp.Name(), file); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "token file", Err: err}
	}
	return readPrivateToken(file)
}

// readPrivateToken reads a token file that only its owner may read.
func readPrivateToken(file string) (string, error) {
	fi, err := os.Stat(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "token file", Err: err}
	}
	if !fi.Mode().IsRegular() {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: fmt.Sprintf("token file %s is not a regular file", file)}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: fmt.Sprintf("token file %s is readable by others (mode %04o): run chmod 600 %s, or remove it to get a new token", file, perm, file)}
	}
	return readToken(file)
}

// readToken reads the bearer token from a file, or GATE_TOKEN.
func readToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv("GATE_TOKEN")), nil
	}
	bs, err := os.ReadFile(file)
	if err != nil {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: "token file", Err: err}
	}
	token := strings.TrimSpace(string(bs))
	if token == "" {
		return "", &engine.Error{Code: engine.CodeBadSettings, Message: fmt.Sprintf("token file %s is empty", file)}
	}
	return token, nil
}
