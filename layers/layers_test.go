package layers

import (
	"errors"
	"testing"
)

func report(active []string, missing map[string]string) Report {
	return Report{Active: active, Missing: missing}
}

func TestCheck(t *testing.T) {
	full := report([]string{Static, Exec, FS}, nil)
	noExec := report([]string{Static}, map[string]string{Exec: "not available: ptrace refused", FS: "needs the exec layer"})
	for _, tc := range []struct {
		name    string
		r       Report
		require []string
		layer   string
	}{
		{"nothing required", noExec, nil, ""},
		{"all there", full, []string{Exec, FS}, ""},
		{"exec missing", noExec, []string{Exec, FS}, Exec},
		{"fs missing", noExec, []string{FS}, FS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.r.Check(tc.require)
			var me *MissingError
			switch {
			case tc.layer == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tc.layer != "" && (!errors.As(err, &me) || me.Layer != tc.layer || me.Reason != tc.r.Missing[tc.layer]):
				t.Fatalf("Check: %v, want the %s layer missing", err, tc.layer)
			}
		})
	}
}

func TestStringAndMap(t *testing.T) {
	r := report([]string{Static, Exec}, map[string]string{FS: "turned off"})
	if got, want := r.String(), "static, exec (fs: turned off)"; got != want {
		t.Fatalf("String %q, want %q", got, want)
	}
	if m := r.Map(); !m[Static] || !m[Exec] || m[FS] || len(m) != 3 {
		t.Fatalf("Map %v", m)
	}
}

func TestValidate(t *testing.T) {
	if err := Validate([]string{Exec, FS}); err != nil {
		t.Fatal(err)
	}
	if err := Validate([]string{"exec", "seccomp"}); err == nil {
		t.Fatal("an unknown layer was accepted")
	}
}

// Turned-off layers are reported as such, whatever the machine supports,
// and fs never stands without exec.
func TestDetectHonoursConfig(t *testing.T) {
	r := Detect(Config{NoExec: true})
	if r.Has(Exec) || r.Has(FS) || !r.Has(Static) || r.Missing[Exec] == "" || r.Missing[FS] == "" {
		t.Fatalf("Detect(NoExec) = %+v", r)
	}
	if r := Detect(Config{NoFS: true}); r.Has(FS) || r.Missing[FS] == "" {
		t.Fatalf("Detect(NoFS) = %+v", r)
	}
}
