package runner

import (
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/gate-dev/gate/supervise"
)

// maxFinished bounds how many ended background processes are remembered.
const maxFinished = 100

// ErrNoProcess is returned for a PID gate does not track.
var ErrNoProcess = errors.New("no such background process")

// Process is a background process group that gate started: an
// is_background call, or jobs a foreground command left running with &.
type Process struct {
	// PID is the process (and process group) id.
	PID int `json:"pid"`
	// PIDs are the members left running by a foreground command.
	PIDs        []int     `json:"pids,omitempty"`
	Command     string    `json:"command"`
	Description string    `json:"description,omitempty"`
	Directory   string    `json:"directory,omitempty"`
	Started     time.Time `json:"started"`
	// Running is true until the process (or, for adopted jobs, the whole
	// group) has ended.
	Running  bool       `json:"running"`
	Ended    *time.Time `json:"ended,omitempty"`
	ExitCode *int       `json:"exit_code,omitempty"`
	Signal   *int       `json:"signal,omitempty"`
	// Adopted is set for jobs left running by a foreground command; their
	// output went to the command's pipes and is not kept.
	Adopted bool `json:"adopted,omitempty"`
	// Stdout and Stderr are the latest output, filled in by Get.
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// Blocked are the execs the supervisor killed before they ran.
	Blocked []Blocked `json:"blocked,omitempty"`

	stdout, stderr *capture
	done           chan struct{}
	grp            group
}

// Background tracks background process groups.
type Background struct {
	grace time.Duration

	mu       sync.Mutex
	procs    map[int]*Process
	finished []int
	onChange func(running int)
	watching bool
}

func newBackground(grace time.Duration) *Background {
	return &Background{grace: grace, procs: map[int]*Process{}}
}

// OnChange registers f, called with the number of running processes
// whenever it may have changed (for a gauge).
func (b *Background) OnChange(f func(running int)) {
	b.mu.Lock()
	b.onChange = f
	b.mu.Unlock()
	b.changed()
}

func (b *Background) changed() {
	b.mu.Lock()
	f := b.onChange
	n := 0
	for _, p := range b.procs {
		if p.Running {
			n++
		}
	}
	b.mu.Unlock()
	if f != nil {
		f(n)
	}
}

func (b *Background) add(p *Process) {
	b.mu.Lock()
	p.Running = true
	b.procs[p.PID] = p
	b.mu.Unlock()
	b.changed()
}

// adopt registers the jobs a foreground command left in its tree (or
// group).
func (b *Background) adopt(g group, pids []int, req Request) {
	p := &Process{PID: g.pgid, PIDs: append([]int(nil), pids...), Command: req.Command, Description: req.Description,
		Directory: req.Directory, Started: time.Now(), Adopted: true, done: make(chan struct{}), grp: g}
	b.add(p)
	b.mu.Lock()
	if !b.watching {
		b.watching = true
		go b.watchAdopted()
	}
	b.mu.Unlock()
}

// watchAdopted notices when adopted groups have ended: gate is not their
// parent, so no wait tells it.
func (b *Background) watchAdopted() {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		b.mu.Lock()
		var gone []*Process
		left := 0
		for _, p := range b.procs {
			if p.Adopted && p.Running {
				if p.grp.alive() {
					left++
				} else {
					gone = append(gone, p)
				}
			}
		}
		if left == 0 {
			b.watching = false
		}
		b.mu.Unlock()
		for _, p := range gone {
			b.ended(p, nil, nil)
		}
		if left == 0 {
			return
		}
	}
}

func (b *Background) exited(p *Process, st supervise.Status, err error) {
	code, sig := codes(st, err)
	b.ended(p, code, sig)
}

func (b *Background) ended(p *Process, code, sig *int) {
	b.mu.Lock()
	if !p.Running {
		b.mu.Unlock()
		return
	}
	now := time.Now()
	p.Running, p.Ended, p.ExitCode, p.Signal = false, &now, code, sig
	close(p.done)
	b.finished = append(b.finished, p.PID)
	for len(b.finished) > maxFinished {
		old := b.finished[0]
		b.finished = b.finished[1:]
		if q := b.procs[old]; q != nil && !q.Running {
			delete(b.procs, old)
		}
	}
	b.mu.Unlock()
	b.changed()
}

func (b *Background) snapshot(p *Process, output bool) Process {
	c := *p
	c.stdout, c.stderr, c.done, c.grp = nil, nil, nil, group{}
	if bl := blockedOf(p.grp.t); len(bl) > 0 {
		c.Blocked = bl
	}
	if output && p.stdout != nil {
		c.Stdout, _ = p.stdout.snapshot()
		c.Stderr, _ = p.stderr.snapshot()
	}
	return c
}

// List returns the tracked processes, running and recently ended, by PID.
func (b *Background) List() []Process {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Process, 0, len(b.procs))
	for _, p := range b.procs {
		out = append(out, b.snapshot(p, false))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// Running returns how many tracked processes are running.
func (b *Background) Running() int {
	n := 0
	for _, p := range b.List() {
		if p.Running {
			n++
		}
	}
	return n
}

// Get returns one process with its captured output.
func (b *Background) Get(pid int) (Process, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.procs[pid]
	if !ok {
		return Process{}, ErrNoProcess
	}
	return b.snapshot(p, true), nil
}

// Stop ends a process's group (SIGTERM, then SIGKILL after the grace
// period) and returns its final state.
func (b *Background) Stop(pid int) (Process, error) {
	b.mu.Lock()
	p, ok := b.procs[pid]
	b.mu.Unlock()
	if !ok {
		return Process{}, ErrNoProcess
	}
	b.stop(p)
	return b.Get(pid)
}

func (b *Background) stop(p *Process) {
	p.grp.stop(b.grace)
	if p.Adopted {
		b.ended(p, nil, nil)
		return
	}
	select {
	case <-p.done:
	case <-time.After(time.Second):
	}
}

// StopAll stops every running process group.
func (b *Background) StopAll() {
	b.mu.Lock()
	var running []*Process
	for _, p := range b.procs {
		if p.Running {
			running = append(running, p)
		}
	}
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range running {
		wg.Add(1)
		go func() { defer wg.Done(); b.stop(p) }()
	}
	wg.Wait()
}
