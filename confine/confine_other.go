//go:build !linux

package confine

import (
	"runtime"
	"syscall"
)

// Probe reports what this machine supports: nothing, off Linux.
func Probe() Status {
	return Status{Missing: []string{"filesystem confinement needs Linux (Landlock and mount namespaces); " + runtime.GOOS + " keeps the static decisions only"}}
}

// SysProcAttr returns a copy of base (which may be nil): off Linux there is
// no mount namespace to ask for.
func SysProcAttr(base *syscall.SysProcAttr) *syscall.SysProcAttr {
	var a syscall.SysProcAttr
	if base != nil {
		a = *base
	}
	return &a
}

// CommandAttr returns base: off Linux there is no user namespace.
func CommandAttr(_ Spec, base *syscall.SysProcAttr) *syscall.SysProcAttr { return base }

// ParentMountNS is empty off Linux.
func ParentMountNS() string { return "" }

// Apply confines nothing off Linux; the Status says so.
func Apply(s Spec) (Status, error) {
	p, err := makePlan(s, false)
	if err != nil {
		return Status{}, err
	}
	st := Probe()
	st.Writable = p.writable
	for _, r := range p.readOnly {
		st.Unprotected = append(st.Unprotected, r.path+": no filesystem confinement on "+runtime.GOOS)
	}
	st.Unprotected = append(st.Unprotected, p.unprotected...)
	return st, nil
}

// linkCount is not needed off Linux: nothing is protected.
func linkCount(string) uint64 { return 0 }
