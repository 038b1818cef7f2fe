package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// remote evaluates decisions on a running OPA server through its Data API
// instead of the embedded engine: POST {url}/v1/data/gate/decision with
// the input. gate's settings index is pushed under its own key,
// {url}/v1/data/gate/settings_by_key/{key}, before the first decision (and
// again after a failure, or when the server says it lacks them), and the
// input names the key: gates with different settings can share a server,
// each deciding with its own. With KeepSettings nothing is pushed and the
// input names no key: the server's data.gate.default_settings_key does.
type remote struct {
	url    string
	push   bool
	client *http.Client

	mu     sync.Mutex
	pushed bool
}

// RemoteOptions make an Engine decide on a remote OPA server.
type RemoteOptions struct {
	// URL is the OPA server's base URL (http://127.0.0.1:8181).
	URL string
	// KeepSettings leaves data.gate.settings as the server has it instead
	// of pushing gate's own.
	KeepSettings bool
	// Token, when set, is sent as a bearer token.
	Token string
}

type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func newRemote(o RemoteOptions) *remote {
	var rt http.RoundTripper = http.DefaultTransport
	if o.Token != "" {
		rt = bearerTransport{o.Token, rt}
	}
	return &remote{url: strings.TrimSuffix(o.URL, "/"), push: !o.KeepSettings, client: &http.Client{Transport: rt}}
}

func (r *remote) do(ctx context.Context, method, path string, body any, out any) error {
	bs, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, r.url+path, bytes.NewReader(bs))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(data)))
	}
	if out == nil {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(out)
}

// pushSettings puts the settings index on the server once.
func (r *remote) pushSettings(ctx context.Context, idx *index) error {
	if !r.push {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pushed {
		return nil
	}
	if err := r.do(ctx, http.MethodPut, "/v1/data/gate/settings_by_key/"+idx.key, idx, nil); err != nil {
		return err
	}
	r.pushed = true
	return nil
}

func (r *remote) repush() {
	r.mu.Lock()
	r.pushed = false
	r.mu.Unlock()
}

// evaluate asks the server for the decision; any failure denies.
func (r *remote) evaluate(ctx context.Context, e *Engine, in *Input) Decision {
	return r.evaluateAt(ctx, e, Query, "/v1/data/gate/decision", in)
}

// evaluateExec asks the server for the exec-time decision.
func (r *remote) evaluateExec(ctx context.Context, e *Engine, in *ExecInput) Decision {
	return r.evaluateAt(ctx, e, ExecQuery, "/v1/data/gate/exec/decision", in)
}

func (r *remote) evaluateAt(ctx context.Context, e *Engine, query, path string, in any) Decision {
	d := r.evaluateOnce(ctx, e, query, path, in)
	if r.push && slices.ContainsFunc(d.Reasons, func(x Reason) bool { return x.Code == string(CodeBadSettings) }) && ctx.Err() == nil {
		// The server lost the settings (restarted, or they were deleted):
		// push them again, once.
		r.repush()
		d = r.evaluateOnce(ctx, e, query, path, in)
	}
	return d
}

func (r *remote) evaluateOnce(ctx context.Context, e *Engine, query, path string, in any) Decision {
	if err := r.pushSettings(ctx, e.idx); err != nil {
		return DenyWith(CodeRemoteUnavailable, "the remote decision point "+r.url+" cannot be reached: "+err.Error())
	}
	var out struct {
		Result any `json:"result"`
	}
	if err := r.do(ctx, http.MethodPost, path, map[string]any{"input": in}, &out); err != nil {
		if ctx.Err() != nil {
			return DenyWith(CodeEvalTimeout, fmt.Sprintf("the remote decision point did not answer within %s", e.timeout))
		}
		// The server may have restarted without the settings.
		r.repush()
		return DenyWith(CodeRemoteUnavailable, "the remote decision point "+r.url+" failed: "+err.Error())
	}
	if out.Result == nil {
		return DenyWith(CodePolicyUndefined, query+" is undefined on the remote decision point "+r.url)
	}
	d, err := decodeDecisionOf(query, out.Result)
	if err != nil {
		return DenyWith(CodePolicyError, "remote decision point: "+err.Error())
	}
	return d
}
