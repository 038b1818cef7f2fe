package shellparse

import "context"

// Limits bound the work of one parse. A command over a limit is refused
// unread: [Program.TooComplex] names the limit and Segments is empty.
// A zero field takes its value from [DefaultLimits].
type Limits struct {
	// MaxBytes bounds the command's length in bytes.
	MaxBytes int `json:"max_bytes"`
	// MaxSegments bounds the number of segments.
	MaxSegments int `json:"max_segments"`
	// MaxDepth bounds how deeply constructs nest: the length of a
	// segment's Context (pipes, lists, substitutions, wrappers...).
	MaxDepth int `json:"max_depth"`
	// MaxWords bounds the words (after brace expansion) and assignments of
	// all segments.
	MaxWords int `json:"max_words"`
}

// DefaultLimits are generous for commands people and agents write, and keep
// the policy input of the largest command they admit within a few
// megabytes.
var DefaultLimits = Limits{MaxBytes: 256 << 10, MaxSegments: 1000, MaxDepth: 100, MaxWords: 20000}

// orDefault fills zero fields from DefaultLimits.
func (l Limits) orDefault() Limits {
	d := DefaultLimits
	if l.MaxBytes > 0 {
		d.MaxBytes = l.MaxBytes
	}
	if l.MaxSegments > 0 {
		d.MaxSegments = l.MaxSegments
	}
	if l.MaxDepth > 0 {
		d.MaxDepth = l.MaxDepth
	}
	if l.MaxWords > 0 {
		d.MaxWords = l.MaxWords
	}
	return d
}

// WithLimits sets the parser's limits; zero fields keep their defaults.
func WithLimits(l Limits) Option {
	return func(p *Parser) { p.limits = l.orDefault() }
}

// Limits in [LimitError.Limit].
const (
	LimitBytes    = "length"
	LimitSegments = "segments"
	LimitDepth    = "depth"
	LimitWords    = "words"
	LimitTime     = "time"
)

// LimitError reports a command over one of the parser's limits, or whose
// parse overran its deadline.
type LimitError struct {
	// Limit is LimitBytes, LimitSegments, LimitDepth, LimitWords or
	// LimitTime.
	Limit string `json:"limit"`
	// Max is the limit's value (0 for LimitTime).
	Max     int64  `json:"max"`
	Message string `json:"message"`
}

func (e *LimitError) Error() string { return e.Message }

func overLimit(limit string, max int, what string) *LimitError {
	return &LimitError{Limit: limit, Max: int64(max), Message: "the command has more than " + itoa(max) + " " + what}
}

// checkDone stops the walk when the parse's context has ended. It reads
// the context's channel only every few calls: a select costs more than most
// statements.
func (s *state) checkDone() {
	s.ticks++
	if s.ticks%64 != 0 || s.done == nil {
		return
	}
	select {
	case <-s.done:
		if s.stop == nil {
			s.stop = timeUp(s.ctx)
		}
	default:
	}
}

func timeUp(ctx context.Context) *LimitError {
	return &LimitError{Limit: LimitTime, Message: "parsing the command did not finish in time: " + context.Cause(ctx).Error()}
}

// countWords counts n more words or assignments and reports whether the
// walk must stop.
func (w *walker) countWords(n int) bool {
	w.words += n
	if w.words > w.limits.MaxWords && w.stop == nil {
		w.stop = overLimit(LimitWords, w.limits.MaxWords, "words and assignments")
	}
	return w.stop != nil
}
