package runner

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// limitErr returns err as a *LimitError of the named limit, or fails.
func limitErr(t *testing.T, err error, limit string) *LimitError {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit {
		t.Fatalf("want a %s limit error, got %v", limit, err)
	}
	return le
}

func startSession(t *testing.T, r *Runner, command string) *Session {
	t.Helper()
	s, err := r.Sessions().Start(SessionRequest{Command: command})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// removals records the reasons sessions are forgotten.
type removals struct {
	mu   sync.Mutex
	seen []string
}

func (rm *removals) add(why string) { rm.mu.Lock(); rm.seen = append(rm.seen, why); rm.mu.Unlock() }

func (rm *removals) count(why string) int {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	n := 0
	for _, w := range rm.seen {
		if w == why {
			n++
		}
	}
	return n
}

func TestSessionLimitOpen(t *testing.T) {
	r := newTestRunner(t, Options{Sessions: SessionLimits{MaxOpen: 2}})
	done := startSession(t, r, "true")
	waitExit(t, done) // an ended session does not count
	a := startSession(t, r, "sleep 100")
	startSession(t, r, "sleep 100")
	_, err := r.Sessions().Start(SessionRequest{Command: "sleep 100"})
	if le := limitErr(t, err, LimitMaxSessions); le.Max != 2 {
		t.Fatalf("max %d", le.Max)
	}
	limitErr(t, r.Sessions().Check(0, 0), LimitMaxSessions)
	if err := r.Sessions().Remove(a.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.Sessions().Check(0, 0); err != nil {
		t.Fatalf("a place is free: %v", err)
	}
	startSession(t, r, "sleep 100")
}

// Concurrent starts cannot exceed the limit: places are taken before the
// commands start.
func TestSessionLimitOpenConcurrent(t *testing.T) {
	r := newTestRunner(t, Options{Sessions: SessionLimits{MaxOpen: 3}})
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		started int
		refused int
	)
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.Sessions().Start(SessionRequest{Command: "sleep 100"})
			mu.Lock()
			defer mu.Unlock()
			var le *LimitError
			switch {
			case err == nil:
				started++
			case errors.As(err, &le):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if started != 3 || refused != 9 {
		t.Fatalf("started %d, refused %d", started, refused)
	}
}

func TestSessionLimitCells(t *testing.T) {
	r := newTestRunner(t, Options{Sessions: SessionLimits{MaxCells: 1000}})
	_, err := r.Sessions().Start(SessionRequest{Command: "sleep 100", Rows: 40, Cols: 40})
	if le := limitErr(t, err, LimitMaxSessionCells); le.Max != 1000 {
		t.Fatalf("max %d", le.Max)
	}
	limitErr(t, r.Sessions().Check(40, 40), LimitMaxSessionCells)
	// The default size, 30x80, is over this limit too.
	limitErr(t, r.Sessions().Check(0, 0), LimitMaxSessionCells)
	s, err := r.Sessions().Start(SessionRequest{Command: "sleep 100", Rows: 20, Cols: 50})
	if err != nil {
		t.Fatal(err)
	}
	limitErr(t, s.Resize(40, 40), LimitMaxSessionCells)
	if sc := s.Screen(false); sc.Rows != 20 || sc.Cols != 50 {
		t.Fatalf("a refused resize changed the size to %dx%d", sc.Rows, sc.Cols)
	}
	if err := s.Resize(10, 100); err != nil {
		t.Fatal(err)
	}
	if sc := s.Screen(false); sc.Rows != 10 || sc.Cols != 100 {
		t.Fatalf("size %dx%d", sc.Rows, sc.Cols)
	}
}

// waitGone waits until a session is forgotten.
func waitGone(t *testing.T, r *Runner, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := r.Sessions().Get(id); errors.Is(err, ErrNoSession) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("session %s is still kept", id)
}

func TestEndedSessionsExpire(t *testing.T) {
	r := newTestRunner(t, Options{Sessions: SessionLimits{EndedTTL: 100 * time.Millisecond}})
	var rm removals
	r.Sessions().OnRemove(rm.add)
	s := startSession(t, r, "echo bye")
	if sc := waitExit(t, s); sc.Running {
		t.Fatal("still running")
	}
	if _, err := r.Sessions().Get(s.ID); err != nil {
		t.Fatalf("an ended session keeps its screen for a while: %v", err)
	}
	waitGone(t, r, s.ID)
	if rm.count(RemovedExpired) != 1 {
		t.Fatalf("removals %v", rm.seen)
	}
}

func TestEndedSessionsBounded(t *testing.T) {
	r := newTestRunner(t, Options{Sessions: SessionLimits{MaxEnded: 2}})
	var rm removals
	r.Sessions().OnRemove(rm.add)
	var ids []string
	for i := 0; i < 4; i++ {
		s := startSession(t, r, "true")
		waitExit(t, s)
		ids = append(ids, s.ID)
	}
	running := startSession(t, r, "sleep 100")
	waitGone(t, r, ids[0])
	waitGone(t, r, ids[1])
	for _, id := range append(ids[2:], running.ID) {
		if _, err := r.Sessions().Get(id); err != nil {
			t.Errorf("session %s: %v", id, err)
		}
	}
	if rm.count(RemovedEvicted) != 2 {
		t.Fatalf("removals %v", rm.seen)
	}
	if err := r.Sessions().Remove(ids[3]); err != nil || rm.count(RemovedDeleted) != 1 {
		t.Fatalf("remove: %v %v", err, rm.seen)
	}
}
