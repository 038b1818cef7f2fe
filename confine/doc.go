// Package confine confines the file-system writes of a process tree (Linux):
// writes are allowed only under the workspace root, the temp dir, a few
// devices and the paths the user adds, and the protected paths inside them
// (.git/hooks, .git/config, agent settings, gate's own files) are read-only.
// Secret paths (gate's state directory, which holds the server's bearer
// token) are hidden where a mount namespace allows. Other reads, execution
// and the network are left alone.
//
// # Use
//
// A helper process calls [Apply] right before it starts the command, so that
// everything it starts inherits the confinement; Apply cannot be undone. The
// helper's parent starts it with [SysProcAttr], which asks for a mount
// namespace of its own. In order, the helper:
//
//  1. is started with cmd.SysProcAttr = confine.SysProcAttr(base);
//  2. calls Apply(Spec{Root, Writable, ReadOnly, Hidden}) before starting anything
//     (and before any ptrace attach: the tracer is confined with its tracees,
//     which Landlock requires for ptrace anyway);
//  3. on an error, runs nothing (confinement may be half in place); on a nil
//     error, reads Status: a missing layer is a fact of the machine, to show
//     and to refuse on when settings require the "fs" layer;
//  4. starts the command.
//
// [Probe] says what the machine supports, with a reason for each missing
// layer, for gate doctor and start-up warnings.
//
// # What is enforced where
//
// Landlock (best effort up to the kernel's ABI): reading, listing and
// executing are allowed everywhere; every write right (write, truncate,
// create, remove, rename, link, make device/fifo/socket/symlink) only under
// Root, [os.TempDir] ($TMPDIR), [Devices] and Spec.Writable, which also get
// "refer" (moving and linking between their directories) and device ioctls.
// Connecting to UNIX sockets, TCP/UDP, signals and abstract sockets are not
// restricted. Landlock sets no_new_privs: setuid programs (sudo, su) do not
// gain privileges in the tree. A Landlock domain may not mount, unmount or
// remount, nor ptrace (or open /proc/PID/root of) a process outside it, so
// even root inside the tree cannot undo the mounts below or write through
// another process's mount namespace.
//
// Read-only bind mounts: Landlock grants by hierarchy and cannot carve a
// read-only hole in a writable tree, so each existing ReadOnly path under a
// writable path is bind-mounted onto itself and made read-only (recursively)
// in the helper's private mount namespace: writes fail with EROFS. Every
// directory between the writable tree's top and a protected path (the root,
// .git) is also bind-mounted onto itself, read-write, to pin it: renaming or
// deleting it fails with EBUSY, so it cannot be moved away and replaced by an
// unprotected copy; as a side effect, renames across a pin (from the work
// tree into .git) fail with EXDEV, and commands that rewrite .git/config
// (git config, git remote add) fail. ReadOnly paths outside every writable
// path need no mount: Landlock already denies writing them. Mounts happen
// only when this process is alone in its mount namespace (not in its
// parent's, and no process that /proc lets it inspect shares it); otherwise
// Status.Missing says so and the host's mounts are never touched.
//
// Hidden paths: Landlock cannot refuse a read under a readable tree either,
// so each existing Hidden path is covered in the same namespace by an empty
// read-only mount: a directory by an empty tmpfs (mode 000), a file by
// /dev/null. Reading gives nothing, writing fails with EROFS, and the
// Landlock domain cannot unmount the cover. An entry that holds the root is
// left readable (it would hide the workspace) and listed in
// Status.Unprotected, as are all Hidden paths without a mount namespace.
//
// Paths: Spec paths are cleaned lexically (so "a/../b" is "b"), made
// absolute (relative to Root, "~/" to the home directory), then every symlink
// in them is resolved before rules and mounts are made: a protected symlink
// protects its target, wherever it points.
//
// # Limits
//
//   - A protected path that does not exist is not created (nothing is added
//     to the user's tree) and is listed in Status.Unprotected: creating it,
//     say .claude/ or a missing .git/hooks/, is left to the static policy.
//   - A protected path that is itself a symlink: its target is read-only, but
//     the link lives in a writable directory and can be replaced (warned).
//   - Hard links: Landlock and mounts protect paths, not inodes. New links to
//     a protected file fail (EXDEV: it sits on another mount), but a link made
//     before Apply, elsewhere in a writable tree, writes the protected file;
//     Apply names such files (link count above one) in Status.Warnings.
//   - Root in the tree keeps its capabilities: open_by_handle_at
//     (CAP_DAC_READ_SEARCH) can reopen a protected file through a writable
//     mount of its file system; dropping capabilities is the caller's job.
//   - Landlock does not restrict chmod, chown, utime or setxattr, nor files
//     opened before Apply (inherited descriptors stay writable).
//   - What a writable UNIX socket's server does (a Docker daemon, say) is
//     outside the tree and not confined.
//   - Without CAP_SYS_ADMIN (gate not run as root), [SysProcAttr] puts the
//     helper in a user namespace of its own, where it is root and may mount
//     (Status.UserNS); the command runs in a nested one as the user again
//     ([CommandAttr], Spec.AsUser), and files of other users show as the
//     overflow user (nobody) there. The helper writes the nested
//     namespace's maps after Landlock is in force, so /proc is writable in
//     that case (the command is not root: /proc/sys stays root's). Where
//     the kernel refuses unprivileged user namespaces there is no mount
//     namespace: Landlock still confines writes to the writable paths, and
//     protected paths inside them, and hidden paths (for reads), rely on
//     the static policy.
//   - Tool caches outside the root (GOCACHE, ~/.npm) are not writable unless
//     listed in Spec.Writable (gate.sandbox.writable).
package confine
