//go:build !unix

package supervise

import (
	"os"
	"syscall"
)

func socketPair(int) (*os.File, *os.File, error) { return nil, nil, ErrUnavailable }

func statusOf(ws int) Status { return Status{ExitCode: ws} }

func helperSignal(*os.ProcessState) syscall.Signal { return 0 }
