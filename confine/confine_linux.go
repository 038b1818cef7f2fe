//go:build linux

package confine

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// maxABI is the newest Landlock ABI go-landlock knows; a newer kernel is
// used at this level.
const maxABI = 11

// handledFS is every filesystem right Landlock can restrict except
// "resolve unix" (connecting to pathname UNIX sockets): the network,
// sockets included, is left alone.
const handledFS = landlock.AccessFSSet(1<<17-1) &^ llsys.AccessFSResolveUnix

// dirRights and fileRights are granted under writable paths (all but
// "refer", added when the ABI has it); readRights everywhere else.
const (
	readRights landlock.AccessFSSet = llsys.AccessFSExecute | llsys.AccessFSReadFile | llsys.AccessFSReadDir
	fileRights landlock.AccessFSSet = llsys.AccessFSExecute | llsys.AccessFSReadFile |
		llsys.AccessFSWriteFile | llsys.AccessFSTruncate | llsys.AccessFSIoctlDev
	dirRights = handledFS &^ llsys.AccessFSRefer
)

var probeOnce = sync.OnceValue(probe)

// Probe reports what this machine supports, with a human reason for each
// layer that is missing. The result is computed once per process.
func Probe() Status { return probeOnce() }

func probe() Status {
	var s Status
	abi, reason := landlockABI()
	s.Landlock = abi
	if reason != "" {
		s.Missing = append(s.Missing, reason)
	}
	switch err := probeMountNS(nil); {
	case err == nil:
		s.MountNS = true
	case os.Geteuid() != 0:
		// Not root: a user namespace of its own gives the helper the
		// right to mount in a mount namespace of its own.
		if uerr := probeMountNS(userNS(nil)); uerr != nil {
			s.Missing = append(s.Missing, "read-only mounts: "+err.Error()+"; in a user namespace of its own: "+uerr.Error())
		} else {
			s.MountNS, s.UserNS = true, true
		}
	default:
		s.Missing = append(s.Missing, "read-only mounts: "+err.Error())
	}
	return s
}

// userNS adds to a (nil: a new one) a user namespace in which this
// process's user and group are root: the helper may mount there, and only
// there. Files of other users show as the overflow user (nobody) in it.
func userNS(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	if a == nil {
		a = &syscall.SysProcAttr{}
	}
	a.Cloneflags |= syscall.CLONE_NEWUSER
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	return a
}

// CommandAttr returns base for the command the helper starts: when the
// helper is root of a user namespace of its own (Spec.AsUser), the command
// starts in a nested one where it is that user again, with no capability
// (it can neither undo the mounts nor make new ones that count), and the
// helper, root of the parent namespace, may still trace it.
func CommandAttr(s Spec, base *syscall.SysProcAttr) *syscall.SysProcAttr {
	if s.AsUser == nil {
		return base
	}
	var a syscall.SysProcAttr
	if base != nil {
		a = *base
	}
	a.Cloneflags |= syscall.CLONE_NEWUSER
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: s.AsUser.UID, HostID: 0, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: s.AsUser.GID, HostID: 0, Size: 1}}
	a.GidMappingsEnableSetgroups = false
	return &a
}

// landlockABI returns the usable Landlock ABI, or 0 and why there is none.
func landlockABI() (int, string) {
	v, err := llsys.LandlockGetABIVersion()
	switch {
	case errors.Is(err, syscall.ENOSYS):
		return 0, "landlock: not in this kernel (needs Linux 5.13+ built with CONFIG_SECURITY_LANDLOCK)"
	case errors.Is(err, syscall.EOPNOTSUPP):
		return 0, "landlock: disabled at boot (add landlock to the lsm= kernel parameter)"
	case err != nil:
		return 0, "landlock: " + err.Error()
	case v < 1:
		return 0, fmt.Sprintf("landlock: kernel reports ABI %d", v)
	}
	return min(v, maxABI), ""
}

// probeMountNS starts a process the way [SysProcAttr] asks for (a new
// mount namespace, whose mounts Go makes private) without running anything
// in it: the program does not exist, so reaching the exec (ENOENT) proves the
// unshare and the mount worked. Nothing in this process changes namespace.
func probeMountNS(sys *syscall.SysProcAttr) error {
	const missing = "/proc/self/gate-confine-probe-does-not-exist"
	if sys == nil {
		sys = &syscall.SysProcAttr{}
	}
	sys.Unshareflags |= syscall.CLONE_NEWNS
	attr := &syscall.ProcAttr{Sys: sys}
	pid, err := syscall.ForkExec(missing, []string{missing}, attr)
	switch {
	case err == nil:
		// Cannot happen (nothing can be created under /proc/self); reap it.
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, 0, nil)
		return nil
	case errors.Is(err, syscall.ENOENT):
		return nil
	case errors.Is(err, syscall.EPERM):
		return fmt.Errorf("unshare(CLONE_NEWNS): %w (needs CAP_SYS_ADMIN: run gate as root, or in a container that allows it)", err)
	}
	return fmt.Errorf("unshare(CLONE_NEWNS) and private mounts: %w", err)
}

