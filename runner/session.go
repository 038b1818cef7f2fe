package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hinshun/vt10x"

	"github.com/gate-dev/gate/supervise"
)

// Session defaults.
const (
	DefaultRows        = 30
	DefaultCols        = 80
	DefaultIdleTimeout = 10 * time.Minute
	// DefaultMaxSessions is how many sessions may run at once.
	DefaultMaxSessions = 16
	// DefaultMaxSessionCells bounds a session's rows x cols: the terminal
	// emulator keeps two screens of 16-byte cells, 3.2 MB at this size.
	DefaultMaxSessionCells = 100_000
	// DefaultMaxEndedSessions is how many ended sessions keep their screen.
	DefaultMaxEndedSessions = 16
	// DefaultEndedSessionTTL is how long an ended session keeps its screen.
	DefaultEndedSessionTTL = 10 * time.Minute
)

// ErrNoSession is returned for a session id gate does not know.
var ErrNoSession = errors.New("no such session")

// SessionLimits bound interactive sessions. Zero values mean the defaults.
type SessionLimits struct {
	// MaxOpen is how many sessions may run at once.
	MaxOpen int
	// MaxCells bounds rows x cols of a session's terminal, when it starts
	// and when it is resized.
	MaxCells int
	// MaxEnded is how many ended sessions keep their screen until deleted;
	// the oldest are forgotten first.
	MaxEnded int
	// EndedTTL is how long an ended session keeps its screen.
	EndedTTL time.Duration
}

func (l SessionLimits) withDefaults() SessionLimits {
	if l.MaxOpen <= 0 {
		l.MaxOpen = DefaultMaxSessions
	}
	if l.MaxCells <= 0 {
		l.MaxCells = DefaultMaxSessionCells
	}
	if l.MaxEnded <= 0 {
		l.MaxEnded = DefaultMaxEndedSessions
	}
	if l.EndedTTL <= 0 {
		l.EndedTTL = DefaultEndedSessionTTL
	}
	return l
}

// Names of the session limits, as LimitError.Limit and the flags of gate
// serve and gate mcp spell them.
const (
	LimitMaxSessions     = "max-sessions"
	LimitMaxSessionCells = "max-session-cells"
)

// LimitError is a session refused because a limit is reached.
type LimitError struct {
	// Limit names the limit (LimitMaxSessions, LimitMaxSessionCells).
	Limit string
	// Max is its value.
	Max     int
	Message string
}

func (e *LimitError) Error() string { return e.Message }

// Reasons a session is forgotten, as OnRemove reports them.
const (
	RemovedDeleted = "deleted" // Remove: killed if it ran, then forgotten
	RemovedExpired = "expired" // ended longer than EndedTTL ago
	RemovedEvicted = "evicted" // ended, and more than MaxEnded ended ones are kept
)

// SessionRequest starts an interactive session.
type SessionRequest struct {
	Command   string
	Directory string
	Rows      int
	Cols      int
	// Exec decides every program the session's tree runs (what is typed
	// into a shell included), as Request.Exec.
	Exec supervise.Decider `json:"-"`
}

// Session is a command running in a pseudo-terminal, with the screen a
// person would see rendered by a terminal emulator.
type Session struct {
	ID      string    `json:"id"`
	Command string    `json:"command"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	// PTY is false when no pseudo-terminal could be opened and the command
	// runs on plain pipes instead (Notice says why).
	PTY    bool   `json:"pty"`
	Notice string `json:"notice,omitempty"`

	mu       sync.Mutex
	term     vt10x.Terminal
	raw      *capture
	input    io.Writer
	resize   func(rows, cols int) error
	closeIO  func()
	active   time.Time
	ended    *time.Time
	exitCode *int
	signal   *int
	reason   string // why gate ended it: killed, idle
	done     chan struct{}
	grace    time.Duration
	maxCells int   // bounds rows x cols on resize; 0 for no bound
	grp      group // the session's tree (or process group)
}

// blocked lists the execs the supervisor killed in the session's tree.
func (s *Session) blocked() []Blocked { return blockedOf(s.grp.t) }

// Screen is what a person would see in the session's terminal.
type Screen struct {
	ID    string   `json:"id"`
	Rows  int      `json:"rows"`
	Cols  int      `json:"cols"`
	Lines []string `json:"lines"`
	// Text is the lines joined, trailing blanks trimmed.
	Text      string `json:"text"`
	CursorRow int    `json:"cursor_row"`
	CursorCol int    `json:"cursor_col"`
	// Styled is the screen with its colours and attributes as ANSI SGR
	// sequences, when asked for.
	Styled   string `json:"styled,omitempty"`
	Running  bool   `json:"running"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   *int   `json:"signal,omitempty"`
	Ended    string `json:"ended,omitempty"`
	// Blocked are the execs the supervisor killed in the session.
	Blocked []Blocked `json:"blocked,omitempty"`
}

