package engine

import (
	"errors"
	"net/http"
)

// Code is a stable, snake_case code from gate's one vocabulary. Codes name
// decision reasons (from the policies) and errors (from gate itself); the
// same code appears in JSON output, HTTP responses, exit statuses and the
// reason label of metrics.
type Code string

// Decision reason codes produced by the default policies.
const (
	CodeAllowed           Code = "allowed"
	CodeToolUnknown       Code = "tool_unknown"
	CodeToolNotEnabled    Code = "tool_not_enabled"
	CodeToolExcluded      Code = "tool_excluded"
	CodeShellDisabled     Code = "shell_disabled"
	CodeParseError        Code = "parse_error"
	CodeCommandExcluded   Code = "command_excluded"
	CodeCommandNotAllowed Code = "command_not_allowed"
	CodeCommandUnprovable Code = "command_unprovable"
	CodeCommandReview     Code = "command_review"
	CodeCommandEquivalent Code = "command_equivalent"
	CodePathProtected     Code = "path_protected"
	CodePathSensitive     Code = "path_sensitive"
	CodePathOutsideRoot   Code = "path_outside_root"
	CodePathUnknown       Code = "path_unknown"
	CodeApprovalRequired  Code = "approval_required"
	// CodeCommandTooComplex: a command over the parser's limits (length,
	// segments, nesting depth, time); it is denied unread.
	CodeCommandTooComplex Code = "command_too_complex"
	// CodeApprovalUnavailable: the policy asked, and nobody can answer on
	// this route (no elicitation, no approvals queue).
	CodeApprovalUnavailable Code = "approval_unavailable"
)

// Codes for failures; a decision that fails is a deny with one of these.
const (
	CodePolicyError     Code = "policy_error"
	CodePolicyUndefined Code = "policy_undefined"
	CodeEvalTimeout     Code = "eval_timeout"
	CodeInvalidCall     Code = "invalid_call"
	CodeBadSettings     Code = "bad_settings"
	CodeBadPolicy       Code = "bad_policy"
	CodeInternal        Code = "internal_error"
	// CodeRemoteUnavailable: the remote decision point (an OPA server)
	// could not be reached or failed.
	CodeRemoteUnavailable Code = "remote_unavailable"
	// CodeCustom stands for reason codes of user policies in metric labels,
	// which must come from a bounded set.
	CodeCustom Code = "custom"
)

// Codes for the gateway's own refusals (HTTP API, gate exec).
const (
	// CodeDenied: the policy did not allow the call, so it did not run.
	CodeDenied Code = "denied"
	// CodeUnauthorized: a request without the server's bearer token.
	CodeUnauthorized Code = "unauthorized"
	// CodeNotFound: no such endpoint or background process.
	CodeNotFound Code = "not_found"
	// CodeRequestTooLarge: a request body over the server's limit.
	CodeRequestTooLarge Code = "request_too_large"
	// CodeNotReady: the server has no compiled policy yet.
	CodeNotReady Code = "not_ready"
	// CodeUnsupportedMediaType: a request body that is not
	// Content-Type: application/json.
	CodeUnsupportedMediaType Code = "unsupported_media_type"
	// CodeHostNotAllowed: a request whose Host header names neither a
	// loopback name nor one the operator configured (DNS rebinding).
	CodeHostNotAllowed Code = "host_not_allowed"
	// CodeOriginNotAllowed: a request from a browser page (an Origin
	// header) the operator did not configure.
	CodeOriginNotAllowed Code = "origin_not_allowed"
	// CodeOverloaded: every call slot and queue place is taken; retry
	// after the Retry-After header's seconds.
	CodeOverloaded Code = "overloaded"
	// CodeLimitReached: a bounded resource is full (open sessions, pending
	// approvals, a session's size); the message names the limit.
	CodeLimitReached Code = "limit_reached"
	// CodeRequestTimeout: a request body that did not arrive in time.
	CodeRequestTimeout Code = "request_timeout"
	// CodeHeadersTooLarge: request headers over the server's limit.
	CodeHeadersTooLarge Code = "headers_too_large"
	// CodeSessionsDisabled: interactive sessions asked for while
	// tools.shell.enableInteractiveShell is off.
	CodeSessionsDisabled Code = "sessions_disabled"
	// CodeEnforcementUnavailable: an enforcement layer the settings
	// require (gate.enforcement.require: exec, fs) is not active on this
	// machine, or a command came without its exec decider: the command is
	// not run. HTTP 503 (the machine, not the call, is at fault); gate
	// exec exits ExitEnforcement.
	CodeEnforcementUnavailable Code = "enforcement_unavailable"
	// CodeConfigMismatch: a hook asked a server whose configuration is
	// not the hook's (see engine.Options.Identity); the hook decides
	// itself.
	CodeConfigMismatch Code = "config_mismatch"
)

