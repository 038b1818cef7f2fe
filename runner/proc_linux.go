//go:build linux

package runner

import (
	"os"
	"strconv"
	"strings"
)

// groupMembers lists the processes of process group pgid, from /proc.
func groupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		bs, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces: the fields
		// after it are state, ppid, pgrp.
		s := string(bs)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// pidLive reports whether pid exists and is not a zombie.
func pidLive(pid int) bool {
	bs, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(bs)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}
