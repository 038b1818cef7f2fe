package shellparse

// Program is the parsed form of one command line.
type Program struct {
	// Command is the command line as given.
	Command string `json:"command"`
	// Segments lists every simple command bash could run, in source order;
	// commands reached through a wrapper follow the wrapper.
	Segments []*Segment `json:"segments"`
	// Error is set when the command could not be parsed; Segments is then
	// empty and the command must be refused.
	Error *ParseError `json:"parse_error,omitempty"`
	// TooComplex is set when the command is over the parser's limits (or
	// its parse ran out of time); Segments is then empty and the command
	// must be refused.
	TooComplex *LimitError `json:"too_complex,omitempty"`
}

// ParseError reports a command that could not be parsed, with its position.
type ParseError struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Message
	}
	return itoa(e.Line) + ":" + itoa(e.Col) + ": " + e.Message
}

// Kinds of segment.
const (
	// KindCommand runs a program, builtin or function.
	KindCommand = "command"
	// KindAssignment only assigns variables (x=1).
	KindAssignment = "assignment"
	// KindTest is a [[ ]] or (( )) clause.
	KindTest = "test"
)

// Segment is one simple command.
type Segment struct {
	// ID is the segment's index in [Program.Segments].
	ID int `json:"id"`
	// Parent is the ID of the wrapper this segment was unwrapped from, or -1.
	Parent int `json:"parent"`
	// Kind is one of KindCommand, KindAssignment, KindTest.
	Kind string `json:"kind"`
	// Program is the program's identity: the last path element of the
	// command word after quote removal (/bin/rm, \rm, "r"m and ./rm are all
	// "rm"). It is empty when the command word is dynamic.
	Program string `json:"program"`
	// RawProgram is the command word as spelled in the source.
	RawProgram string `json:"raw_program"`
	// ProgramPath is the command word after quote removal when it contains a
	// slash (/usr/bin/git, ./build.sh).
	ProgramPath string `json:"program_path,omitempty"`
	// Argv is the argument vector after quote removal and brace expansion.
	// A dynamic word appears as its source text.
	Argv []string `json:"argv"`
	// Dynamic lists the indexes of Argv whose value is not known statically.
	Dynamic []int `json:"dynamic"`
	// Options are the options in Argv, short clusters split (-rf gives -r and
	// -f), values stripped (--color=auto gives --color) and aliases applied.
	Options []string `json:"options"`
	// Path is the program followed by its operands (words that are not
	// options or option values), up to the first dynamic operand.
	Path []string `json:"path"`
	// AltPaths are other readings of Path when an option of unknown arity may
	// or may not take the next word as its value.
	AltPaths [][]string `json:"alt_paths,omitempty"`
	// MaybeRuns are the commands a program the catalogue does not describe
	// may run from its arguments (sshpass -p x ssh h rm v, screen -dm rm v,
	// tmux new -d "rm v"): read from each operand that could be a command
	// name, and from each operand holding a command line, as paths. A policy
	// cannot tell a wrapper it does not know from a program whose operands
	// are data, so an excluded command among them is unprovable.
	MaybeRuns [][]string `json:"maybe_runs,omitempty"`
	// PathComplete is false when a dynamic word cut Path short: more operands
	// follow whose values are unknown.
	PathComplete bool `json:"path_complete"`
	// Assigns are the variable assignments of the command (A=1 cmd).
	Assigns []Assign `json:"assigns"`
	// Redirects are the command's redirections, including those of an
	// enclosing compound command ({ ...; } > f).
	Redirects []Redirect `json:"redirects"`
	// Writes are files the program writes through its arguments (tee f,
	// cp a f, dd of=f), as described by the catalogue.
	Writes []Word `json:"writes"`
	// Removes are files the program takes away from their name through
	// its arguments (mv's sources, gzip's input replaced by FILE.gz), as
	// the catalogue's writes.removes describes: checked as writes there,
	// although nothing is written into them. Only names known statically
	// are listed.
	Removes []Word `json:"removes,omitempty"`
	// Relinks is set when the program makes or moves names (ln, mv, cp -s;
	// the catalogue's writes.relinks): paths later segments use may lead
	// elsewhere at run time than when the command was decided.
	Relinks bool `json:"relinks,omitempty"`
	// OptionGlobs are the words among the arguments, where the program
	// still reads options, that bash may replace with a name starting with
	// "-": patterns (*, ?x, [ab]*) and expansions with nothing known before
	// them ($f, $(ls): OptionGlobPattern gives *). The engine checks the
	// names in the directory.
	OptionGlobs []string `json:"-"`
	// Replaces is set when the files the program writes through its
	// arguments get a new file under their name, or a new mode or owner,
	// rather than data written into them (mv, install, sed -i, chmod; the
	// catalogue's writes.replaces).
	Replaces bool `json:"replaces,omitempty"`
	// ModeOnly is set when the program changes only the mode, owner or
	// times of the files it writes through its arguments (chmod, touch:
	// the catalogue's writes.mode_only): running one later runs the text
	// it had before. Not part of the policy input.
	ModeOnly bool `json:"-"`
	// WritesUnnamed is set when the program writes files under names only
	// known at run time where it runs (curl -O, wget): they are in Writes
	// only where that is a protected place. Not part of the policy input.
	WritesUnnamed bool `json:"-"`
	// Chdir lists the static directories changed into (cd) before this
	// segment runs, in order; ChdirUnknown is set when the directory cannot
	// be known.
	Chdir        []string `json:"chdir,omitempty"`
	ChdirUnknown bool     `json:"chdir_unknown,omitempty"`
	// Context is the path of constructs the segment sits in, outermost
	// first: "pipe", "and", "or", "subshell", "block", "cmdsubst",
	// "procsubst", "if", "while", "until", "for", "case", "function",
	// "negated", "coproc", "time", "heredoc", "arith", "wrapper".
	Context []string `json:"context"`
	// Background is set when the segment runs in the background (&).
	Background bool `json:"background"`
	// PipedFrom is the ID of the simple command whose standard output is
	// this simple command's standard input through a pipe (find . | xargs
	// chmod: xargs is piped from find), or -1. Not part of the policy
	// input.
	PipedFrom int `json:"-"`
	// Via names the wrapper that runs this segment ("sudo", "bash -c",
	// "find -exec", "git alias", "env GIT_SSH_COMMAND").
	Via string `json:"via,omitempty"`
	// Wrapper is set when the segment runs other segments (its children).
	Wrapper bool `json:"wrapper,omitempty"`
	// Transparent is set on wrappers that need no permission of their own.
	Transparent bool `json:"transparent,omitempty"`
	// FunctionCall is set when Program names a function defined in the same
	// command line; its body's segments are judged instead.
	FunctionCall bool `json:"function_call,omitempty"`
	// MayBeFunction is set when a function of Program's name is defined
	// anywhere in the command line, even after this segment in the text (a
	// loop's next round, a trap or a function run later may call it), or
	// gate stopped counting definitions. Not part of the policy input.
	MayBeFunction bool `json:"-"`
	// ImportsCode is set when inline code proven inert imports modules,
	// which the interpreter looks up in the current directory first: a
	// file an earlier part of the command writes or creates could be
	// imported instead (the engine then reports inline_code).
	ImportsCode bool `json:"imports_code,omitempty"`
	// RunsModule is set when the interpreter runs a module by name
	// (python3 -m json.tool): the current directory comes first on its
	// import path, so a file an earlier part of the command writes or
	// creates (argparse.py) may be imported instead of a standard module
	// it uses (the engine then reports inline_code).
	RunsModule bool `json:"runs_module,omitempty"`
	// Reads are files that proven code opens for reading (python3 -c
	// "open('f').read()"), checked like operands for secrets.
	Reads []string `json:"reads,omitempty"`
	// ProvenCode is set when the program is given code (python3 -c CODE,
	// python3 - <<EOF) that a prover read and found inert: the program
	// does not read commands from the terminal.
	ProvenCode bool `json:"proven_code,omitempty"`
	// ContentKnown is set when the segment runs a file (./x.sh, bash x.sh,
	// python3 x.py) whose content the command itself wrote from a literal
	// here-document: the content was checked (inner segments, or proven
	// code) instead of the file on disk. The engine makes it unprovable when
	// a part of the command that may run first may rewrite the file.
	ContentKnown bool `json:"content_known,omitempty"`
	// ContentFile is the file whose known content the segment runs, as
	// written: if the write fails (an existing file that is not writable),
	// the file's old content runs instead.
	ContentFile string `json:"content_file,omitempty"`
	// Findings report what cannot be proven about this segment.
	Findings []Finding `json:"findings"`
}

