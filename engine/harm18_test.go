package engine

import "testing"

// TestDeclarationBuiltinsAsCallsRealBash: what rt35 found. A declaration
// builtin (declare, typeset, local, export, readonly) whose name is quoted,
// escaped or follows builtin/command is parsed as a plain call, not as a
// declaration, and its NAME=VALUE words went unread; bash runs it alike,
// evaluating subscripts and arithmetic in them and setting variables that
// run code.
func TestDeclarationBuiltinsAsCallsRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: `'declare' -i x='a[$(rm victim.txt)]'`},
		{command: `\declare -i 'x=a[$(rm victim.txt)]'`},
		{command: `command declare 'a[$(rm victim.txt)]=1'`},
		{command: `builtin declare -i x; x='a[$(rm victim.txt)]'`},
		{command: `f() { 'local' 'a[$(rm victim.txt)]=1'; }; f`},
		{command: `'typeset' -n r='a[$(rm victim.txt)]'; echo $r`},
		{command: `declare -n 'r=a[$(rm victim.txt)]'; echo $r`},
		{command: `builtin readonly RANDOM='a[$(rm victim.txt)]'`},
		{command: `declare 'RANDOM=a[$(rm victim.txt)]'`},
		{command: `'declare' 'BASH_CMDS[ls]=/bin/rm'; ls victim.txt`},
		{command: `'export' BASH_ENV=./x.sh; bash -c true`, setup: `echo 'rm victim.txt' > x.sh`},
	})
	allowedStill(t, `command export FOO=bar; echo $FOO`, `'declare' -i n=5; echo $n`, `declare -n r=x; echo $r`, `builtin declare -a a; echo ok`)
}
