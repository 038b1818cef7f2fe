package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
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

The server is --server (default $GATE_SERVER or http://127.0.0.1:8787); the
bearer token, when the server needs one, comes from $GATE_TOKEN. Every answer
is counted in gate_approvals_total and logged with who gave it.`

func (a *app) approvalsCommand() *cobra.Command {
	var (
		serverURL, by, reason string
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
			serverURL = strings.TrimSuffix(serverURL, "/")
			if by == "" {
				by = os.Getenv("USER")
			}
			switch {
			case len(args) == 0 || (len(args) == 1 && args[0] == "list"):
				return a.listApprovals(serverURL)
			case len(args) == 2 && (args[0] == "approve" || args[0] == "deny"):
				body, _ := json.Marshal(map[string]any{"by": by, "reason": reason, "always": always && args[0] == "approve"})
				var out struct {
					ID      string   `json:"id"`
					Outcome string   `json:"outcome"`
					Rules   []string `json:"rules"`
				}
				if err := apiCall("POST", serverURL+"/v1/approvals/"+args[1]+"/"+args[0], body, &out); err != nil {
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
				if err := apiCall("GET", serverURL+"/v1/rules", nil, &out); err != nil {
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
				if err := apiCall("DELETE", serverURL+"/v1/rules?entry="+neturl.QueryEscape(args[1])+"&by="+neturl.QueryEscape(by), nil, &out); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "revoked %s\n", out["revoked"])
				return nil
			}
			return usagef("approvals takes no argument, list, approve ID, deny ID, rules or revoke ENTRY")
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", "", "gate's `URL`")
	cmd.Flags().StringVar(&by, "by", "", "who answers, for the log (default $USER)")
	cmd.Flags().StringVar(&reason, "reason", "", "why, for the log and the agent")
	cmd.Flags().BoolVar(&always, "always", false, "with approve: allow such commands from now on (a persisted, revocable rule per program)")
	return cmd
}

func (a *app) listApprovals(serverURL string) error {
	var out struct {
		Approvals []struct {
			ID       string          `json:"id"`
			Tool     string          `json:"tool"`
			Args     map[string]any  `json:"args"`
			Decision engine.Decision `json:"decision"`
			Expires  time.Time       `json:"expires"`
		} `json:"approvals"`
	}
	if err := apiCall("GET", serverURL+"/v1/approvals", nil, &out); err != nil {
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

// apiCall calls gate's HTTP API and decodes the JSON answer into out.
func apiCall(method, url string, body []byte, out any) error {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return usagef("bad server URL: %v", err)
	}
	if t := os.Getenv("GATE_TOKEN"); t != "" {
		req.Header.Set("Authorization", "Bearer "+t)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return &engine.Error{Code: engine.CodeInternal, Message: "cannot reach gate at " + url, Err: err}
	}
	defer resp.Body.Close()
	bs, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct {
				Code    engine.Code `json:"code"`
				Message string      `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(bs, &e) == nil && e.Error.Code != "" {
			return &engine.Error{Code: e.Error.Code, Message: e.Error.Message}
		}
		return &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("%s %s: %s", method, url, resp.Status)}
	}
	return json.Unmarshal(bs, out)
}