// Word is a word with its value and whether that value is known.
type Word struct {
	Value   string `json:"value"`
	Dynamic bool   `json:"dynamic"`
	// Pipe is set for a word that is one process substitution (>(cmd),
	// <(cmd)): at run time it names a pipe to or from cmd, a segment of
	// its own, never a file.
	Pipe bool `json:"pipe,omitempty"`
}

// Assign is a variable assignment.
type Assign struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Dynamic bool   `json:"dynamic"`
}

// Redirect is a redirection. Target is empty for here-documents; FD is the
// explicit file descriptor, if any.
type Redirect struct {
	Op      string `json:"op"`
	FD      string `json:"fd,omitempty"`
	Target  string `json:"target"`
	Dynamic bool   `json:"dynamic"`
	// Dup is set for descriptor duplication (2>&1, >&-): Target is a
	// descriptor, not a file.
	Dup bool `json:"dup,omitempty"`
	// Write is set when the redirection opens Target for writing.
	Write bool `json:"write"`
	// Inherited is set for a redirection of an enclosing compound command.
	Inherited bool `json:"inherited,omitempty"`
	// Pipe is set when Target is one process substitution (> >(tee log)):
	// the redirection opens a pipe to or from a command that is a segment
	// of its own, not a file.
	Pipe bool `json:"pipe,omitempty"`
}

