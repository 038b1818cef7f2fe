package shellparse

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Catalogue describes programs whose argv needs more than quote removal to be
// understood: wrappers that run another command, shells and interpreters that
// run code given as text, programs with options that take a value, and
// environment variables whose value is a command.
//
// gate ships a default catalogue as Rego data (policies/gate/catalogue/data.yaml,
// visible to policies as data.gate.catalogue); its JSON form is this struct.
type Catalogue struct {
	// Programs maps a program name (as resolved by [Segment.Program]) to its
	// description.
	Programs map[string]*ProgramSpec `json:"programs"`
	// EnvCommands lists environment variables whose value is a command line
	// that a program will run (GIT_SSH_COMMAND, PAGER, EDITOR, ...), as
	// names or shell patterns (*_PAGER). An assignment to one of them is
	// parsed as an inner script.
	EnvCommands []string `json:"env_commands"`
	// EditorCommands are the environment variables of EnvCommands and the
	// git keys of CommandKeys (lower case) whose command is given a file
	// name at run time (an editor: git config --edit runs
	// "$GIT_EDITOR" .git/config): the command is read with that word.
	EditorCommands []string `json:"editor_commands,omitempty"`
	// EnvUnprovable lists environment variables (path.Match patterns) whose
	// assignment makes the run unprovable: they load code from elsewhere
	// (BASH_ENV, LD_PRELOAD) or change how names resolve (PATH).
	EnvUnprovable []string `json:"env_unprovable"`
	// EnvInert lists variables (path.Match patterns) matched by
	// EnvUnprovable that are known not to change what runs (GIT_TRACE).
	EnvInert []string `json:"env_inert"`
	// EnvInertValues maps variables of EnvUnprovable to the words
	// (path.Match patterns) of values known to run nothing and name no
	// file (NODE_OPTIONS=--max-old-space-size=4096): a value made of
	// them alone is inert.
	EnvInertValues map[string][]string `json:"env_inert_values,omitempty"`
	// PromptVars lists variables whose value bash expands like a prompt string
	// (PS4 under xtrace, PROMPT_COMMAND): their literal value is parsed for
	// command substitutions.
	PromptVars []string `json:"prompt_vars"`
	// ShellOptions are the shell options gate models: set and shopt with
	// any other option are unprovable.
	ShellOptions ShellOptionsSpec `json:"shell_options"`
	// Readers lists programs outside Programs that never write the files
	// named by their operands. The operands of other programs the catalogue
	// does not describe may be written: running one of those files later in
	// the same command is unprovable.
	Readers []string `json:"readers"`
	// MakesNoFiles lists programs that create no file other than those
	// their write redirections and catalogue writes name: a program file
	// that does not exist yet cannot appear through them. Any other program
	// (tar, make, pip, a script) may create files under names gate does not
	// see.
	MakesNoFiles []string `json:"makes_no_files"`
	// RunsElsewhere lists wrappers that run their command in a directory of
	// their own choosing (git at the top of the work tree, ssh in a home
	// directory): a relative path in what they run names a file gate cannot
	// tell. An entry with options or words holds only when the wrapper is
	// given one of them (npm -w, su -).
	RunsElsewhere map[string]ElsewhereSpec `json:"runs_elsewhere"`
	// DataOperands lists programs outside Programs whose operands are
	// never run as commands (echo rm, grep sudo f, apt install git): their
	// segments get no MaybeRuns. Any other program the catalogue does not
	// describe may be a wrapper.
	DataOperands []string `json:"data_operands"`
	// Extractors lists programs that write files named inside a file they
	// read (tar x, unzip, cpio -i, patch): reading one that the same command
	// writes first, its writes are only known at run time (a .git/hooks/
	// member planted by the command itself).
	Extractors []string `json:"extractors"`
	// SubcommandWrappers maps programs outside Programs to the subcommands
	// after which their operands may be a command (docker run IMAGE CMD):
	// their MaybeRuns start after the first of these words, and there are
	// none without one (docker rm NAME).
	SubcommandWrappers map[string][]string `json:"subcommand_wrappers"`
	// ProjectRunners maps programs that find and run code in the working
	// directory by themselves (go test, cargo build, npm test, pytest,
	// make, node .) to the names or name endings of such files (".go",
	// "Makefile"): one the command writes before running them is
	// unprovable.
	ProjectRunners map[string][]string `json:"project_runners"`
	// ScriptLoads maps interpreters to the names or name endings of files
	// a script of the project they run may load: a module it imports, a
	// file it sources ("" for any name: a shell script may source .env).
	// One the command writes before running an existing script makes the
	// script's code unknown (python3 app.py after writing json.py runs
	// json.py when app.py imports json).
	ScriptLoads map[string][]string `json:"script_loads"`

	inlineRe map[string]*regexp.Regexp
	// sets of the lists above, made by Validate: membership is asked for
	// every segment of every decision.
	readers, makesNoFiles, dataOperands, extractors map[string]bool
}

// StdinScriptSpec describes a program that runs a shell script from stdin.
type StdinScriptSpec struct {
	// NoExecOptions list, remove or show jobs instead (at -l).
	NoExecOptions []string `json:"no_exec_options,omitempty"`
	// FileOptions name a script file read instead of stdin (at -f).
	FileOptions []string `json:"file_options,omitempty"`
}

// ShellOptionsSpec lists the options of set and shopt that do not change
// how bash reads or resolves commands.
type ShellOptionsSpec struct {
	// SetLetters are set's single-letter options (-e, +x).
	SetLetters string `json:"set_letters"`
	// SetNames are set -o names (and shopt -o names).
	SetNames []string `json:"set_names"`
	// Shopt are shopt option names.
	Shopt []string `json:"shopt"`
}

