# METADATA
# title: decision log mask
# description: |
#   What gate's decision logs leave out, as OPA's system.log.mask does: the
#   input of this policy is the decision log event, and each result is a
#   JSON pointer to erase ("/input/args/content") or an object
#   {"op": "upsert", "path": ..., "value": ...} that replaces a value.
#   Add rules in package system.log of a --policy directory to mask more.
package system.log

# File contents and edits can be large or secret: they are erased.
mask contains "/input/args/content" if input.input.args.content

mask contains "/input/args/old_string" if input.input.args.old_string

mask contains "/input/args/new_string" if input.input.args.new_string

mask contains "/input/change/diff" if input.input.change.diff

# Values given to *_TOKEN variables in a command are replaced, and the
# parsed segments, which repeat them, are erased.
_token := `([A-Za-z_][A-Za-z0-9_]*_TOKEN)=("[^"]*"|'[^']*'|[^\s;&|]*)`

mask contains {"op": "upsert", "path": "/input/args/command", "value": regex.replace(input.input.args.command, _token, "$1=***")} if {
	regex.match(_token, input.input.args.command)
}

mask contains {"op": "upsert", "path": "/input/shell/command", "value": regex.replace(input.input.shell.command, _token, "$1=***")} if {
	regex.match(_token, input.input.shell.command)
}

mask contains "/input/shell/segments" if regex.match(_token, input.input.shell.command)
