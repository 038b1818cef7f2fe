package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTwentiethRoundRealBash: more of what rt35 found, each run for real:
//   - sudo -k (--reset-timestamp) with a command runs it;
//   - rzsh and the KornShell's other names are shells;
//   - fakeroot and sg given no command start a shell that reads stdin;
//   - ninja -f /dev/stdin, groff -U's .sy requests;
//   - a program named by an option gets the files searched as its
//     arguments (rg --pre=PROG, git grep -OPROG);
//   - a program gate does not know may read commands from its input.
func TestTwentiethRoundRealBash(t *testing.T) {
	runHarm(t, []harmCase{
		{command: "rzsh <<< 'rm victim.txt'", tools: []string{"rzsh"}},
		{command: "echo 'rm victim.txt' | rzsh", tools: []string{"rzsh"}},
		{command: "fakeroot <<< 'rm victim.txt'", tools: []string{"fakeroot"}},
		{command: "echo 'rm victim.txt' | fakeroot-sysv", tools: []string{"fakeroot-sysv"}},
		{command: "sg root <<< 'rm victim.txt'", tools: []string{"sg"}},
		{command: "ninja -f /dev/stdin <<< $'rule r\\n  command = rm victim.txt\\nbuild x: r\\n'", tools: []string{"ninja"}},
		{command: "groff -U -z <<< '.sy rm victim.txt'", tools: []string{"groff"}},
		{command: "printf '.pso rm victim.txt\\n' | nroff -U", tools: []string{"nroff"}},
		{command: "echo victim.txt > rm; rg --pre=xargs x rm", tools: []string{"rg"}},
		// a nameref bound without a value refers to the variable its
		// current value, or the next one read into it, names
		{command: `r='a[$(rm victim.txt)]'; declare -n r; echo $r`},
		{command: `declare -n r; read r <<< 'a[$(rm victim.txt)]'; echo "$r"`},
		{command: `f() { local -n r; r='a[$(rm victim.txt)]'; : "$r"; }; f`},
		// keys of an unread section renamed into alias or core
		{command: `git config x.st '!rm victim.txt' && git config --rename-section x alias && git st`, setup: harmRepo, tools: []string{"git"}},
		{command: `git config x.fsmonitor 'rm victim.txt' && git config --rename x core && git status`, setup: harmRepo, tools: []string{"git"}},
		// run-parts runs what a system directory holds
		{command: `run-parts --regex '^rm$' -a victim.txt /usr/bin`, tools: []string{"run-parts"}},
	})
	// git receive-pack moves the refs of the repository it names, fed a
	// pack on stdin (the fs layer keeps it out of an origin outside the
	// root)
	refusedStill(t, "git receive-pack ../remote.git", `git shell -c "git-receive-pack '../remote.git'"`)
	// sudo asks for a password here: its reading is checked statically,
	// with sudo itself allowed
	decidedAs(t, newTestEngine(t, exclude("run_shell_command(rm)")), Deny, "sudo -k rm victim.txt", "sudo --reset-timestamp rm victim.txt", "sudo -ku root rm victim.txt")
	// git passes the pager of grep -O the files found, difftool -x two
	refusedStill(t, "git grep -Ogit -e x -- push", "git grep --open-files-in-pager=git -e x push", "git difftool -x git HEAD", "rg --pre=git x push")
	allowedStill(t, "git grep -e x", "fakeroot make -v", "sg root -c ls", "groff -man -Tutf8 /dev/null", "ninja --version", "rg --pre=cat x")
}

