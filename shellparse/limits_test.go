package shellparse

import (
	"context"
	"strings"
	"testing"
)

func limited(tb testing.TB, l Limits) *Parser {
	tb.Helper()
	c, err := defaultCatalogue()
	if err != nil {
		tb.Fatal(err)
	}
	return NewParser(c, WithHome("/home/u"), WithLimits(l))
}

// A command over a limit is refused unread, naming the limit; one at the
// limit is parsed.
func TestLimits(t *testing.T) {
	small := Limits{MaxBytes: 64, MaxSegments: 4, MaxDepth: 3, MaxWords: 8}
	for _, tc := range []struct {
		name    string
		limits  Limits
		command string
		limit   string // "" when the command is within the limits
	}{
		{"length at limit", small, strings.Repeat("x", 64), ""},
		{"length over", small, strings.Repeat("x", 65), LimitBytes},
		{"segments at limit", small, "a; b; c; d", ""},
		{"segments over", small, "a; b; c; d; e", LimitSegments},
		{"segments through a wrapper", small, "a; b; c; sudo d", LimitSegments},
		{"depth at limit", small, "(( (a) ))", ""},
		{"depth over", small, "( ( ( (a) ) ) )", LimitDepth},
		{"depth of substitutions", small, "echo $(echo $(echo $(echo $(echo x))))", LimitDepth},
		{"depth of a pipeline", small, "a | b | c | d | e", LimitDepth},
		{"depth of a list", small, "a && b && c && d && e", LimitDepth},
		{"words at limit", small, "echo {1..7}", ""},
		{"words over by brace expansion", small, "echo {1..8}", LimitWords},
		{"assignments count as words", small, "a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9", LimitWords},
		{"defaults: 30 KB of nested substitutions", Limits{}, nested(30 << 10), LimitDepth},
		{"defaults: a pipeline of 14,000 stages", Limits{}, strings.Repeat("a | ", 13999) + "a", LimitDepth},
		{"defaults: 14,000 commands", Limits{}, strings.Repeat("a; ", 14000), LimitSegments},
		{"defaults: a long heredoc", Limits{}, "cat > f <<'EOF'\n" + strings.Repeat("text $(rm x)\n", 10000) + "EOF", ""},
		{"defaults: over the length", Limits{}, strings.Repeat("a;", 200<<10), LimitBytes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := limited(t, tc.limits).Parse(tc.command)
			if prog.Error != nil {
				t.Fatalf("parse error %v", prog.Error)
			}
			switch {
			case tc.limit == "" && prog.TooComplex != nil:
				t.Fatalf("refused: %+v", prog.TooComplex)
			case tc.limit == "":
				if len(prog.Segments) == 0 {
					t.Fatal("no segments")
				}
			case prog.TooComplex == nil:
				t.Fatalf("not refused; %d segments", len(prog.Segments))
			case prog.TooComplex.Limit != tc.limit || prog.TooComplex.Message == "" || len(prog.Segments) != 0:
				t.Fatalf("refused with %+v and %d segments, want limit %q and none", prog.TooComplex, len(prog.Segments), tc.limit)
			}
		})
	}
}

// nested returns a command of about n bytes nesting $( ... ) in itself.
func nested(n int) string {
	k := n / len("echo $()")
	return strings.Repeat("echo $(", k) + "x" + strings.Repeat(")", k)
}

// A parse still running when its context ends stops, and says why.
func TestParseContextEnded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	prog := testParser(t).ParseContext(ctx, "ls; rm x")
	if prog.TooComplex == nil || prog.TooComplex.Limit != LimitTime || len(prog.Segments) != 0 {
		t.Fatalf("got %+v, %d segments", prog.TooComplex, len(prog.Segments))
	}
	if !strings.Contains(prog.TooComplex.Message, "context canceled") {
		t.Fatalf("message %q does not name the cause", prog.TooComplex.Message)
	}
}

// Segments made in one construct share their context's path, which is
// built once: nesting costs one node per level, not a copy per segment.
func TestContextShared(t *testing.T) {
	prog := testParser(t).Parse("(a; b; c) | d")
	s := prog.Segments
	if len(s) != 4 || &s[0].Context[0] != &s[2].Context[0] {
		t.Fatalf("contexts of one construct are copies: %q", [][]string{s[0].Context, s[2].Context})
	}
	if strings.Join(s[0].Context, "/") != "pipe/subshell" || strings.Join(s[3].Context, "/") != "pipe" {
		t.Fatalf("contexts %q, %q", s[0].Context, s[3].Context)
	}
}
