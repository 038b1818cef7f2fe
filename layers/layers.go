package layers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gate-dev/gate/confine"
	"github.com/gate-dev/gate/supervise"
)

// Names of the layers.
const (
	Static = "static"
	Exec   = "exec"
	FS     = "fs"
)

// All lists every layer, in order.
var All = []string{Static, Exec, FS}

// Config says which layers the configuration wants.
type Config struct {
	// NoExec turns exec supervision off (gate.enforcement.exec: false,
	// --no-supervise).
	NoExec bool
	// NoFS turns filesystem confinement off (gate.enforcement.fs: false,
	// --no-confine).
	NoFS bool
}

// Report is the state of every layer.
type Report struct {
	// Active lists the active layers, in the order of All.
	Active []string `json:"active"`
	// Missing gives, for each layer that is not active, why.
	Missing map[string]string `json:"missing,omitempty"`
	// Confine is what the machine supports for the fs layer (Landlock
	// ABI, mount namespace), whether or not it is on.
	Confine confine.Status `json:"confine"`
}

// Detect probes the machine (once per process) and applies cfg. fs needs
// exec: the confinement is applied by the supervisor's helper.
func Detect(cfg Config) Report {
	r := Report{Active: []string{Static}, Missing: map[string]string{}, Confine: confine.Probe()}
	execOK, why := supervise.Available()
	switch {
	case cfg.NoExec:
		r.Missing[Exec] = "turned off (gate.enforcement.exec: false or --no-supervise)"
	case !execOK:
		r.Missing[Exec] = "not available: " + why
	default:
		r.Active = append(r.Active, Exec)
	}
	switch {
	case cfg.NoFS:
		r.Missing[FS] = "turned off (gate.enforcement.fs: false or --no-confine)"
	case !r.Confine.Active():
		r.Missing[FS] = "not available: " + strings.Join(r.Confine.Missing, "; ")
	case !r.Has(Exec):
		r.Missing[FS] = "needs the exec layer (the supervisor's helper applies the confinement)"
	default:
		r.Active = append(r.Active, FS)
	}
	return r
}

// Has reports whether layer is active.
func (r Report) Has(layer string) bool { return slices.Contains(r.Active, layer) }

// Map is the /readyz shape: layer → active.
func (r Report) Map() map[string]bool {
	m := map[string]bool{}
	for _, l := range All {
		m[l] = r.Has(l)
	}
	return m
}

// Check returns an error naming the first required layer that is not
// active, with the reason; nil when every one is.
func (r Report) Check(require []string) error {
	for _, l := range require {
		if !r.Has(l) {
			why := r.Missing[l]
			if why == "" {
				why = "unknown layer"
			}
			return &MissingError{Layer: l, Reason: why}
		}
	}
	return nil
}

// MissingError is a required layer that is not active.
type MissingError struct {
	Layer  string
	Reason string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("the %q enforcement layer is required (gate.enforcement.require) but not active: %s", e.Layer, e.Reason)
}

// Validate checks a list of required layers.
func Validate(require []string) error {
	for _, l := range require {
		if !slices.Contains(All, l) {
			return fmt.Errorf("unknown enforcement layer %q (known: %s)", l, strings.Join(All, ", "))
		}
	}
	return nil
}

// String is the one-line form of result texts and logs: the active layers,
// then each missing one with its reason, "static, exec (fs: not available:
// ...)".
func (r Report) String() string {
	s := strings.Join(r.Active, ", ")
	var miss []string
	for _, l := range All {
		if why, ok := r.Missing[l]; ok {
			miss = append(miss, l+": "+why)
		}
	}
	if len(miss) > 0 {
		s += " (" + strings.Join(miss, "; ") + ")"
	}
	return s
}
