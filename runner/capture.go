package runner

import (
	"fmt"
	"sync"
)

// DefaultMaxOutput bounds what is kept of each output stream.
const DefaultMaxOutput = 4 << 20

// capture keeps at most max bytes of a stream and counts the rest. In head
// mode it keeps the first bytes (a foreground command's output reads from
// the start); otherwise the last ones (a background server's latest log
// lines matter most). Memory stays within about 2*max whatever is written.
type capture struct {
	mu      sync.Mutex
	max     int
	head    bool
	buf     []byte
	dropped int64
}

func newCapture(max int, head bool) *capture {
	if max <= 0 {
		max = DefaultMaxOutput
	}
	return &capture{max: max, head: head}
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if c.head {
		room := c.max - len(c.buf)
		if room < 0 {
			room = 0
		}
		if len(p) > room {
			c.dropped += int64(len(p) - room)
			p = p[:room]
		}
		c.buf = append(c.buf, p...)
		return n, nil
	}
	if len(p) >= c.max {
		c.dropped += int64(len(c.buf) + len(p) - c.max)
		c.buf = append(c.buf[:0], p[len(p)-c.max:]...)
		return n, nil
	}
	c.buf = append(c.buf, p...)
	if len(c.buf) > 2*c.max {
		cut := len(c.buf) - c.max
		c.dropped += int64(cut)
		c.buf = append(c.buf[:0], c.buf[cut:]...)
	}
	return n, nil
}

// snapshot returns the kept text, with a notice when bytes were dropped.
func (c *capture) snapshot() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	buf, dropped := c.buf, c.dropped
	if !c.head && len(buf) > c.max {
		dropped += int64(len(buf) - c.max)
		buf = buf[len(buf)-c.max:]
	}
	if dropped == 0 {
		return string(buf), false
	}
	if c.head {
		return string(buf) + fmt.Sprintf("\n[output truncated: %d more bytes not shown; the limit is %d bytes]\n", dropped, c.max), true
	}
	return fmt.Sprintf("[output truncated: the first %d bytes are not shown; the limit is %d bytes]\n", dropped, c.max) + string(buf), true
}