// ProgramSpec describes one program. Every field is optional.
type ProgramSpec struct {
	// OptionsWithValue lists options that consume the next word as their value
	// (unless written as --opt=value or -ovalue).
	OptionsWithValue []string `json:"options_with_value,omitempty"`
	// InertGlobalOptions are options before the subcommand that change
	// nothing an allowlist cares about (git -C DIR, --no-pager): a tools.core
	// or tools.allowed entry "git status" also matches git -C src status.
	InertGlobalOptions []string `json:"inert_global_options,omitempty"`
	// Flags lists options known to take no value. With OptionsWithValue
	// and OptionAliases they are the options a partial entry knows; an
	// option it does not know may take the next word as its value.
	Flags []string `json:"flags,omitempty"`
	// LongSingleDash marks programs whose long options start with one dash
	// (find -name, java -jar): such words are not split into letters.
	LongSingleDash bool `json:"long_single_dash,omitempty"`
	// OptionAliases maps spellings to a canonical option, so that an exclude
	// entry "rm -rf" also matches "rm --recursive --force". Long options may be
	// abbreviated on the command line as getopt_long allows.
	OptionAliases map[string]string `json:"option_aliases,omitempty"`
	// Wrapper is set for programs that run another command given in their argv.
	Wrapper *WrapperSpec `json:"wrapper,omitempty"`
	// Shell is set for shells: -c runs a script given as text, an operand runs
	// a script file, and no operand reads the script from stdin.
	Shell *ShellSpec `json:"shell,omitempty"`
	// InlineCode is set for interpreters that can run code given as text.
	InlineCode *InlineCodeSpec `json:"inline_code,omitempty"`
	// ExecActions maps actions such as find's -exec to the words that end
	// them (";" and "+"); the words in between are an inner command.
	ExecActions map[string][]string `json:"exec_actions,omitempty"`
	// Git holds git's configuration-driven ways of running commands.
	Git *GitSpec `json:"git,omitempty"`
	// ScriptOptions are options whose value is a shell command the program
	// runs (rsync -e, tar --to-command).
	ScriptOptions []string `json:"script_options,omitempty"`
	// ScriptOptionArgs gives, for a script option, how many words the
	// program adds to the command when it runs it, chosen at run time:
	// mapfile -C CALLBACK runs CALLBACK INDEX LINE.
	ScriptOptionArgs map[string]int `json:"script_option_args,omitempty"`
	// ProgramKeyOptions take KEY=VALUE (cmake -D NAME[:TYPE]=VALUE): where
	// KEY matches one of ProgramKeys, VALUE names a program the tool runs
	// (CMAKE_C_COMPILER, CMAKE_MAKE_PROGRAM), read as a command.
	ProgramKeyOptions []string `json:"program_key_options,omitempty"`
	ProgramKeys       []string `json:"program_keys,omitempty"`
	// PassArgs maps a subcommand to the program its words after "--" are
	// given to (cargo "rustc": rustc): they are read with that program's
	// findings.
	PassArgs map[string]string `json:"pass_args,omitempty"`
	// ProgramFileKeys are the KEYs of ProgramKeyOptions whose VALUE names
	// files of code the tool loads (cmake -D CMAKE_TOOLCHAIN_FILE=x,
	// CMAKE_PROJECT_INCLUDE=x; a list separated by ;).
	ProgramFileKeys []string `json:"program_file_keys,omitempty"`
	// ConfigOptions take a configuration line, KEY=VALUE or "KEY VALUE"
	// (ssh -o): the value of a key that names a command (ProxyCommand,
	// LocalCommand, KnownHostsCommand) is a shell command; CodeKeys load
	// code or more configuration and are unprovable.
	ConfigOptions []string `json:"config_options,omitempty"`
	// ConfigCodeKeys are the keys of ConfigOptions (lower case) that load
	// code or configuration gate does not read (Match exec, Include,
	// PKCS11Provider).
	ConfigCodeKeys []string `json:"config_code_keys,omitempty"`
	// ConfigKeyIgnore lists characters the program drops from a key before
	// reading it (wget: use_askpass, use-askpass and useaskpass are one
	// key); ConfigCodeKeys are written without them.
	ConfigKeyIgnore string `json:"config_key_ignore,omitempty"`
	// ResponseFiles marks programs that read more arguments from the file
	// an @FILE operand names (gcc @opts): one the command writes first is
	// unprovable.
	ResponseFiles bool `json:"response_files,omitempty"`
	// ScriptOperands lists operand positions (0-based, after options) whose value is a
	// shell script run later, such as trap's first operand; -1 makes every
	// operand one (pee CMD...).
	ScriptOperands []int `json:"script_operands,omitempty"`
	// ScriptArgs makes the operands, joined with spaces, a shell script (eval).
	ScriptArgs bool `json:"script_args,omitempty"`
	// SourceFile makes the first operand a script file run in this shell
	// (source, .).
	SourceFile bool `json:"source_file,omitempty"`
	// Writes describes which words name files the program writes.
	Writes *WritesSpec `json:"writes,omitempty"`
	// ChangesDir marks cd-like builtins; their operand changes the directory
	// later relative paths resolve against.
	ChangesDir bool `json:"changes_dir,omitempty"`
	// VarNames lists options whose value (or, with "*", operands) bash
	// reads as a variable name (unset, printf -v, read): a subscript there
	// is evaluated as arithmetic, and special names change what runs.
	VarNames []string `json:"var_names,omitempty"`
	// TestVar marks test and [: the word after -v is a variable name.
	TestVar bool `json:"test_var,omitempty"`
	// ExpandOptions are options whose value bash expands like a
	// double-quoted string, running its command substitutions (compgen -W).
	ExpandOptions []string `json:"expand_options,omitempty"`
	// Taints lists options whose value (or, with "*", operands) names
	// variables that receive untrusted values (read, mapfile, printf -v).
	Taints []string `json:"taints,omitempty"`
	// Findings are reported whenever one of the listed words appears in argv.
	Findings []FindingSpec `json:"findings,omitempty"`
	// DefinesAliases marks alias: a definition (NAME=VALUE, or an operand
	// not known statically) changes what a command name runs for what the
	// same shell reads after it, which is unprovable unless nothing in the
	// command runs after it (a trap runs at exit). alias NAME only prints.
	DefinesAliases bool `json:"defines_aliases,omitempty"`
	// Getopt is the program's complete option specification. With it,
	// option arity is exact (optional arguments only when attached), options
	// after operands are read as GNU getopt does, and an option it does not
	// list is reported (unknown_option): the program may read it in a way
	// gate does not know.
	Getopt *GetoptSpec `json:"getopt,omitempty"`

	// withValue and flags are OptionsWithValue and Flags as sets, made by
	// Validate (nil for a spec made at run time).
	withValue, flags map[string]bool
	// PosixOptions stops option parsing at the first operand, as
	// interpreters do: what follows their script belongs to the script
	// (python3 app.py -c cfg passes -c to app.py).
	PosixOptions bool `json:"posix_options,omitempty"`
	// EndOptions are options after whose value the program reads no more
	// options (python3 -c CODE and -m MODULE: the rest is sys.argv).
	EndOptions []string `json:"end_options,omitempty"`
	// ProgramFileOptions are options whose value is a file of code the
	// program runs (make -f, awk -f, sed -f): a file read from stdin or
	// written earlier in the same command is unprovable.
	ProgramFileOptions []string `json:"program_file_options,omitempty"`
	// ConfigFiles are files in the working directory whose content the
	// program runs (npm run reads package.json, make reads Makefile): one
	// written earlier in the same command is unprovable.
	ConfigFiles []string `json:"config_files,omitempty"`
	// EditsConfig lists subcommands (words, "pkg set") after which the
	// program rewrites its ConfigFiles (npm pkg set scripts.test=CMD): a
	// later run of the program runs what they now hold.
	EditsConfig []string `json:"edits_config,omitempty"`
	// EditorForms are subcommands that start an editor (npm config edit,
	// npm edit), which reads the keys typed from the command's input when
	// that is not a terminal: given the command's input, unprovable.
	EditorForms []string `json:"editor_forms,omitempty"`
	// VarOperands marks programs whose NAME=VALUE operands define variables
	// whose values they may expand as code or run as commands (make
	// 'X:=$(shell cmd)', make COMPILE.c=cmd).
	VarOperands bool `json:"var_operands,omitempty"`
	// VarFiles are the variables of VarOperands whose value names program
	// files the program reads or runs (make MAKEFILES=mk reads mk first,
	// SHELL=./s runs every recipe with ./s): one the command writes first,
	// or stdin, is unprovable. "*" reads every variable so (make CC=./cc:
	// a recipe may run any variable's value).
	VarFiles []string `json:"var_files,omitempty"`
	// MaybeRuns keeps, for a program whose entry describes only some of
	// its ways (tmux -f, cargo --config), the reading a program without an
	// entry gets: any operand may start a command it runs (tmux new 'rm
	// v'). A partial entry is never less safe than none.
	MaybeRuns bool `json:"maybe_runs,omitempty"`
	// StdinScript is set for programs that run a shell script read from
	// stdin later (at, batch).
	StdinScript *StdinScriptSpec `json:"stdin_script,omitempty"`
	// CommandLanguage names the language of commands the program reads
	// from its operands ("tmux": new-window CMD \; run-shell CMD), read by
	// tmux.go: shell commands in it are parsed, anything it does not know
	// is unprovable.
	CommandLanguage string `json:"command_language,omitempty"`
	// DirRunner marks programs that run every program in their directory
	// operand (run-parts DIR): when the command writes any file first, what
	// they run is unprovable. NoExecOptions list the options with which
	// they only list (run-parts --test).
	DirRunner *StdinScriptSpec `json:"dir_runner,omitempty"`
	// OldStyle marks programs whose first word, without a dash, is a
	// cluster of option letters whose values follow it in order (tar cIf
	// PROG FILE): it is read as those options.
	OldStyle bool `json:"old_style,omitempty"`
	// Modes maps the words that start argv (after the program's name,
	// space-separated: "-E env") to what the program is after them: cmake
	// -E env runs a command, cmake -E rm removes files. The rest of argv is
	// read with the mode's description. Argv that starts with a mode's
	// first word but no mode's words (cmake -E cmake_link_script, cmake -E
	// $x) is unprovable: a mode gate does not know may run anything.
	Modes map[string]*ProgramSpec `json:"modes,omitempty"`
	// SubcommandNames are the program's subcommands as it resolves them
	// (npm exe is npm exec, npm innit npm init): its first operand is read
	// as the subcommand it names, and exclude entries match that name.
	SubcommandNames *SubcommandNamesSpec `json:"subcommand_names,omitempty"`
	// ConfigSets describes subcommands that set the program's persistent
	// configuration (npm config set KEY VALUE): a key not known to be inert
	// may name a program it runs later, and is unprovable.
	ConfigSets *ConfigSetsSpec `json:"config_sets,omitempty"`
}

