package helper

import (
	"encoding/json"
	"fmt"
	"os/exec"

	"github.com/gate-dev/gate/confine"
)

// BeforeStart applies the confinement spec (JSON of a confine.Spec; empty
// means none) to the helper, so that the command and everything it starts
// inherit it. A spec that does not decode, or an Apply that fails, is an
// error: the command does not run.
func BeforeStart(spec []byte, cmd *exec.Cmd) error {
	if len(spec) == 0 {
		return nil
	}
	var s confine.Spec
	if err := json.Unmarshal(spec, &s); err != nil {
		return fmt.Errorf("confinement spec: %w", err)
	}
	if _, err := confine.Apply(s); err != nil {
		return err
	}
	cmd.SysProcAttr = confine.CommandAttr(s, cmd.SysProcAttr)
	return nil
}
