package main

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/gate-dev/gate/engine"
)

const parseLong = `Print the input document the policies see for a call: for a shell command,
its segments (argv, dynamic words, options, path, redirections, context,
findings) and the lookup keys; for file tools, the resolved paths. With --data,
print {"input": ..., "settings": ...} where settings is data.gate.settings, the
index of the Qwen Code settings the policies look entries up in.`

func (a *app) parseCommand() *cobra.Command {
	var command, call string
	var data bool
	cmd := &cobra.Command{
		Use:     "parse (--command CMD | --call FILE)",
		Short:   "Print the structured request the policies see (for policy authors)",
		Long:    parseLong,
		Example: "  gate parse --command 'sudo -u root rm -rf /tmp/x | tee log'",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("command") == cmd.Flags().Changed("call") {
				return usagef("parse needs exactly one of --command or --call")
			}
			e, err := a.newEngine(cmd.Context())
			if err != nil {
				return err
			}
			c := engine.Call{Tool: engine.ToolShell, Args: map[string]any{"command": command}}
			if cmd.Flags().Changed("call") {
				r, err := a.readInput(call)
				if err != nil {
					return err
				}
				defer r.Close()
				bs, err := io.ReadAll(r)
				if err != nil {
					return err
				}
				if c, _, err = decodeCall(bs); err != nil {
					return err
				}
			}
			in, err := e.Input(c)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(a.stdout)
			enc.SetIndent("", "  ")
			if data {
				return enc.Encode(map[string]any{"input": in, "settings": e.SettingsData()})
			}
			return enc.Encode(in)
		},
	}
	cmd.Flags().StringVar(&command, "command", "", "parse this shell `command`")
	cmd.Flags().StringVar(&call, "call", "", "parse the call in `file` (- for stdin)")
	cmd.Flags().BoolVar(&data, "data", false, "also print data.gate.settings")
	return cmd
}
