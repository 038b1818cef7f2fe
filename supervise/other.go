//go:build !linux

package supervise

// Available reports whether exec supervision works here: only on Linux.
func Available() (bool, string) { return false, "exec supervision needs Linux (ptrace)" }

// HelperMain is the helper's entry point; it does not run here.
func HelperMain(HelperOptions) int { return 125 }
