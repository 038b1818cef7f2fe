package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/server"
)

const approvalsLong = `List the calls waiting for a human's answer on a running gate (gate serve,
or gate mcp --approvals-listen), and approve or deny them:

  gate approvals                      list them
  gate approvals approve ID [--by ME] let one run
  gate approvals approve ID --always  let it run, and such commands from now on
  gate approvals deny ID [--reason R] refuse it
  gate approvals rules                the persisted "always allow" rules
  gate approvals revoke ENTRY         revoke one

"Always" adds one tools.allowed entry per program the command runs (its
leading words: "git status", "npm test"), never the whole command line, and
keeps them in .gate/allowed.json under the workspace root, where agents
cannot write.

The server is --server (default $GATE_SERVER or http://127.0.0.1:8787; unix:PATH
for a server on a unix socket). The bearer token comes from --token-file, then
$GATE_TOKEN, then the file gate serve keeps, ` + tokenFileHelp + `.
Every answer is counted in gate_approvals_total and logged with who gave it.`

func (a *app) approvalsCommand() *cobra.Command {
	var (
		serverURL, by, reason string
		tokenFile             string
		always                bool
	)
	cmd := &cobra.Command{
		Use:   "approvals [list | approve ID | deny ID | rules | revoke ENTRY]",
		Short: "List and answer calls waiting for approval",
		Long:  approvalsLong,
		Args:  cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if serverURL == "" {
				serverURL = os.Getenv("GATE_SERVER")
			}
			if serverURL == "" {
				serverURL = "http://127.0.0.1:8787"
			}
			token, err := clientToken(tokenFile)
			if err != nil {
				return err
			}
			api := newAPIClient(serverURL, token)
			if by == "" {
				by = os.Getenv("USER")
			}
			switch {
			case len(args) == 0 || (len(args) == 1 && args[0] == "list"):
				return a.listApprovals(api)
			case len(args) == 2 && (args[0] == "approve" || args[0] == "deny"):
				body, _ := json.Marshal(map[string]any{"by": by, "reason": reason, "always": always && args[0] == "approve"})
				var out struct {
					ID      string   `json:"id"`
					Outcome string   `json:"outcome"`
					Rules   []string `json:"rules"`
				}
				if err := api.call("POST", "/v1/approvals/"+neturl.PathEscape(args[1])+"/"+args[0], body, &out); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s %s\n", out.ID, out.Outcome)
				for _, r := range out.Rules {
					fmt.Fprintf(a.stdout, "always allowed from now on: %s\n", r)
				}
				return nil
			case len(args) == 1 && args[0] == "rules":
				var out struct {
					Rules []struct {
						Entry, By, Command string
						Created            time.Time
					} `json:"rules"`
					File string `json:"file"`
				}
				if err := api.call("GET", "/v1/rules", nil, &out); err != nil {
					return err
				}
				if len(out.Rules) == 0 {
					fmt.Fprintln(a.stdout, "No always-allow rules.")
				}
				for _, r := range out.Rules {
					fmt.Fprintf(a.stdout, "%s  (by %s, %s, from %q)\n", r.Entry, r.By, r.Created.Format(time.RFC3339), r.Command)
				}
				return nil
			case len(args) == 2 && args[0] == "revoke":
				var out map[string]string
				if err := api.call("DELETE", "/v1/rules?entry="+neturl.QueryEscape(args[1])+"&by="+neturl.QueryEscape(by), nil, &out); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "revoked %s\n", out["revoked"])
				return nil
			}
			return usagef("approvals takes no argument, list, approve ID, deny ID, rules or revoke ENTRY")
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", "", "gate's `URL` (or unix:PATH)")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "`file` holding the server's bearer token (default: $GATE_TOKEN, then "+tokenFileHelp+")")
	cmd.Flags().StringVar(&by, "by", "", "who answers, for the log (default $USER)")
	cmd.Flags().StringVar(&reason, "reason", "", "why, for the log and the agent")
	cmd.Flags().BoolVar(&always, "always", false, "with approve: allow such commands from now on (a persisted, revocable rule per program)")
	return cmd
}

func (a *app) listApprovals(api *apiClient) error {
	var out struct {
		Approvals []struct {
			ID       string          `json:"id"`
			Tool     string          `json:"tool"`
			Args     map[string]any  `json:"args"`
			Decision engine.Decision `json:"decision"`
			Expires  time.Time       `json:"expires"`
		} `json:"approvals"`
	}
	if err := api.call("GET", "/v1/approvals", nil, &out); err != nil {
		return err
	}
	if len(out.Approvals) == 0 {
		fmt.Fprintln(a.stdout, "No calls are waiting for approval.")
		return nil
	}
	for _, p := range out.Approvals {
		args, _ := json.Marshal(p.Args)
		fmt.Fprintf(a.stdout, "%s  %s %s\n    %s (expires in %s)\n", p.ID, p.Tool, args, p.Decision.Reasons[0].Message,
			time.Until(p.Expires).Round(time.Second))
	}
	return nil
}

// apiClient calls gate's HTTP API, over TCP or a unix socket.
type apiClient struct {
	base, token string
	client      *http.Client
}

// newAPIClient returns a client of the server at url (http://HOST:PORT or
// unix:PATH) that sends token when it is set.
func newAPIClient(url, token string) *apiClient {
	c := &apiClient{base: strings.TrimSuffix(url, "/"), token: token, client: &http.Client{Timeout: 30 * time.Second}}
	if path, ok := strings.CutPrefix(url, "unix:"); ok {
		c.base = "http://localhost"
		c.client.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		}}
	}
	return c
}

// call sends a request (a JSON body when body is not nil) and decodes the
// JSON answer into out.
func (c *apiClient) call(method, path string, body []byte, out any) error {
	url := c.base + path
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return usagef("bad server URL: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return &engine.Error{Code: engine.CodeInternal, Message: "cannot reach gate at " + url, Err: err}
	}
	defer resp.Body.Close()
	bs, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if resp.StatusCode != http.StatusOK {
		var e server.ErrorBody
		if json.Unmarshal(bs, &e) == nil && e.Error.Code != "" {
			return &engine.Error{Code: e.Error.Code, Message: e.Error.Message}
		}
		return &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("%s %s: %s", method, url, resp.Status)}
	}
	return json.Unmarshal(bs, out)
}
