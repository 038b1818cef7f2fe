package server

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// secretMasks find the secrets gate masks in every string of a decision
// log event's input and result, besides what data.system.log.mask masks:
// authorization headers, values of variables and options whose names say
// they are secret, and passwords in URLs. Group 1 is kept, group 2 is the
// secret, group 3 is kept.
var secretMasks = []*regexp.Regexp{
	// Authorization: Bearer xyz, Authorization: Basic xyz; Bearer xyz.
	regexp.MustCompile(`(?i)(authorization\s*[:=]\s*(?:(?:bearer|basic|token|digest)\s+)?)([^\s'"]+)()`),
	regexp.MustCompile(`(?i)(\bbearer\s+)([A-Za-z0-9._~+/=-]+)()`),
	// NAME=value where NAME holds PASSWORD, PASSWD, SECRET, TOKEN, API_KEY,
	// ACCESS_KEY, PRIVATE_KEY (AWS_SECRET_ACCESS_KEY, DB_PASSWORD, ...).
	regexp.MustCompile(`(?i)(\b[A-Za-z_][A-Za-z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)[A-Za-z0-9_]*=)("[^"]*"|'[^']*'|[^\s;&|'"]*)()`),
	// --password=value, --token=value, --client-secret=value.
	regexp.MustCompile(`(?i)(--?[a-z0-9-]*(?:password|passwd|secret|token|api-key)=)("[^"]*"|'[^']*'|[^\s;&|'"]*)()`),
	// scheme://user:password@host (also once a path cleaned it to scheme:/).
	regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*:/{1,2}[^/\s:@'"]*:)([^@\s/'"]+)(@)`),
}

const secretMask = "***"

// minSecret is the shortest secret also masked where it is repeated
// outside its context (a parsed assignment's value, a path's keys).
const minSecret = 3

// maskString masks the secrets in s, in their context.
func maskString(s string) string {
	for _, re := range secretMasks {
		s = re.ReplaceAllString(s, "${1}"+secretMask+"${3}")
	}
	return s
}

// findSecrets adds the secrets s holds to set, with and without quotes.
func findSecrets(s string, set map[string]bool) {
	for _, re := range secretMasks {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			v := m[2]
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				set[v] = true
				v = v[1 : len(v)-1]
			}
			if len(v) >= minSecret && v != secretMask {
				set[v] = true
			}
		}
	}
}

// maxMaskedPaths bounds the pointers an event lists in "masked".
const maxMaskedPaths = 32

// maskSecrets masks secrets in every string of the event's input and
// result, where they appear in context and wherever their values are
// repeated (parsed segments, assignments, path keys), and lists the
// pointers it changed in Masked.
func maskSecrets(ev *DecisionEvent) {
	secrets := map[string]bool{}
	eachString(ev, func(_ string, s string) string { findSecrets(s, secrets); return s })
	values := make([]string, 0, len(secrets))
	for v := range secrets {
		values = append(values, v)
	}
	// Longest first, so that a quoted value goes before its contents.
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	eachString(ev, func(path, s string) string {
		m := maskString(s)
		for _, v := range values {
			m = strings.ReplaceAll(m, v, secretMask)
		}
		if m != s && len(ev.Masked) < maxMaskedPaths && !slices.Contains(ev.Masked, path) {
			ev.Masked = append(ev.Masked, path)
		}
		return m
	})
}

// eachString replaces every string of the event's input and result with
// what f returns for it (f gets its JSON pointer).
func eachString(ev *DecisionEvent, f func(path, s string) string) {
	var walk func(v any, path string) any
	walk = func(v any, path string) any {
		switch v := v.(type) {
		case string:
			return f(path, v)
		case map[string]any:
			for k, x := range v {
				v[k] = walk(x, path+"/"+escapePointer(k))
			}
		case []any:
			for i, x := range v {
				v[i] = walk(x, path+"/"+strconv.Itoa(i))
			}
		}
		return v
	}
	ev.Input = walk(ev.Input, "/input")
	ev.Result = walk(ev.Result, "/result")
}

// escapePointer escapes a key as a JSON pointer token (RFC 6901).
func escapePointer(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