var known = map[Code]bool{}

func init() {
	for _, c := range []Code{CodeAllowed, CodeToolUnknown, CodeToolNotEnabled, CodeToolExcluded, CodeShellDisabled,
		CodeParseError, CodeCommandExcluded, CodeCommandNotAllowed, CodeCommandUnprovable, CodeCommandReview,
		CodeCommandEquivalent, CodePathProtected, CodePathSensitive, CodePathOutsideRoot, CodePathUnknown,
		CodeApprovalRequired, CodePolicyError, CodePolicyUndefined, CodeEvalTimeout, CodeInvalidCall,
		CodeBadSettings, CodeBadPolicy, CodeInternal, CodeRemoteUnavailable, CodeCustom, CodeDenied, CodeUnauthorized, CodeNotFound,
		CodeRequestTooLarge, CodeNotReady, CodeCommandTooComplex, CodeApprovalUnavailable, CodeUnsupportedMediaType,
		CodeHostNotAllowed, CodeOriginNotAllowed, CodeOverloaded, CodeLimitReached, CodeRequestTimeout,
		CodeHeadersTooLarge, CodeSessionsDisabled, CodeEnforcementUnavailable, CodeConfigMismatch} {
		known[c] = true
	}
}

// Bounded maps any code to itself when it is one of gate's, and to
// CodeCustom otherwise, for use as a metric label.
func Bounded(code string) Code {
	if known[Code(code)] {
		return Code(code)
	}
	return CodeCustom
}

// Error is an error with a code from the vocabulary.
type Error struct {
	Code    Code
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Message == "" {
		return e.Err.Error()
	}
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches an *Error with the same code, so errors.Is(err,
// &Error{Code: CodeInvalidCall}) tests the code.
func (e *Error) Is(target error) bool {
	var t *Error
	return errors.As(target, &t) && t.Code == e.Code
}

// CodeOf returns the code of err, or CodeInternal.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

func errorf(code Code, msg string, err error) *Error {
	return &Error{Code: code, Message: msg, Err: err}
}

// Exit statuses of the gate command. A decision, even a deny, exits 0.
// gate exec exits with the command's own status, or ExitDenied when the
// command was not allowed to run.
const (
	ExitOK       = 0
	ExitInternal = 1
	ExitUsage    = 2
	// ExitDenied follows the shell's "found but cannot execute".
	ExitDenied = 126
	// ExitEnforcement: a required enforcement layer is not active, the
	// command did not run (CodeEnforcementUnavailable).
	ExitEnforcement = 6
)

// ExitCode maps a code to the gate command's exit status.
func ExitCode(c Code) int {
	switch c {
	case CodeBadSettings:
		return 3
	case CodeBadPolicy:
		return 4
	case CodeInvalidCall, CodeToolUnknown:
		return 5
	case CodeDenied:
		return ExitDenied
	case CodeEnforcementUnavailable:
		return ExitEnforcement
	default:
		return ExitInternal
	}
}

// HTTPStatus maps a code to the HTTP status of an error response.
func HTTPStatus(c Code) int {
	switch c {
	case CodeInvalidCall, CodeToolUnknown:
		return http.StatusBadRequest
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeDenied, CodeHostNotAllowed, CodeOriginNotAllowed, CodeSessionsDisabled:
		return http.StatusForbidden
	case CodeUnsupportedMediaType:
		return http.StatusUnsupportedMediaType
	case CodeOverloaded:
		return http.StatusServiceUnavailable
	case CodeLimitReached:
		return http.StatusTooManyRequests
	case CodeRequestTimeout:
		return http.StatusRequestTimeout
	case CodeHeadersTooLarge:
		return http.StatusRequestHeaderFieldsTooLarge
	case CodeNotFound:
		return http.StatusNotFound
	case CodeRequestTooLarge:
		return http.StatusRequestEntityTooLarge
	case CodeNotReady, CodeEnforcementUnavailable:
		return http.StatusServiceUnavailable
	case CodeConfigMismatch:
		return http.StatusConflict
	default:
		return http.StatusInternalServerError
	}
}