// SubcommandNamesSpec lists a program's subcommands and their aliases.
// With Abbreviate, any prefix of one command or alias that no other starts
// with names it too (npm's abbrev).
type SubcommandNamesSpec struct {
	Commands   []string          `json:"commands"`
	Aliases    map[string]string `json:"aliases,omitempty"`
	Abbreviate bool              `json:"abbreviate,omitempty"`
	// ProgramFallback is the subcommand a first word that names none runs
	// as, when it is a program the catalogue describes (pnpm node -e CODE
	// is pnpm exec node -e CODE; pnpm build, a script, is left alone).
	ProgramFallback string `json:"program_fallback,omitempty"`
}

// known reports whether c names a subcommand or an alias of one.
func (sn *SubcommandNamesSpec) known(c string) bool {
	_, alias := sn.Aliases[c]
	return contains(sn.Commands, c) || alias
}

// deref returns the subcommand c names: c itself when it names none.
func (sn *SubcommandNamesSpec) deref(c string) string {
	if c == "" || contains(sn.Commands, c) {
		return c
	}
	if a, ok := sn.Aliases[c]; ok {
		return a
	}
	if !sn.Abbreviate {
		return c
	}
	found := ""
	check := func(name string) bool {
		if strings.HasPrefix(name, c) && name != found {
			if found != "" {
				return false
			}
			found = name
		}
		return true
	}
	for _, name := range sn.Commands {
		if !check(name) {
			return c
		}
	}
	for name := range sn.Aliases {
		if !check(name) {
			return c
		}
	}
	for i := 0; i < 4 && found != ""; i++ {
		a, ok := sn.Aliases[found]
		if !ok {
			break
		}
		found = a
	}
	if found == "" {
		return c
	}
	return found
}

// ConfigSetsSpec describes the subcommands that set configuration.
type ConfigSetsSpec struct {
	// Forms are the subcommand words (after SubcommandNames resolves the
	// first) followed by KEY VALUE or KEY=VALUE pairs ("config set", "set").
	Forms []string `json:"forms"`
	// InertKeys are keys (path.Match patterns) known not to name a program
	// or code the program runs.
	InertKeys []string `json:"inert_keys"`
}

// WrapperSpec describes how a wrapper finds the command it runs.
type WrapperSpec struct {
	// Transparent wrappers (nice, timeout, env, bash -c...) do not need to be
	// allowed themselves: only the command they run is judged. Wrappers that
	// change privileges (sudo, doas) are not transparent.
	Transparent bool `json:"transparent,omitempty"`
	// SkipOperands is the number of operands before the command (timeout's
	// duration, flock's lock file, chroot's directory).
	SkipOperands int `json:"skip_operands,omitempty"`
	// SkipUnlessOption skips those operands only when the wrapper's first
	// argument is not an option: setarch ARCH cmd, but setarch -R cmd runs
	// cmd for the machine's own architecture.
	SkipUnlessOption bool `json:"skip_unless_option,omitempty"`
	// Subcommands, when set, makes the program a wrapper only after one of
	// these words (npm exec, pnpm dlx; or words: npm run env).
	Subcommands []string `json:"subcommands,omitempty"`
	// DropsSeparator: the wrapper takes the first "--" among all its
	// arguments for its own, also one after the command's name (npm exec
	// node -- -e CODE runs node -e CODE).
	DropsSeparator bool `json:"drops_separator,omitempty"`
	// Assignments accepts NAME=VALUE operands before the command (env).
	Assignments bool `json:"assignments,omitempty"`
	// Joined makes the remaining operands, joined with spaces, a shell script
	// (watch, ssh).
	Joined bool `json:"joined,omitempty"`
	// ScriptOptions are options whose value is a shell script (su -c,
	// flock -c).
	ScriptOptions []string `json:"script_options,omitempty"`
	// QuoteOptions make a joined wrapper keep its command's words as words
	// (parallel -q): they are read both joined and kept.
	QuoteOptions []string `json:"quote_options,omitempty"`
	// ShellOptions are options that make the remaining operands a shell
	// script (sudo -s).
	ShellOptions []string `json:"shell_options,omitempty"`
	// SplitOptions are options whose value is split into a command (env -S).
	SplitOptions []string `json:"split_options,omitempty"`
	// NoExecOptions are options with which the operand is not run (command -v).
	NoExecOptions []string `json:"no_exec_options,omitempty"`
	// DefaultCommand is run when no command is given (xargs runs echo).
	DefaultCommand []string `json:"default_command,omitempty"`
	// AppendsInput marks wrappers that append words read at run time (xargs).
	AppendsInput bool `json:"appends_input,omitempty"`
	// Placeholders are words replaced at run time (find's {}).
	Placeholders []string `json:"placeholders,omitempty"`
	// ArgSeparators end the command and start its arguments (parallel
	// CMD ::: A B): each argument completes the command, or without a
	// command is one. Separators starting with "::::" name files of
	// arguments. Without a command and without them, commands are read
	// from stdin.
	ArgSeparators []string `json:"arg_separators,omitempty"`
	// PlaceholderOptions take the placeholder word as value (xargs -I).
	PlaceholderOptions []string `json:"placeholder_options,omitempty"`
	// LoginDash skips a lone "-" operand before the skipped operands
	// (su - user, sg - group).
	LoginDash bool `json:"login_dash,omitempty"`
	// OptionsAfterSkip reads options again after the skipped operands
	// (setarch ARCH -R cmd, flock FILE -c cmd, sg GROUP -c cmd).
	OptionsAfterSkip bool `json:"options_after_skip,omitempty"`
	// ShellArgs passes the operands after the skipped ones to a shell as its
	// arguments when no script option is given (su user script.sh): the
	// first is a script file.
	ShellArgs bool `json:"shell_args,omitempty"`
	// CommandOptions are options after which the operands are the command
	// itself, with no operand skipped (runuser -u USER cmd).
	CommandOptions []string `json:"command_options,omitempty"`
	// CodeOptions are options that make the wrapper load code or run a
	// program named by their value (fakeroot --lib, ld.so --preload):
	// unprovable.
	CodeOptions []string `json:"code_options,omitempty"`
	// ChdirOperand makes the first skipped operand the directory the
	// command runs in (cmake -E chdir DIR CMD); ChdirOptions are options
	// whose value is that directory (env -C DIR): the command's relative
	// paths resolve there.
	ChdirOperand bool     `json:"chdir_operand,omitempty"`
	ChdirOptions []string `json:"chdir_options,omitempty"`
	// SameShell marks wrappers that run a builtin in the shell itself
	// (builtin cd, command cd): a directory it changes to is the shell's.
	SameShell bool `json:"same_shell,omitempty"`
}