// SysProcAttr returns a copy of base (which may be nil) that starts the
// process in a new mount namespace when this machine allows it. Use it for
// the helper process that calls [Apply]: all its threads then share the new
// namespace, and Go makes every mount in it private before the helper runs.
func SysProcAttr(base *syscall.SysProcAttr) *syscall.SysProcAttr {
	var a syscall.SysProcAttr
	if base != nil {
		a = *base
	}
	if p := Probe(); p.MountNS {
		if p.UserNS {
			userNS(&a)
		}
		a.Unshareflags |= syscall.CLONE_NEWNS
	}
	return &a
}

// ParentMountNS returns this process's mount namespace as /proc names it
// (mnt:[N]), for Spec.ParentMountNS of a helper it starts.
func ParentMountNS() string {
	ns, _ := os.Readlink("/proc/self/ns/mnt")
	return ns
}

// privateMountNS reports whether this process is alone in its mount
// namespace, the property that makes mounting safe: no other process sees
// what it mounts. It is fast when the process shares its parent's namespace
// (the usual mistake: started without [SysProcAttr]); otherwise it looks at
// every process in /proc it may inspect.
//
// parentNS is the mount namespace of the process that started this one, as
// it named it (Spec.ParentMountNS); empty, it is read from /proc, and a
// parent that cannot be read (a non-dumpable one, as gate is, seen by a
// process without CAP_SYS_PTRACE) counts as sharing it.
func privateMountNS(parentNS string) (bool, string) {
	const prefix = "read-only mounts: "
	self, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return false, prefix + err.Error()
	}
	shared := prefix + "not in a mount namespace of its own (start the process with confine.SysProcAttr); the host's mounts are left alone"
	if parentNS == "" {
		p, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", os.Getppid()))
		if err != nil {
			return false, prefix + "the parent's mount namespace is unknown (" + err.Error() + "; set Spec.ParentMountNS); the host's mounts are left alone"
		}
		parentNS = p
	}
	if parentNS == self {
		return false, shared
	}
	d, err := os.Open("/proc")
	if err != nil {
		return false, prefix + err.Error()
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return false, prefix + err.Error()
	}
	me := strconv.Itoa(os.Getpid())
	for _, name := range names {
		if name == me || name[0] < '0' || name[0] > '9' {
			continue
		}
		ns, err := os.Readlink("/proc/" + name + "/ns/mnt")
		switch {
		case err != nil:
			// Exited, or not ours to inspect (a more privileged user
			// namespace): such a process cannot have joined a namespace
			// just made for this one, and the shared case is caught by
			// the parent and the processes we can read.
			continue
		case ns == self:
			return false, shared
		}
	}
	return true, ""
}

// Apply confines the calling process and everything it starts afterwards:
// protected paths become read-only bind mounts (only in a private mount
// namespace, see [SysProcAttr]), then Landlock allows writes only under the
// writable paths. It cannot be undone. A layer the machine lacks is reported
// in Status.Missing with a nil error; an error means confinement failed
// part-way and the caller must not run the command.
func Apply(s Spec) (Status, error) {
	var st Status
	abi, reason := landlockABI()
	if reason != "" {
		st.Missing = append(st.Missing, reason)
	}
	p, err := makePlan(s, abi > 0)
	if err != nil {
		return st, err
	}
	st.Writable = p.writable
	st.Unprotected = p.unprotected
	st.Warnings = p.warnings
	st.Missing = append(st.Missing, p.missing...)

	var binds []roPath
	for _, r := range p.readOnly {
		if r.bind {
			binds = append(binds, r)
		} else {
			st.ReadOnly = append(st.ReadOnly, r.path) // outside every writable path: Landlock
		}
	}
	if len(binds) > 0 || len(p.hidden) > 0 {
		ok, why := privateMountNS(s.ParentMountNS)
		if !ok {
			st.Missing = append(st.Missing, why)
			for _, r := range binds {
				st.Unprotected = append(st.Unprotected, r.path+": under a writable path, and no private mount namespace")
			}
			for _, h := range p.hidden {
				st.Unprotected = append(st.Unprotected, h+": secret, but readable: no private mount namespace to cover it")
			}
		} else {
			if err := mountAll(p.pins, binds, p.hidden); err != nil {
				return st, err
			}
			st.Hidden = p.hidden
			// The working directory still refers to the directory as it
			// was mounted before: relative paths would resolve beneath
			// the new mounts, past the read-only ones. Enter it again.
			if wd, err := os.Getwd(); err == nil {
				if err := os.Chdir(wd); err != nil {
					return st, fmt.Errorf("confine: entering %s again after mounting: %w", wd, err)
				}
			}
			st.MountNS = true
			for _, r := range binds {
				st.ReadOnly = append(st.ReadOnly, r.path)
			}
		}
	} else if ok, _ := privateMountNS(s.ParentMountNS); ok {
		st.MountNS = true // nothing needed a mount, but it was possible
	}
	sort.Strings(st.ReadOnly)
	if fi, err := os.Stat(shmDir); err == nil && fi.IsDir() {
		// /dev/shm is writable (POSIX shared memory, Python's
		// multiprocessing) but shared by the whole machine: a file the
		// command leaves there is outside the root. In a mount namespace
		// of its own the command gets an empty one.
		if st.MountNS {
			if err := privateShm(); err != nil {
				return st, err
			}
			st.PrivateShm = true
		} else {
			st.Warnings = append(st.Warnings, shmDir+": shared with the whole machine and writable (no private mount namespace)")
		}
	}

	if abi > 0 {
		if abi < 2 {
			st.Missing = append(st.Missing, "landlock ABI 1: moving or linking files between directories fails with EXDEV")
		}
		if err := restrict(abi, p.writable); err != nil {
			return st, fmt.Errorf("confine: landlock: %w", err)
		}
		st.Landlock = abi
	}
	return st, nil
}

