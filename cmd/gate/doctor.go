package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/layers"
)

// buildInfo is what gate version prints.
type buildInfo struct {
	Version   string   `json:"version"`
	Revision  string   `json:"revision"`
	GoVersion string   `json:"go_version"`
	Platform  string   `json:"platform"`
	Layers    []string `json:"layers"`
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version(), Revision: "unknown", GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				b.Revision = s.Value
			}
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.modified" && s.Value == "true" {
				b.Revision += "+dirty"
			}
		}
	}
	return b
}

func (a *app) versionCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print gate's version, revision, Go version and active enforcement layers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b := readBuildInfo()
			rep := layers.Detect(layers.Config{NoExec: a.v.GetBool(flagNoSupervise), NoFS: a.v.GetBool(flagNoConfine)})
			b.Layers = rep.Active
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(b)
			}
			fmt.Fprintf(a.stdout, "gate %s\nrevision: %s\ngo: %s %s\nlayers: %s\n", b.Version, b.Revision, b.GoVersion, b.Platform, rep.String())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

const doctorLong = `Report which enforcement layers protect the commands gate runs on this
machine, and why a missing one is missing:

  static  the decision on the parsed command (always)
  exec    every program the command's tree runs is decided before it runs
          (ptrace; Linux; off with --no-supervise or gate.enforcement.exec: false)
  fs      writes are confined to the root, the temp dir and the writable paths,
          protected paths are read-only (Landlock, plus read-only bind mounts in
          a private mount namespace when gate may make one, as root; off with
          --no-confine or gate.enforcement.fs: false)

With the confinement details: Landlock ABI, mount namespace, the writable
and the protected (read-only) paths. Exit status 6 when a layer that
gate.enforcement.require (or --require-layer) asks for is not active.`

// doctorReport is gate doctor's JSON.
type doctorReport struct {
	buildInfo
	Active   []string          `json:"active"`
	Missing  map[string]string `json:"missing,omitempty"`
	Required []string          `json:"required,omitempty"`
	Landlock int               `json:"landlock_abi"`
	MountNS  bool              `json:"mount_ns"`
	// UserNS: the mount namespace is made in a user namespace of the
	// helper's own (gate is not root).
	UserNS   bool     `json:"user_ns"`
	Notes    []string `json:"notes,omitempty"`
	Writable []string `json:"writable"`
	ReadOnly []string `json:"read_only"`
	// Hidden are the secret paths the command can neither read nor write
	// (covered by empty mounts; needs the private mount namespace).
	Hidden []string `json:"hidden"`
}

func (a *app) doctorCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Report the enforcement layers active on this machine",
		Long:  doctorLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			en, err := a.detectEnforcement(cfg)
			if err != nil {
				return err
			}
			rep := en.report
			d := doctorReport{buildInfo: readBuildInfo(), Active: rep.Active, Missing: rep.Missing, Required: en.require,
				Landlock: rep.Confine.Landlock, MountNS: rep.Confine.MountNS, UserNS: rep.Confine.UserNS, Notes: rep.Confine.Missing,
				Writable: append([]string{"<root>", "<temp dir>", "/dev/null, /dev/tty, /dev/pts, ... (devices)"}, en.writable...), ReadOnly: en.readOnly, Hidden: en.hidden}
			d.buildInfo.Layers = rep.Active
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(d); err != nil {
					return err
				}
			} else {
				w := a.stdout
				fmt.Fprintf(w, "gate %s (%s, %s %s)\n\nEnforcement layers:\n", d.Version, d.Revision, d.GoVersion, d.Platform)
				for _, l := range layers.All {
					state := "active"
					if why, ok := rep.Missing[l]; ok {
						state = "missing: " + why
					}
					req := ""
					for _, r := range en.require {
						if r == l {
							req = " (required)"
						}
					}
					fmt.Fprintf(w, "  %-7s %s%s\n", l, state, req)
				}
				fmt.Fprintf(w, "\nConfinement:\n  landlock ABI: %d\n  read-only mounts (private mount namespace): %t\n", d.Landlock, d.MountNS)
				if d.UserNS {
					fmt.Fprintf(w, "  mounts made in a user namespace of the helper's own (gate is not root): other users' files show as nobody to commands\n")
				}
				for _, n := range d.Notes {
					fmt.Fprintf(w, "  note: %s\n", n)
				}
				fmt.Fprintf(w, "  writable: %s\n", strings.Join(d.Writable, ", "))
				fmt.Fprintf(w, "  read-only (protected where they exist; relative to the root): %s\n", strings.Join(d.ReadOnly, ", "))
				hidden := "hidden (unreadable where they exist)"
				if !d.MountNS {
					hidden = "hidden: not covered without the private mount namespace, left to the static policy"
				}
				fmt.Fprintf(w, "  %s: %s\n", hidden, strings.Join(d.Hidden, ", "))
			}
			if err := rep.Check(en.require); err != nil {
				a.exit = engine.ExitEnforcement
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