// TestArrayIdiomsRealBash: the over-blocks rt35 found among ordinary
// array idioms, allowed now and run for real with keys that carry a
// payload (the payload never runs: an associative array's key is text, an
// indexed array's keys are numbers, a length is a number), and the forms
// that do evaluate a key, still refused.
func TestArrayIdiomsRealBash(t *testing.T) {
	payload := `read -r k <<< 'x[$(rm victim.txt)]'; `
	allowed := []string{
		`total=0; while read -r line; do total=$((total + ${#line})); done < victim.txt; echo $total`,
		`a=(x y z); for i in "${!a[@]}"; do echo "$i ${a[$i]}"; done`,
		`mapfile -t arr < victim.txt; for ((i=0; i<${#arr[@]}; i++)); do echo "${arr[$i]}"; done`,
		`mapfile -t arr < victim.txt; for i in "${!arr[@]}"; do echo "$i: ${arr[i]}"; done`,
		`declare -A m=([a]=1 [b]=2); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done`,
		`declare -A seen; for f in *; do [[ -n ${seen[$f]} ]] || seen[$f]=1; done; echo ${#seen[@]}`,
		`declare -A count; while read -r w; do count[$w]=1; done < victim.txt; echo ${#count[@]}`,
		`declare -A m; ` + payload + `m[$k]=1; echo "${m[$k]}"`,
		`declare -A m; ` + payload + `m[$k]=1; for j in "${!m[@]}"; do echo "${m[$j]}"; done`,
		payload + `echo $(( ${#k} + 1 ))`,
	}
	allowedStill(t, allowed...)
	for _, c := range allowed {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "victim.txt"), []byte("v\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "-c", c)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v %s", c, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "victim.txt")); err != nil {
			t.Errorf("%s: allowed, and it deleted victim.txt", c)
		}
	}
	runHarm(t, []harmCase{
		{command: payload + `echo "${m[$k]}"`},
		{command: payload + `false && declare -A m; echo "${m[$k]}"`},
		{command: payload + `declare -A m; unset m; m[$k]=1`},
		{command: payload + `declare -A m; f() { local m; m[$k]=1; }; f`},
		{command: payload + `declare -A m; let "m[$k]++"`},
		{command: `declare -A m=(["x[\$(rm victim.txt)]"]=1); for i in "${!m[@]}"; do echo "${a[$i]}"; done`},
		// rt38: a declare -A that does not make the array associative,
		// or one bash runs elsewhere; keys and elements read otherwise
		{command: payload + `declare -pA m; m[$k]=1`},
		{command: payload + `export -A m; m[$k]=1`},
		{command: payload + `m[0]=1; declare -A m; m[$k]=1`},
		{command: payload + `declare -A PIPESTATUS; echo "${PIPESTATUS[$k]}"`},
		{command: payload + `declare -A m & wait; m[$k]=1`},
		{command: `declare -A m; bash -c 'read -r k <<< "x[\$(rm victim.txt)]"; m[$k]=1'`},
		{command: `declare -A m x="$(` + payload + `m[$k]=1)"`},
		{command: payload + `declare -n r=m; declare -A r; m=("$k" 1); for i in "${!m[@]}"; do echo "${a[$i]}"; done`},
		{command: payload + `declare -A m; m[$k]=1; echo $(( ${!m[@]} ))`},
		{command: payload + `a=("$k"); echo "${!a[0]}"`},
		{command: `echo $(( ${BASH_EXECUTION_STRING:44:19} )) #x[$(rm victim.txt)]`},
	})
}

// TestInteractiveNeverIsForce: rm --interactive=never (no, none, any
// abbreviation of the option) is rm -f to an exclude of rm -rf (rt35).
func TestInteractiveNeverIsForce(t *testing.T) {
	e := newTestEngine(t, exclude("run_shell_command(rm -rf)"))
	decidedAs(t, e, Deny, "rm -r --interactive=never x", "rm -r --interactive=no x", "rm -r --inter=none x")
	decidedAs(t, e, Allow, "rm -r --interactive x", "rm -r --interactive=always x")
}

// TestStartupFilesDenied: files a shell sources at start (Debian's
// ~/.bashrc sources ~/.bash_aliases, bash-completion ~/.bash_completion)
// are denied like ~/.bashrc, not asked about as any write outside the
// root is (rt35).
func TestStartupFilesDenied(t *testing.T) {
	decidedAs(t, newTestEngine(t, exclude("run_shell_command(rm)")), Deny,
		"echo 'alias ls=rm' >> ~/.bash_aliases", "dd of=~/.bash_completion if=victim.txt", "cp victim.txt ~/.zlogout")
}
