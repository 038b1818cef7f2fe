package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateToken(t *testing.T) {
	file := privateState(t)
	if tok, err := clientToken(""); err != nil || tok != "" {
		t.Fatalf("client before any server: %q %v", tok, err)
	}
	first, src, err := serverAuth("127.0.0.1:8787", "", false)
	if err != nil || len(first) != 64 || src != file {
		t.Fatalf("first start: %q from %q, %v", first, src, err)
	}
	fi, _ := os.Stat(file)
	di, _ := os.Stat(filepath.Dir(file))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("modes: file %v, dir %v", fi.Mode(), di.Mode())
	}
	again, _, err := serverAuth("[::1]:9000", "", false)
	if err != nil || again != first {
		t.Fatalf("second start made another token: %q %v", again, err)
	}
	if tok, err := clientToken(""); err != nil || tok != first {
		t.Fatalf("client: %q %v", tok, err)
	}
	t.Setenv("GATE_TOKEN", "from-env")
	if tok, err := clientToken(""); err != nil || tok != "from-env" {
		t.Fatalf("client with GATE_TOKEN: %q %v", tok, err)
	}
	t.Setenv("GATE_TOKEN", "")
	os.Chmod(file, 0o640)
	for _, f := range []func() error{
		func() error { _, _, err := serverAuth("127.0.0.1:8787", "", false); return err },
		func() error { _, err := clientToken(""); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "readable by others") || !strings.Contains(err.Error(), "chmod 600") {
			t.Fatalf("group-readable token file: %v", err)
		}
	}
}

func TestServerAuth(t *testing.T) {
	privateState(t)
	explicit := filepath.Join(t.TempDir(), "token")
	os.WriteFile(explicit, []byte("from-file\n"), 0o600)
	for _, tc := range []struct {
		name, listen, tokenFile, env string
		noToken                      bool
		token, err                   string
	}{
		{"token file first", "127.0.0.1:1", explicit, "from-env", false, "from-file", ""},
		{"then GATE_TOKEN", "127.0.0.1:1", "", "from-env", false, "from-env", ""},
		{"--no-token on loopback", "localhost:1", "", "from-env", true, "", ""},
		{"--no-token on a socket", "unix:/tmp/x.sock", "", "", true, "", ""},
		{"a socket needs none", "unix:/tmp/x.sock", "", "", false, "", ""},
		{"a socket takes one given", "unix:/tmp/x.sock", "", "from-env", false, "from-env", ""},
		{"--no-token elsewhere", "0.0.0.0:1", "", "", true, "", "refusing --no-token on 0.0.0.0:1"},
		{"--no-token and --token-file", "127.0.0.1:1", explicit, "", true, "", "contradict"},
		{"elsewhere without a token", "192.0.2.1:1", "", "", false, "", "without a bearer token"},
		{"elsewhere with one", "192.0.2.1:1", explicit, "", false, "from-file", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GATE_TOKEN", tc.env)
			tok, _, err := serverAuth(tc.listen, tc.tokenFile, tc.noToken)
			if tok != tc.token || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %q, %v", tok, err)
			}
		})
	}
}