// ShellSpec describes a shell.
type ShellSpec struct {
	// CommandOption is the option letter that makes the first operand a
	// script ("c"). It may be clustered with others (-lc, -ec).
	CommandOption string `json:"command_option"`
	// StdinOption reads the script from stdin even with operands ("s").
	StdinOption string `json:"stdin_option,omitempty"`
	// RcFiles are the files an interactive shell (-i, even with -c)
	// sources first, unless an option of NoRcOptions is given; RcOptions
	// name another one instead (bash --rcfile F). LoginFiles are sourced
	// by a login shell (-l, --login). One the command writes first, or
	// stdin, is unprovable.
	EnvFiles    []string `json:"env_files,omitempty"` // sourced by every invocation (zsh's ~/.zshenv)
	RcFiles     []string `json:"rc_files,omitempty"`
	RcOptions   []string `json:"rc_options,omitempty"`
	NoRcOptions []string `json:"no_rc_options,omitempty"`
	LoginFiles  []string `json:"login_files,omitempty"`
	// Language names the language the shell reads scripts in when it is
	// neither bash's nor POSIX sh's (zsh, ksh, fish, csh): gate does not
	// read it, so a script it runs is unprovable.
	Language string `json:"language,omitempty"`
}

// InlineCodeSpec describes an interpreter's ways of receiving code as text.
type InlineCodeSpec struct {
	// Options whose value is code (python -c, perl -e, node --eval).
	Options []string `json:"options,omitempty"`
	// Operand makes the first operand code (awk, sed), unless one of
	// FileOptions is given.
	Operand bool `json:"operand,omitempty"`
	// FileOptions name a program file instead of inline code (awk -f).
	FileOptions []string `json:"file_options,omitempty"`
	// OperandPrefix marks operands starting with it as code (vim +cmd).
	OperandPrefix string `json:"operand_prefix,omitempty"`
	// Stdin means that without a script operand the interpreter reads its
	// program from stdin.
	Stdin bool `json:"stdin,omitempty"`
	// OperandsFrom makes every operand from OperandIndex on code, not only
	// that one (sqlite3 DB SQL... runs each).
	OperandsFrom bool `json:"operands_from,omitempty"`
	// OperandIndex is the operand that is code when Operand is set
	// (sqlite3 DB SQL: 1).
	OperandIndex int `json:"operand_index,omitempty"`
	// StdinCommands lists options with which the program reads commands
	// from stdin whatever its operands ("*": always; ed, ex, vim -e).
	StdinCommands []string `json:"stdin_commands,omitempty"`
	// StdinTextOperand is an operand that makes the program read stdin as
	// text to edit instead of the keys typed ("*" aside: vim - reads the
	// buffer from stdin, but vim -es - still reads commands).
	StdinTextOperand string `json:"stdin_text_operand,omitempty"`
	// Pattern, when set, limits the finding to code matching this regular
	// expression (awk's system(), sed's e command); otherwise any inline code
	// is unprovable.
	Pattern string `json:"pattern,omitempty"`
	// StripStrings blanks double-quoted strings before Pattern is matched
	// (awk's printf "%s|" pipes nothing), when the code holds no '/' or
	// '#', where a regular expression or a comment could hold a quote.
	StripStrings bool `json:"strip_strings,omitempty"`
	// FileOperand makes the first operand a program file (bun x.js), or the
	// one after a subcommand of FileSubcommands (deno run x.ts): one the
	// command writes first is unprovable.
	FileOperand     bool     `json:"file_operand,omitempty"`
	FileSubcommands []string `json:"file_subcommands,omitempty"`
	// ModuleWrites maps modules run with ModuleOptions to the files their
	// arguments name that they write (python3 -m venv DIR, -m json.tool IN
	// OUT).
	ModuleWrites map[string]*WritesSpec `json:"module_writes,omitempty"`
	// FileSuffixes are appended to a FileOptions value the program does
	// not find as given (gawk -i x reads x.awk): the file it names with one
	// is its program file too.
	FileSuffixes []string `json:"file_suffixes,omitempty"`
	// LibraryOptions are FileOptions that load code besides the program,
	// which still comes from the operand (gawk -i inplace 'PROGRAM',
	// -l ordchr): given alone, they leave the operand inline code.
	LibraryOptions []string `json:"library_options,omitempty"`
	// ModuleOptions are FileOptions whose value names a module (python -m
	// pkg.mod): the files it is read from are pkg.py, pkg/__init__.py and
	// pkg/__main__.py, unprovable when the command writes one first.
	ModuleOptions []string `json:"module_options,omitempty"`
	// CodeModules are modules (or packages: all their modules) of the
	// standard library that run code given in their arguments or standard
	// input (python3 -m timeit CODE, -m code, -m pdb): inline code.
	CodeModules []string `json:"code_modules,omitempty"`
	// CodeModuleReads maps a code module to the options of its modes that
	// only read (python3 -m zipfile -l a.zip): given one of them and no
	// other option, it runs nothing given in its arguments.
	CodeModuleReads map[string][]string `json:"code_module_reads,omitempty"`
	// CompileModules map modules that only compile the source files they
	// are given, writing bytecode into the __pycache__ beside them
	// (python3 -m py_compile x.py, -m compileall x.py), to their options
	// that take a value. Given no file, "-" or a list file (-i), they
	// compile names read at run time (or every directory of the search
	// path), and compileall of a directory writes into every __pycache__
	// below it: unprovable.
	CompileModules map[string][]string `json:"compile_modules,omitempty"`
	// ModulePrograms maps a module run with ModuleOptions to the program
	// whose command line it is, where their names differ (python3 -m
	// IPython is ipython). A module named as a catalogue program or
	// subcommand wrapper (-m pip, -m poetry, -m uv) is read as that
	// program given the words after the module: python3 -m pip --python
	// PY runs PY as pip --python PY does.
	ModulePrograms map[string]string `json:"module_programs,omitempty"`
	// Prover names a check of the code gate knows ("python": one-liners
	// that only print, compute and read standard input, see python.go;
	// "sed": scripts with no e, w or W, see sed.go): code it proves inert
	// is not a finding.
	Prover string `json:"prover,omitempty"`
}

