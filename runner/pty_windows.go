//go:build windows

package runner

import (
	"os"
	"os/exec"
)

// startPTY is not available on Windows: sessions run on pipes.
func (ss *Sessions) startPTY(*exec.Cmd, int, int) (*os.File, error) { return nil, errNoPTY }

func setSize(*os.File, int, int) error { return errNoPTY }
