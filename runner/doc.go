// Package runner runs run_shell_command calls the way Qwen Code does: bash -c
// (cmd.exe /c on Windows) in a process group of its own, with QWEN_CODE=1 and
// GATE=1 in the environment, bounded output, a timeout that takes the whole
// process group down, and the processes the command left running reported
// by PID. Background calls (is_background) are tracked so that they can be
// listed, read and stopped.
//
// The runner does not decide anything: callers run only what the engine
// allowed.
package runner