// GitSpec describes git's configuration-driven command execution.
type GitSpec struct {
	// ConfigOptions take KEY=VALUE (git -c).
	ConfigOptions []string `json:"config_options"`
	// Commands are git's commands (git --list-cmds=main). A subcommand
	// that is none of them may be corrected into one that is similar
	// (help.autocorrect runs it in the same process): it is read as each.
	Commands []string `json:"commands,omitempty"`
	// CommonCommands are those git help lists: a misspelling that starts
	// one of them is corrected to it first.
	CommonCommands []string `json:"common_commands,omitempty"`
	// Externals are commands other packages install as git-NAME programs
	// (git gui, git p4, git-extras' git cp): git runs them, it corrects
	// nothing.
	Externals []string `json:"externals,omitempty"`
	// known is Commands and Externals as a set, made by Validate (nil for
	// a spec made at run time).
	known map[string]bool
	// SubcommandValues are options of a subcommand that take the next word
	// as their value (commit -m MSG): a word only known at run time there
	// is that value, not an option.
	SubcommandValues map[string][]string `json:"subcommand_values,omitempty"`
	// CommandKeys are configuration keys (path.Match patterns, lower case)
	// whose value is a shell command: it is parsed as an inner script.
	CommandKeys []string `json:"command_keys"`
	// BangCommandKeys are keys whose value is a shell command when it
	// starts with "!" (submodule.NAME.update=!CMD); other values name a
	// mode (checkout, rebase, merge, none).
	BangCommandKeys []string `json:"bang_command_keys,omitempty"`
	// CodeKeys are keys whose value makes git run code that cannot be seen
	// (core.hooksPath, include.path): setting them is unprovable.
	CodeKeys []string `json:"code_keys"`
	// AliasPrefix is the key prefix of aliases ("alias."). A value starting
	// with "!" is a shell command; otherwise it replaces the subcommand.
	AliasPrefix string `json:"alias_prefix"`
	// ConfigSubcommand is the subcommand that writes configuration ("config");
	// writing an alias, command or code key with it is reported.
	ConfigSubcommand string `json:"config_subcommand"`
	// InertKeys are configuration keys (path.Match patterns, lower case)
	// known not to make git run anything. A -c key that is neither one of
	// them, a command key nor an alias is unprovable.
	InertKeys []string `json:"inert_keys,omitempty"`
	// SubcommandConfig maps subcommands to options whose value is
	// KEY=VALUE configuration (clone -c).
	SubcommandConfig map[string][]string `json:"subcommand_config,omitempty"`
	// SubcommandCode maps subcommands to options that make git load code
	// (clone --template): unprovable.
	SubcommandCode map[string][]string `json:"subcommand_code,omitempty"`
	// SubcommandScripts maps subcommands to their options whose value is a
	// shell command (rebase: --exec).
	SubcommandScripts map[string][]string `json:"subcommand_scripts,omitempty"`
	// SubcommandScriptArgs gives, for "SUBCOMMAND OPTION" of
	// SubcommandScripts, how many words git passes the command at run
	// time (grep -O PAGER gets the files found, difftool -x CMD two
	// files): the command is read with words only known at run time.
	SubcommandScriptArgs map[string]int `json:"subcommand_script_args,omitempty"`
	// EditorSubcommands maps subcommands that may start an editor (git's
	// default is vi) to the options that decide it: with one of the plain
	// entries given (if any are listed), and none of the "!"-prefixed ones.
	// An editor reads the keys typed from a standard input that is not a
	// terminal, so such a subcommand given the command's input runs it as
	// code (printf ':!cmd' | git add -e).
	EditorSubcommands map[string][]string `json:"editor_subcommands,omitempty"`
	// SubcommandWrites maps subcommands to the files and directories they
	// write (clone's directory, format-patch -o, archive --output): with
	// git -C DIR, relative to DIR.
	SubcommandWrites map[string]*SubcommandWritesSpec `json:"subcommand_writes,omitempty"`
	// SubcommandOptions lists every long option of a subcommand (git SUB
	// --git-completion-helper): git's option parser accepts any unambiguous
	// abbreviation of one, or of its --no- form (git config --fil FILE), and
	// words of the subcommand are read as the option they abbreviate.
	SubcommandOptions map[string][]string `json:"subcommand_options,omitempty"`
	// SubcommandCommands lists subcommand forms followed by a command they
	// run ("bisect run", "submodule foreach").
	SubcommandCommands []string `json:"subcommand_commands,omitempty"`
	// ReadOnlySubcommands never change a repository (status, log, diff).
	// Every other subcommand, run in a repository elsewhere (git -C DIR,
	// --git-dir DIR, or after cd), writes that repository: a remote that
	// is a local path gets its refs moved without a push.
	ReadOnlySubcommands []string `json:"read_only_subcommands,omitempty"`
	// NewRepositorySubcommands write only a repository of their own
	// (clone: where subcommand_writes says), not the one they run in.
	NewRepositorySubcommands []string `json:"new_repository_subcommands,omitempty"`
	// GitSubcommands are followed by a git command line they run
	// (for-each-repo --config=KEY ARGS runs git ARGS in each repository
	// KEY lists).
	GitSubcommands []string `json:"git_subcommands,omitempty"`
	// LinkSubcommands write the work tree from the repository (checkout,
	// reset, merge, stash, clone), where a symbolic link may be: a path the
	// command names after them may lead through one (Segment.Relinks).
	LinkSubcommands []string `json:"link_subcommands,omitempty"`
	// IndexSubcommands put entries of the command's choosing into the
	// index or the object store (update-index --cacheinfo, hash-object -w,
	// mktree, read-tree): a work tree written from them after (checkout .,
	// checkout-index -a, reset --hard, stash pop) holds files whose names
	// and content the command chose.
	IndexSubcommands []string `json:"index_subcommands,omitempty"`
}