// shmDir is where POSIX shared memory lives.
const shmDir = "/dev/shm"

// privateShm mounts an empty tmpfs on /dev/shm, for this mount namespace
// only.
func privateShm() error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("confine: making mounts private: %w", err)
	}
	if err := unix.Mount("gate-shm", shmDir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return fmt.Errorf("confine: a private %s: %w", shmDir, err)
	}
	return nil
}

// mountAll makes mounts private, pins directories by binding each onto
// itself, binds the protected paths read-only and covers the hidden ones,
// parents first.
func mountAll(pins []string, binds []roPath, hidden []string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("confine: making mounts private: %w", err)
	}
	type op struct {
		path     string
		ro, hide bool
	}
	var ops []op
	for _, d := range pins {
		ops = append(ops, op{path: d})
	}
	for _, r := range binds {
		ops = append(ops, op{path: r.path, ro: true})
	}
	for _, h := range hidden {
		ops = append(ops, op{path: h, hide: true})
	}
	sort.SliceStable(ops, func(i, j int) bool { return mountDepth(ops[i].path) < mountDepth(ops[j].path) })
	for _, o := range ops {
		if o.hide {
			if err := cover(o.path); err != nil {
				return fmt.Errorf("confine: %w", err)
			}
			continue
		}
		if o.ro {
			if err := bindReadOnly(o.path); err != nil {
				return fmt.Errorf("confine: %w", err)
			}
			continue
		}
		if err := unix.Mount(o.path, o.path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("confine: pinning %s: %w", o.path, err)
		}
	}
	return nil
}

// cover hides p under an empty read-only mount: a directory under a tmpfs
// with nothing in it and no permissions, a file (or anything else) under
// /dev/null.
func cover(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	const flags = unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
	if fi.IsDir() {
		if err := unix.Mount("gate-hidden", p, "tmpfs", flags|unix.MS_RDONLY, "size=4k,nr_inodes=1,mode=000"); err != nil {
			return fmt.Errorf("covering %s: %w", p, err)
		}
		return nil
	}
	if err := unix.Mount("/dev/null", p, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("covering %s: %w", p, err)
	}
	if err := unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|flags, ""); err != nil {
		return fmt.Errorf("making the cover of %s read-only: %w", p, err)
	}
	return nil
}

// bindReadOnly bind-mounts p onto itself (with the mounts under it) and
// makes the result read-only, recursively where the kernel can.
func bindReadOnly(p string) error {
	if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("bind-mounting %s: %w", p, err)
	}
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	err := unix.MountSetattr(unix.AT_FDCWD, p, unix.AT_RECURSIVE, &attr)
	if errors.Is(err, unix.ENOSYS) {
		// Before Linux 5.12: only the top mount becomes read-only.
		err = unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, "")
	}
	if err != nil {
		return fmt.Errorf("making %s read-only: %w", p, err)
	}
	return nil
}

// restrict applies Landlock to every thread of the process: reads and
// execution everywhere, writes only under the writable paths.
func restrict(abi int, writable []string) error {
	cfg := landlock.MustConfig(handledFS).BestEffort()
	dirs, files := dirRights, fileRights
	if abi >= 2 {
		dirs |= llsys.AccessFSRefer
	}
	rules := []landlock.Rule{landlock.PathAccess(readRights, "/")}
	for _, w := range writable {
		fi, err := os.Stat(w)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			rules = append(rules, landlock.PathAccess(dirs&handledFS, w))
		} else {
			rules = append(rules, landlock.PathAccess(files, w))
		}
	}
	return cfg.RestrictPaths(rules...)
}

// linkCount returns the number of hard links of the file at p.
func linkCount(p string) uint64 {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return 0
	}
	return uint64(st.Nlink)
}