// Finding is something about a segment that cannot be proven statically, or
// an effect worth a policy's attention. Codes are stable; policies classify
// them (data.gate.findings).
type Finding struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Finding codes reported by the parser. Catalogue entries may add their own.
const (
	FindDynamicProgram   = "dynamic_program"
	FindGlobProgram      = "glob_program"
	FindDynamicScript    = "dynamic_script"
	FindStdinScript      = "stdin_script"
	FindInlineCode       = "inline_code"
	FindPromptExpansion  = "prompt_expansion"
	FindIndirectExpand   = "indirect_expansion"
	FindArithInjection   = "arithmetic_injection"
	FindEnvCode          = "env_code"
	FindGitConfigCode    = "git_config_code"
	FindGitConfigPlants  = "git_config_plants"
	FindNestingTooDeep   = "nesting_too_deep"
	FindBraceTooLarge    = "brace_expansion_too_large"
	FindDynamicWrapper   = "dynamic_wrapper"
	FindDynamicRedirect  = "dynamic_redirect"
	FindProgramNotFound  = "program_not_found"
	FindProgramModified  = "program_modified"
	FindScriptFile       = "script_file"
	FindDynamicFunction  = "dynamic_function"
	FindUnsupportedShell = "unsupported_syntax"
	FindUnknownOption    = "unknown_option"
	FindRebindsCommands  = "rebinds_commands"
	// FindGitOwnTree: a git subcommand writes the work tree after git
	// commands earlier in the same command changed the repository or its
	// index (git rm --cached && git commit && git reset HEAD~ && git merge
	// …): the tree it writes may lack files the work tree has, which it
	// then deletes.
	FindGitOwnTree = "git_own_tree"
)