// WritesSpec describes the files a program writes.
type WritesSpec struct {
	// Operands is "all" (tee, touch), "last" (cp, mv, ln, install; only
	// with two operands or more) or "first" (git worktree add PATH).
	Operands string `json:"operands,omitempty"`
	// Options take a file or directory the program writes (cp -t, sort -o).
	Options []string `json:"options,omitempty"`
	// Prefixes mark operands like dd's of=FILE.
	Prefixes []string `json:"prefixes,omitempty"`
	// When, if set, limits Operands and Options to invocations with one
	// of these options (sed -i, history -w).
	When []string `json:"when,omitempty"`
	// OptionsAlways take a file the program writes whatever When says
	// (tar --index-file=F lists into F as it extracts or lists).
	OptionsAlways []string `json:"options_always,omitempty"`
	// OperandsWhen, if set, limits Operands to invocations where one of
	// these OPTION=PATTERN holds: the option's value (or its base name)
	// matches the pattern, or is not known statically (gawk -i inplace
	// rewrites its file operands).
	OperandsWhen []string `json:"operands_when,omitempty"`
	// BackupOptions take a backup suffix (sed -i.bak): one holding a slash
	// is a path the program writes, with * replaced by the file's name
	// (sed -i'bak/*' writes bak/FILE). OPT=NAME takes it from the values
	// NAME=SUFFIX of OPT (gawk -v INPLACE_SUFFIX=.bak).
	BackupOptions []string `json:"backup_options,omitempty"`
	// Skip is the number of leading operands that are not files (chmod's
	// mode).
	Skip int `json:"skip,omitempty"`
	// SkipUnless turns Skip off with one of these options: the operand it
	// skips was given another way (chmod --reference=F FILE; chmod -w FILE,
	// whose mode GNU chmod reads as options).
	SkipUnless []string `json:"skip_unless,omitempty"`
	// Removes names the operands whose files the program takes away from
	// their name: "all" (gzip FILE leaves FILE.gz), "sources" (mv: every
	// operand but the last, or all of them with a target option from
	// Options). RemovesWhen limits it to invocations with one of these
	// options (zstd --rm), RemovesUnless turns it off (gzip -k, -c).
	Removes       string   `json:"removes,omitempty"`
	RemovesWhen   []string `json:"removes_when,omitempty"`
	RemovesUnless []string `json:"removes_unless,omitempty"`
	// Relinks marks programs that make or move names (ln, mv): after
	// them, a path may lead through a link or a directory that was not
	// there when the command was decided. RelinksWhen limits it to
	// invocations with one of these options (cp -s, cp -l).
	Relinks     bool     `json:"relinks,omitempty"`
	RelinksWhen []string `json:"relinks_when,omitempty"`
	// Replaces marks programs that put a new file under the name they
	// write, or change its mode or owner, instead of writing into the file
	// the name leads to (install, rsync, sed -i, chmod; Relinks implies
	// it): done to a device such as /dev/null, that changes the device for
	// every program. ReplacesWhen limits it to invocations with one of
	// these options (cp --remove-destination, cp --backup).
	Replaces     bool     `json:"replaces,omitempty"`
	ReplacesWhen []string `json:"replaces_when,omitempty"`
	// ModeOnly marks programs that change a file's metadata, not its
	// content (chmod, touch): running the file later is not running text
	// this command wrote.
	ModeOnly bool `json:"mode_only,omitempty"`
	// Unless turns the writes off with one of these options (ssh-keygen -l
	// only reads the key -f names).
	Unless []string `json:"unless,omitempty"`
	// Unnamed lists options with which the program writes files in the
	// current directory under names known only at run time (curl -O; "*":
	// always, wget): in a directory inside .git, or one not known
	// statically, that is a write to an unknown place.
	Unnamed []string `json:"unnamed,omitempty"`
	// Tree lists options with which the program writes a tree of files
	// and directories below its directory, under paths known only at run
	// time (wget -r, -x: the URL's path, .git/config included): a write to
	// an unknown place.
	Tree []string `json:"tree,omitempty"`
	// TreeWhen, if set, limits Tree to invocations that also give one of
	// these options, or OPT=PATTERN for an option whose value PATTERN
	// matches (wget's tree starts at its directory only with -nH: else
	// under a directory named after the host).
	TreeWhen []string `json:"tree_when,omitempty"`
	// StaticOnly keeps only the written files known statically: the
	// program writes data of its own format (an archive, a database, a
	// decompressed file beside its input), and one named at run time (zip
	// $z, find -exec gunzip {}) is not checked.
	StaticOnly bool `json:"static_only,omitempty"`
	// TrimSuffixes makes the file written an operand without the first of
	// these suffixes it ends with (gunzip Makefile.gz writes Makefile);
	// SuffixOptions give one more (gzip -S .x).
	TrimSuffixes  []string `json:"trim_suffixes,omitempty"`
	SuffixOptions []string `json:"suffix_options,omitempty"`
	// CompressSuffix is what a compressor adds to each operand's name
	// when it compresses (without the When options): gzip f writes f.gz,
	// gzip -S .json f writes f.json; its Options write in both modes.
	CompressSuffix string `json:"compress_suffix,omitempty"`
	// ListOptions read more operands from a file or standard input (xz
	// --files, zstd --filelist): names known only at run time.
	ListOptions []string `json:"list_options,omitempty"`
	// RemoteOperands marks a last operand of the form HOST:PATH (scp,
	// rsync) as a file on another machine, not written here.
	RemoteOperands bool `json:"remote_operands,omitempty"`
	// RenameOptions make the program write its files under names it
	// computes at run time, wherever they lead (tar -x --transform
	// 's,^,.git/hooks/,', tar -P keeping absolute names).
	RenameOptions []string `json:"rename_options,omitempty"`
	// RenameUnless turns RenameOptions off (tar -c -P stores absolute
	// names, which only an extraction with -P writes).
	RenameUnless []string `json:"rename_unless,omitempty"`
	// Pathspecs marks operands that are git pathspecs: a directory or the
	// files under it, and magic (:/x, :(glob)x/**) matches names only
	// known at run time.
	Pathspecs bool `json:"pathspecs,omitempty"`
}

// check reports a writes specification Validate cannot use.
func (ws *WritesSpec) check() error {
	switch ws.Removes {
	case "", "all", "sources":
	default:
		return fmt.Errorf("writes.removes must be all or sources, not %q", ws.Removes)
	}
	switch ws.Operands {
	case "", "all", "last", "first":
		return nil
	}
	return fmt.Errorf("writes.operands must be all, last or first, not %q", ws.Operands)
}

// SubcommandWritesSpec describes the files one git subcommand writes.
type SubcommandWritesSpec struct {
	// Verb, if set, is the word that must follow the subcommand (worktree
	// add, bundle create); operands count from the word after it.
	Verb string `json:"verb,omitempty"`
	// OptionsWithValue are the subcommand's options that take the next
	// word, so that its operands are found (clone -b NAME URL DIR).
	OptionsWithValue []string `json:"options_with_value,omitempty"`
	WritesSpec
}

