//go:build unix && !linux

package runner

import (
	"os/exec"
	"strconv"
	"strings"
)

// groupMembers lists the processes of process group pgid, from ps.
func groupMembers(pgid int) []int {
	out, err := exec.Command("ps", "-A", "-o", "pid=,pgid=,stat=").Output()
	if err != nil {
		return nil
	}
	var pids []int
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || strings.HasPrefix(f[2], "Z") {
			continue
		}
		pid, err1 := strconv.Atoi(f[0])
		g, err2 := strconv.Atoi(f[1])
		if err1 == nil && err2 == nil && g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// pidLive is only used for supervised trees, which need Linux.
func pidLive(int) bool { return false }