// keys are the named keys Send understands.
var keys = map[string]string{
	"enter": "\r", "return": "\r", "tab": "\t", "esc": "\x1b", "escape": "\x1b", "backspace": "\x7f", "space": " ",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D", "home": "\x1b[H", "end": "\x1b[F",
	"pageup": "\x1b[5~", "pagedown": "\x1b[6~", "delete": "\x1b[3~", "insert": "\x1b[2~",
}

// KeyBytes returns the bytes a named key sends: Enter, Esc, Tab, Backspace,
// Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Insert,
// and Ctrl-A ... Ctrl-Z (Ctrl-C, Ctrl-D, ...).
func KeyBytes(name string) (string, error) {
	n := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	if s, ok := keys[strings.ReplaceAll(n, "-", "")]; ok {
		return s, nil
	}
	for _, p := range []string{"ctrl-", "ctrl+", "c-", "^"} {
		if rest, ok := strings.CutPrefix(n, p); ok && len(rest) == 1 && rest[0] >= 'a' && rest[0] <= 'z' {
			return string(rune(rest[0] & 0x1f)), nil
		}
	}
	return "", fmt.Errorf("unknown key %q", name)
}

// Send types text, then the named keys (see KeyBytes), into the session.
func (s *Session) Send(text string, keyNames ...string) error {
	var b strings.Builder
	b.WriteString(text)
	for _, k := range keyNames {
		kb, err := KeyBytes(k)
		if err != nil {
			return err
		}
		b.WriteString(kb)
	}
	s.mu.Lock()
	if s.ended != nil {
		s.mu.Unlock()
		return fmt.Errorf("session %s has ended", s.ID)
	}
	s.active = time.Now()
	w := s.input
	s.mu.Unlock()
	_, err := io.WriteString(w, b.String())
	return err
}

// Resize changes the terminal's size. A size over the session's rows x cols
// limit is a *LimitError.
func (s *Session) Resize(rows, cols int) error {
	if rows <= 0 || cols <= 0 || rows > 1000 || cols > 1000 {
		return fmt.Errorf("size %dx%d out of range", rows, cols)
	}
	if err := checkCells(rows, cols, s.maxCells); err != nil {
		return err
	}
	s.term.Resize(cols, rows)
	if s.resize != nil {
		return s.resize(rows, cols)
	}
	return nil
}

// Screen renders the terminal; styled adds the colours.
func (s *Session) Screen(styled bool) Screen {
	s.term.Lock()
	cols, rows := s.term.Size()
	cur := s.term.Cursor()
	sc := Screen{ID: s.ID, Rows: rows, Cols: cols, CursorRow: cur.Y, CursorCol: cur.X}
	var sb strings.Builder
	for y := 0; y < rows; y++ {
		var lb strings.Builder
		last := vt10x.Glyph{FG: vt10x.DefaultFG, BG: vt10x.DefaultBG}
		for x := 0; x < cols; x++ {
			g := s.term.Cell(x, y)
			c := g.Char
			if c == 0 {
				c = ' '
			}
			lb.WriteRune(c)
			if styled {
				if g.FG != last.FG || g.BG != last.BG || g.Mode != last.Mode {
					sb.WriteString(sgr(g))
					last = g
				}
				sb.WriteRune(c)
			}
		}
		if styled {
			sb.WriteString("\x1b[0m\n")
		}
		sc.Lines = append(sc.Lines, strings.TrimRight(lb.String(), " "))
	}
	s.term.Unlock()
	sc.Text = strings.TrimRight(strings.Join(sc.Lines, "\n"), "\n ")
	if styled {
		sc.Styled = sb.String()
	}
	s.mu.Lock()
	sc.Running = s.ended == nil
	sc.ExitCode, sc.Signal, sc.Ended = s.exitCode, s.signal, s.reason
	s.mu.Unlock()
	if bl := s.blocked(); len(bl) > 0 {
		sc.Blocked = bl
	}
	return sc
}

// vt10x's glyph modes (its attr constants, unexported).
const (
	modeReverse   = 1 << 0
	modeUnderline = 1 << 1
	modeBold      = 1 << 2
)

func sgr(g vt10x.Glyph) string {
	codes := []string{"0"}
	if g.Mode&modeBold != 0 {
		codes = append(codes, "1")
	}
	if g.Mode&modeUnderline != 0 {
		codes = append(codes, "4")
	}
	if g.Mode&modeReverse != 0 {
		codes = append(codes, "7")
	}
	if g.FG < 256 {
		codes = append(codes, fmt.Sprintf("38;5;%d", g.FG))
	}
	if g.BG < 256 {
		codes = append(codes, fmt.Sprintf("48;5;%d", g.BG))
	}
	return "\x1b[" + strings.Join(codes, ";") + "m"
}

// Raw returns the latest raw output, escape sequences and colours kept.
func (s *Session) Raw() string {
	out, _ := s.raw.snapshot()
	return out
}

// Wait waits until the session's command exits or ctx ends, and reports
// whether it exited.
func (s *Session) Wait(ctx context.Context) bool {
	select {
	case <-s.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// Kill ends the session's process group (SIGTERM, then SIGKILL after the
// grace period) and waits for it.
func (s *Session) Kill(reason string) {
	s.mu.Lock()
	if s.ended == nil && s.reason == "" {
		s.reason = reason
	}
	s.mu.Unlock()
	s.grp.stop(s.grace)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
	s.grp.gone(time.Second)
}

// feed copies the command's output into the emulator and the raw capture,
// keeping a rune split across reads for the next one.
func (s *Session) feed(r io.Reader) {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			s.raw.Write(buf[:n])
			data := append(pending, buf[:n]...)
			cut := len(data)
			for cut > 0 && cut > len(data)-utf8.UTFMax && !utf8.FullRune(data[lastRuneStart(data[:cut]):cut]) {
				cut = lastRuneStart(data[:cut])
			}
			s.term.Write(data[:cut])
			pending = append([]byte(nil), data[cut:]...)
			s.mu.Lock()
			s.active = time.Now()
			s.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return len(b)
}

// checkCells refuses a terminal of more than max cells (max 0: no bound).
func checkCells(rows, cols, max int) error {
	if max > 0 && rows*cols > max {
		return &LimitError{Limit: LimitMaxSessionCells, Max: max,
			Message: fmt.Sprintf("a %dx%d terminal has %d cells; a session may have at most %d (%s)", rows, cols, rows*cols, max, LimitMaxSessionCells)}
	}
	return nil
}

// Sessions tracks interactive sessions, within their limits. It is safe
// for concurrent use.
type Sessions struct {
	r           *Runner
	idleTimeout time.Duration
	limits      SessionLimits

	mu       sync.Mutex
	m        map[string]*Session
	starting int // sessions being started, counted as open
	onChange func(open int)
	onEnd    func(outcome string)
	onRemove func(reason string)
	janitor  bool
}

// Limits returns the session limits in force.
func (ss *Sessions) Limits() SessionLimits { return ss.limits }

// OnRemove registers f, called with the reason each session is forgotten
// (RemovedDeleted, RemovedExpired, RemovedEvicted).
func (ss *Sessions) OnRemove(f func(reason string)) {
	ss.mu.Lock()
	ss.onRemove = f
	ss.mu.Unlock()
}

// openLocked counts the sessions whose command runs, and those starting.
func (ss *Sessions) openLocked() int {
	n := ss.starting
	for _, s := range ss.m {
		s.mu.Lock()
		if s.ended == nil {
			n++
		}
		s.mu.Unlock()
	}
	return n
}

// Check reports whether a session of this size could start now: a
// *LimitError when it is too large or MaxOpen sessions run. Start checks
// again.
func (ss *Sessions) Check(rows, cols int) error {
	rows, cols = sessionSize(rows, cols)
	if err := checkCells(rows, cols, ss.limits.MaxCells); err != nil {
		return err
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.fullLocked()
}

func (ss *Sessions) fullLocked() error {
	if n := ss.openLocked(); n >= ss.limits.MaxOpen {
		return &LimitError{Limit: LimitMaxSessions, Max: ss.limits.MaxOpen,
			Message: fmt.Sprintf("%d sessions are open, the most gate runs at once (%s); end one first", n, LimitMaxSessions)}
	}
	return nil
}

func sessionSize(rows, cols int) (int, int) {
	if rows <= 0 {
		rows = DefaultRows
	}
	if cols <= 0 {
		cols = DefaultCols
	}
	return rows, cols
}

// SetIdleTimeout sets how long a session may see no input and no output
// before gate ends it.
func (ss *Sessions) SetIdleTimeout(d time.Duration) {
	if d > 0 {
		ss.mu.Lock()
		ss.idleTimeout = d
		ss.mu.Unlock()
	}
}

// OnChange registers f, called with the number of open sessions, and
// onEnd, called with how each session ended (exited, killed, idle, failed).
func (ss *Sessions) OnChange(f func(open int), onEnd func(outcome string)) {
	ss.mu.Lock()
	ss.onChange, ss.onEnd = f, onEnd
	ss.mu.Unlock()
}

func (ss *Sessions) changed() {
	ss.mu.Lock()
	n := 0
	for _, s := range ss.m {
		s.mu.Lock()
		if s.ended == nil {
			n++
		}
		s.mu.Unlock()
	}
	f := ss.onChange
	ss.mu.Unlock()
	if f != nil {
		f(n)
	}
}

// Get returns a session.
func (ss *Sessions) Get(id string) (*Session, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s, ok := ss.m[id]
	if !ok {
		return nil, ErrNoSession
	}
	return s, nil
}

// List returns the sessions' screens, without styles, by start time.
func (ss *Sessions) List() []Screen {
	ss.mu.Lock()
	list := make([]*Session, 0, len(ss.m))
	for _, s := range ss.m {
		list = append(list, s)
	}
	ss.mu.Unlock()
	sort.Slice(list, func(i, j int) bool { return list[i].Started.Before(list[j].Started) })
	out := make([]Screen, len(list))
	for i, s := range list {
		out[i] = s.Screen(false)
	}
	return out
}

// Remove kills a session if it runs and forgets it.
func (ss *Sessions) Remove(id string) error {
	s, err := ss.Get(id)
	if err != nil {
		return err
	}
	s.Kill("killed")
	ss.mu.Lock()
	_, known := ss.m[id]
	delete(ss.m, id)
	f := ss.onRemove
	ss.mu.Unlock()
	if known && f != nil {
		f(RemovedDeleted)
	}
	ss.changed()
	return nil
}

// forgetEnded forgets ended sessions that ended more than EndedTTL before
// now, then the oldest ended ones beyond MaxEnded.
func (ss *Sessions) forgetEnded(now time.Time) {
	type ended struct {
		id string
		at time.Time
	}
	ss.mu.Lock()
	var list []ended
	for id, s := range ss.m {
		s.mu.Lock()
		if s.ended != nil {
			list = append(list, ended{id, *s.ended})
		}
		s.mu.Unlock()
	}
	sort.Slice(list, func(i, j int) bool { return list[i].at.After(list[j].at) })
	var removed []string
	for i, e := range list {
		switch {
		case now.Sub(e.at) > ss.limits.EndedTTL:
			removed = append(removed, RemovedExpired)
		case i >= ss.limits.MaxEnded:
			removed = append(removed, RemovedEvicted)
		default:
			continue
		}
		delete(ss.m, e.id)
	}
	f := ss.onRemove
	ss.mu.Unlock()
	if f != nil {
		for _, why := range removed {
			f(why)
		}
	}
}

// KillAll ends every session.
func (ss *Sessions) KillAll() {
	ss.mu.Lock()
	list := make([]*Session, 0, len(ss.m))
	for _, s := range ss.m {
		list = append(list, s)
	}
	ss.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() { defer wg.Done(); s.Kill("killed") }()
	}
	wg.Wait()
}

// Start starts a command in a pseudo-terminal of the requested size (in
// the runner's root or a directory inside it). When no pseudo-terminal can
// be opened it runs on pipes instead, with a notice.
func (ss *Sessions) Start(req SessionRequest) (*Session, error) {
	return ss.start(req, true, 0)
}

// start starts a session; a registered one is listed and reaped when idle.
// emuRows, when larger than the terminal's rows, makes the emulator taller
// than the terminal, so that lines scrolled off the top stay readable.
func (ss *Sessions) start(req SessionRequest, register bool, emuRows int) (*Session, error) {
	r := ss.r
	dir, err := r.Dir(req.Directory)
	if err != nil {
		return nil, err
	}
	if req.Command == "" {
		return nil, &ArgError{"command", "Command cannot be empty."}
	}
	req.Rows, req.Cols = sessionSize(req.Rows, req.Cols)
	if req.Rows > 1000 || req.Cols > 1000 {
		return nil, &ArgError{"rows", "rows and cols must be at most 1000"}
	}
	maxCells := 0
	if register {
		maxCells = ss.limits.MaxCells
		if err := checkCells(req.Rows, req.Cols, maxCells); err != nil {
			return nil, err
		}
		// A place among the open sessions is taken before the command
		// starts, so that concurrent starts cannot exceed MaxOpen.
		ss.mu.Lock()
		if err := ss.fullLocked(); err != nil {
			ss.mu.Unlock()
			return nil, err
		}
		ss.starting++
		ss.mu.Unlock()
		defer func() {
			ss.mu.Lock()
			ss.starting--
			ss.mu.Unlock()
		}()
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	s := &Session{ID: hex.EncodeToString(id[:]), Command: req.Command, Started: time.Now(), active: time.Now(),
		raw: newCapture(r.opts.MaxOutput, false), done: make(chan struct{}), grace: r.opts.KillGrace, maxCells: maxCells}
	if err := r.checkLayers(); err != nil {
		return nil, err
	}
	d, err := r.decider(req.Exec)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bash", "-c", req.Command)
	cmd.Dir = dir
	cmd.Env = r.ptyEnv()
	tree, err := r.supervised(cmd, d)
	if err != nil {
		return nil, err
	}
	var out io.Reader
	if ptmx, perr := ss.startPTY(cmd, req.Rows, req.Cols); perr == nil {
		if tree != nil {
			if err := tree.Attach(); err != nil {
				ptmx.Close()
				return nil, err
			}
		}
		s.PTY = true
		s.input = ptmx
		s.resize = func(rows, cols int) error { return setSize(ptmx, rows, cols) }
		s.closeIO = func() { ptmx.Close() }
		out = ptmx
		s.term = vt10x.New(vt10x.WithSize(req.Cols, max(req.Rows, emuRows)), vt10x.WithWriter(ptmx))
	} else {
		if tree != nil {
			tree.Close()
		}
		s.Notice = "no pseudo-terminal could be opened (" + perr.Error() + "); the command runs on plain pipes"
		cmd = shellCommand(req.Command)
		cmd.Dir = dir
		cmd.Env = r.ptyEnv()
		if tree, err = r.supervised(cmd, d); err != nil {
			return nil, err
		}
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		pr, pw, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		cmd.Stdout, cmd.Stderr = pw, pw
		if tree != nil {
			err = tree.Start()
		} else {
			err = cmd.Start()
		}
		if err != nil {
			pr.Close()
			pw.Close()
			return nil, err
		}
		pw.Close()
		s.input = stdin
		s.closeIO = func() { stdin.Close(); pr.Close() }
		out = pr
		s.term = vt10x.New(vt10x.WithSize(req.Cols, max(req.Rows, emuRows)))
	}
	s.PID = cmd.Process.Pid
	s.grp = group{pgid: s.PID, t: tree}
	fed := make(chan struct{})
	go func() { s.feed(out); close(fed) }()
	go func() {
		status, err := waitStatus(cmd, tree)
		// What the command printed last is still in the terminal.
		select {
		case <-fed:
		case <-time.After(200 * time.Millisecond):
		}
		s.closeIO()
		now := time.Now()
		s.mu.Lock()
		s.ended = &now
		s.exitCode, s.signal = codes(status, err)
		reason := s.reason
		if reason == "" {
			reason = "exited"
			s.reason = reason
		}
		s.mu.Unlock()
		// Jobs the command left in its tree (or group) end with the
		// session.
		if s.grp.alive() {
			s.grp.kill()
		} else {
			s.grp.gone(time.Second)
		}
		close(s.done)
		if !register {
			return
		}
		ss.mu.Lock()
		onEnd := ss.onEnd
		ss.mu.Unlock()
		if onEnd != nil {
			onEnd(reason)
		}
		ss.forgetEnded(time.Now())
		ss.changed()
	}()
	if !register {
		return s, nil
	}
	ss.mu.Lock()
	ss.m[s.ID] = s
	if !ss.janitor {
		ss.janitor = true
		go ss.reapIdle()
	}
	ss.mu.Unlock()
	ss.changed()
	return s, nil
}

// reapIdle ends sessions idle for longer than the idle timeout and forgets
// ended sessions past their time, while any session is kept.
func (ss *Sessions) reapIdle() {
	for {
		ss.forgetEnded(time.Now())
		ss.mu.Lock()
		timeout := ss.idleTimeout
		var idle []*Session
		for _, s := range ss.m {
			s.mu.Lock()
			if s.ended == nil && time.Since(s.active) > timeout {
				idle = append(idle, s)
			}
			s.mu.Unlock()
		}
		if len(ss.m) == 0 {
			ss.janitor = false
			ss.mu.Unlock()
			return
		}
		ss.mu.Unlock()
		for _, s := range idle {
			s.Kill("idle")
		}
		time.Sleep(min(timeout/4, ss.limits.EndedTTL/4, time.Second))
	}
}