// FindingSpec reports Code whenever one of When appears in argv (as a word
// or as an option).
type FindingSpec struct {
	When    []string `json:"when"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	// Subcommands, if set, limit the finding to invocations whose operands
	// start with one of these words (gh "alias set"; a word not known
	// statically may be any of them).
	Subcommands []string `json:"subcommands,omitempty"`
	// With, if set, limits the finding to invocations that also give one
	// of these options (curl -T with a file: URL).
	With []string `json:"with,omitempty"`

	// whens is When read once, by Validate (nil for a spec made at run
	// time): findings are tested for every command and every exec.
	whens []whenSpec
}

// whenSpec is one entry of a finding's When, read: an option, OPT=PATTERN
// (a value of OPT that PATTERN matches), or a word or operand pattern.
type whenSpec struct {
	text     string
	option   bool // text starts as an option does
	optValue bool // OPT=PATTERN
	opt      string
	pattern  string
}

func readWhen(text string) whenSpec {
	w := whenSpec{text: text, option: isOption(text)}
	if w.option {
		w.opt, w.pattern, w.optValue = strings.Cut(text, "=")
	}
	return w
}

// compiledWhens returns When as read by Validate, or reads it now.
func (f *FindingSpec) compiledWhens() []whenSpec {
	if len(f.whens) == len(f.When) {
		return f.whens
	}
	ws := make([]whenSpec, len(f.When))
	for i, t := range f.When {
		ws[i] = readWhen(t)
	}
	return ws
}

// Validate checks the catalogue and compiles its patterns. It must be called
// before the catalogue is used.
func (c *Catalogue) Validate() error {
	c.inlineRe = map[string]*regexp.Regexp{}
	c.readers, c.makesNoFiles = setOf(c.Readers), setOf(c.MakesNoFiles)
	c.dataOperands, c.extractors = setOf(c.DataOperands), setOf(c.Extractors)
	for name, p := range c.Programs {
		if p == nil {
			return fmt.Errorf("catalogue: program %q has no description", name)
		}
		p.withValue, p.flags = setOf(p.OptionsWithValue), setOf(p.Flags)
		if err := p.checkModes(); err != nil {
			return fmt.Errorf("catalogue: program %q: %w", name, err)
		}
		if p.Getopt != nil && !p.Getopt.checked {
			if err := p.Getopt.compile(); err != nil {
				return fmt.Errorf("catalogue: program %q: getopt: %w", name, err)
			}
		}
		if p.InlineCode != nil && p.InlineCode.Pattern != "" {
			re, err := regexp.Compile(p.InlineCode.Pattern)
			if err != nil {
				return fmt.Errorf("catalogue: program %q: inline_code.pattern: %w", name, err)
			}
			c.inlineRe[name] = re
		}
		if p.Writes != nil {
			if err := p.Writes.check(); err != nil {
				return fmt.Errorf("catalogue: program %q: %w", name, err)
			}
		}
		for i := range p.Findings {
			f := &p.Findings[i]
			if f.Code == "" || len(f.When) == 0 {
				return fmt.Errorf("catalogue: program %q: a finding needs a code and when", name)
			}
			f.whens = f.compiledWhens()
		}
		if p.Git != nil {
			p.Git.known = setOf(slices.Concat(p.Git.Commands, p.Git.Externals))
			for sub, ws := range p.Git.SubcommandWrites {
				if ws == nil {
					return fmt.Errorf("catalogue: program %q: subcommand_writes %q has no description", name, sub)
				}
				if err := ws.check(); err != nil {
					return fmt.Errorf("catalogue: program %q: subcommand_writes %q: %w", name, sub, err)
				}
			}
			for _, k := range slices.Concat(p.Git.CommandKeys, p.Git.BangCommandKeys, p.Git.CodeKeys, p.Git.InertKeys) {
				if _, err := path.Match(k, ""); err != nil {
					return fmt.Errorf("catalogue: program %q: bad key pattern %q", name, k)
				}
			}
		}
	}
	for name, pats := range c.EnvInertValues {
		for _, pat := range pats {
			if _, err := path.Match(pat, ""); err != nil || pat == "" || pat == "*" {
				return fmt.Errorf("catalogue: bad env_inert_values pattern %q for %s", pat, name)
			}
		}
	}
	for _, pat := range append(append([]string{}, c.EnvUnprovable...), c.EnvInert...) {
		if _, err := path.Match(pat, ""); err != nil {
			return fmt.Errorf("catalogue: bad env_unprovable pattern %q", pat)
		}
	}
	return nil
}

func setOf(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// member reports whether name is in list, through its set once Validate
// made it.
func member(set map[string]bool, list []string, name string) bool {
	if set != nil {
		return set[name]
	}
	return contains(list, name)
}

// Reader reports whether name is in Readers.
func (c *Catalogue) Reader(name string) bool { return member(c.readers, c.Readers, name) }

// ElsewhereSpec says when a wrapper runs its command elsewhere: always,
// or when one of Options or Words is given.
type ElsewhereSpec struct {
	Options []string `json:"options,omitempty"`
	Words   []string `json:"words,omitempty"`
}

// runsElsewhere reports whether the wrapper owner runs its command in a
// directory of its own choosing (RunsElsewhere).
func (c *Catalogue) runsElsewhere(owner *Segment) bool {
	if c == nil {
		return false
	}
	e, ok := c.RunsElsewhere[owner.Program]
	if !ok {
		return false
	}
	if len(e.Options) == 0 && len(e.Words) == 0 {
		return true
	}
	return slices.ContainsFunc(owner.Options, func(o string) bool { return slices.Contains(e.Options, o) }) ||
		slices.ContainsFunc(owner.Argv, func(w string) bool { return slices.Contains(e.Words, w) })
}

// MakesNoFile reports whether name is in MakesNoFiles.
func (c *Catalogue) MakesNoFile(name string) bool {
	return member(c.makesNoFiles, c.MakesNoFiles, name)
}

// ReadOnlySubcommand reports a subcommand of a git-like program that never
// changes a repository (git status, git log): it writes only the files its
// options name (subcommand_writes), under names a segment's Writes give.
func (c *Catalogue) ReadOnlySubcommand(program, sub string) bool {
	p := c.program(program)
	return p != nil && p.Git != nil && contains(p.Git.ReadOnlySubcommands, sub)
}

// DataOperand reports whether name is in DataOperands.
func (c *Catalogue) DataOperand(name string) bool {
	return member(c.dataOperands, c.DataOperands, name)
}

// Extractor reports whether name is in Extractors.
func (c *Catalogue) Extractor(name string) bool { return member(c.extractors, c.Extractors, name) }

func (c *Catalogue) program(name string) *ProgramSpec {
	if c == nil {
		return nil
	}
	if p := c.Programs[name]; p != nil {
		return p
	}
	return c.Programs[c.versioned(name)]
}

// versioned returns the name of the catalogued program that name is a
// versioned or flavoured spelling of (python3.11, lua5.4, perl5.36.0,
// tclsh8.6, zsh-5.9, vim.tiny, pip3.11), or "": the part before the first
// dot, or the longest name left when a suffix of digits and dots, or "-"
// and one, is taken off. Distributions install interpreters and their
// tools under versioned names, which would otherwise be read as unknown
// programs whose operands name no excluded command; what an entry says a
// program runs or writes is as true of its versions.
func (c *Catalogue) versioned(name string) string {
	if c == nil || c.Programs[name] != nil {
		return ""
	}
	// a cross tool's target prefix (x86_64-linux-gnu-gcc-12)
	if _, tool, ok := strings.Cut(name, "-linux-gnu-"); ok && tool != "" {
		if c.catalogued(tool) {
			return tool
		}
		if v := c.versioned(tool); v != "" {
			return v
		}
	}
	// an interpreter's flavour (vim.tiny, perl5.36-x86_64-linux-gnu), or
	// any program's version (pip3.11); after another dot the name is a
	// file's (script.sh, test2.py), and only an interpreter is found
	known := c.catalogued
	if stem, rest, ok := strings.Cut(name, "."); ok && len(stem) > 1 {
		if c.interpreter(stem) {
			return stem
		}
		if rest == "" || rest[0] < '0' || rest[0] > '9' {
			known = c.interpreter
		}
		name = stem
	}
	for i := len(name) - 1; i > 0; i-- {
		ch := name[i]
		if ch == '-' || ch == '.' {
			if i+1 < len(name) && name[i+1] >= '0' && name[i+1] <= '9' && known(name[:i]) {
				return name[:i]
			}
			if ch == '-' {
				return ""
			}
			continue
		}
		if ch < '0' || ch > '9' {
			return ""
		}
		if known(name[:i]) {
			return name[:i]
		}
	}
	return ""
}

// catalogued reports whether the catalogue has an entry for name.
func (c *Catalogue) catalogued(name string) bool {
	return c.Programs[name] != nil
}

// interpreter reports whether name's entry runs code (inline_code, shell).
func (c *Catalogue) interpreter(name string) bool {
	p := c.Programs[name]
	return p != nil && (p.InlineCode != nil || p.Shell != nil || p.ResponseFiles)
}

func matchAny(patterns []string, s string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, s); ok {
			return true
		}
	}
	return false
}

// runsCode reports whether the catalogue describes name as a shell, an
// interpreter given code or a wrapper: a program that runs what its
// arguments or standard input say.
func (c *Catalogue) runsCode(name string) bool {
	p := c.program(name)
	return p != nil && (p.Shell != nil || p.InlineCode != nil || p.Wrapper != nil || p.Git != nil || p.StdinScript != nil)
}

// matchAcross reports whether s matches one of the patterns, where *
// matches any text, slashes included: a git configuration key's
// subsection may hold a path or a URL (includeIf.gitdir:/src/.path), an
// option's value a path (-ldflags=-extld=./ld).
func matchAcross(patterns []string, key string) bool {
	key = strings.ReplaceAll(key, "/", "\x01")
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ReplaceAll(p, "/", "\x01"), key); ok {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// takesValue reports whether option opt (as written, without =value) consumes
// the next word.
func (p *ProgramSpec) takesValue(opt string) bool {
	if p != nil && p.Getopt != nil {
		if k, ok := p.Getopt.short[opt]; ok {
			return k == argRequired
		}
		if strings.HasPrefix(opt, "--") || (p.Getopt.LongOnly && len(opt) > 2) {
			_, k, ok := p.Getopt.lookupLong(opt)
			return ok && k == argRequired
		}
		return false
	}
	return p != nil && member(p.withValue, p.OptionsWithValue, opt)
}

// runsOrWritesOptions reports whether the program has options whose value
// it runs, reads as code or configuration, or writes.
func (p *ProgramSpec) runsOrWritesOptions() bool {
	if p == nil {
		return false
	}
	n := len(p.ScriptOptions) + len(p.ConfigOptions) + len(p.ProgramFileOptions)
	if ic := p.InlineCode; ic != nil {
		n += len(ic.Options) + len(ic.FileOptions)
	}
	if wr := p.Wrapper; wr != nil {
		n += len(wr.ScriptOptions) + len(wr.ShellOptions) + len(wr.SplitOptions)
	}
	if p.Writes != nil {
		n += len(p.Writes.Options)
	}
	return n > 0 || p.Git != nil || len(p.ExecActions) > 0
}

// knowsOption reports whether the spec says what opt is: an option of a
// Getopt spec, one with a value, or one with an alias. Options a partial
// entry does not know may take the next word as their value, as for
// programs with no entry.
func (p *ProgramSpec) knowsOption(opt string) bool {
	if p == nil {
		return false
	}
	if p.Getopt != nil {
		if _, ok := p.Getopt.short[opt]; ok {
			return true
		}
		_, _, ok := p.Getopt.lookupLong(opt)
		return ok
	}
	if member(p.withValue, p.OptionsWithValue, opt) || member(p.flags, p.Flags, opt) {
		return true
	}
	_, ok := p.OptionAliases[opt]
	return ok
}

// expandLong returns the long option of the entry that opt abbreviates, as
// getopt_long and git's option parser accept any unambiguous prefix of a
// long option (tar --to-comm, git pull --upload-pa): opt itself when the
// entry knows it, or when it is the prefix of none or of several.
// abbreviatesValue reports a long option word with no value attached that
// an entry without a complete option list (no getopt) reads as the
// abbreviation of one of its options taking a value (tar --sparse as
// --sparse-version): the program may have an option of that very name
// the entry does not list, which takes none.
func (p *ProgramSpec) abbreviatesValue(word string) bool {
	if p == nil || p.Getopt != nil || !strings.HasPrefix(word, "--") || strings.Contains(word, "=") {
		return false
	}
	exp := p.expandLong(word)
	return exp != word && p.takesValue(exp)
}

func (p *ProgramSpec) expandLong(opt string) string {
	if p == nil || len(opt) < 3 {
		return opt
	}
	names := slices.Concat(p.OptionsWithValue, p.Flags, p.ScriptOptions, p.ConfigOptions, p.ExpandOptions, p.ProgramFileOptions)
	for o := range p.OptionAliases {
		o, _, _ = strings.Cut(o, "=") // --interactive=never: an alias of a value
		names = append(names, o)
	}
	// and the options that turn writes, links and removals on or off (cp
	// --arc is --archive, gzip --kee is --keep)
	if ws := p.Writes; ws != nil {
		names = slices.Concat(names, ws.Options, ws.OptionsAlways, ws.ListOptions, ws.RenameOptions, ws.RenameUnless, ws.When, ws.Unless, ws.RelinksWhen, ws.ReplacesWhen, ws.RemovesWhen, ws.RemovesUnless, ws.SuffixOptions, ws.SkipUnless, ws.Unnamed, ws.Tree, optionNamesOf(ws.TreeWhen))
	}
	if ic := p.InlineCode; ic != nil {
		names = slices.Concat(names, ic.Options, ic.FileOptions, ic.StdinCommands)
	}
	for _, f := range p.Findings {
		for _, w := range f.When {
			if o, _, _ := strings.Cut(w, "="); strings.HasPrefix(o, "--") {
				names = append(names, o)
			}
		}
	}
	found := ""
	for _, o := range names {
		switch {
		case o == opt:
			return opt
		case strings.HasPrefix(o, "--") && strings.HasPrefix(o, opt) && o != found:
			if found != "" {
				return opt // ambiguous: the program refuses it
			}
			found = o
		}
	}
	if found == "" {
		return opt
	}
	return found
}

// canonicalOption maps an option to its canonical spelling using the
// program's aliases, accepting unambiguous abbreviations of long options.
func (p *ProgramSpec) canonicalOption(opt string) string {
	if p == nil || len(p.OptionAliases) == 0 {
		return opt
	}
	if c, ok := p.OptionAliases[opt]; ok {
		return c
	}
	if !strings.HasPrefix(opt, "--") || len(opt) < 4 {
		return opt
	}
	found := ""
	for long, c := range p.OptionAliases {
		if strings.HasPrefix(long, opt) && !strings.Contains(long, "=") {
			if found != "" && found != c {
				return opt
			}
			found = c
		}
	}
	if found != "" {
		return found
	}
	return opt
}

// optionNamesOf returns the option names of entries that are options or
// OPT=PATTERN.
func optionNamesOf(entries []string) []string {
	var names []string
	for _, e := range entries {
		if isOption(e) {
			name, _, _ := strings.Cut(e, "=")
			names = append(names, name)
		}
	}
	return names
}
