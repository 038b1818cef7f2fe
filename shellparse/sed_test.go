package shellparse

import "testing"

func TestSedInert(t *testing.T) {
	for script, want := range map[string]bool{
		"s/foo/bar/g":                     true,
		"s/[0-9]\\+/N/2p":                 true,
		"/^#/d; s/x/y/":                   true,
		"1,10{s/a/b/;p}":                  true,
		"$!N; s/\\n/ /":                   true,
		":a;N;$!ba;s/\\n/,/g":             true,
		"/start/,/end/ !d":                true,
		"1a\\\nnew line":                  true,
		"y/abc/xyz/":                      true,
		"s|a/b|c|":                        true,
		"0~2d":                            true,
		"/x/I p":                          true,
		"1i hello world":                  true,
		"e rm x":                          false,
		"s/x/rm v/e":                      false,
		"s/x/y/w out.txt":                 false,
		"0~1e rm victim.txt":              false,
		"1,+1e rm victim.txt":             false,
		"/h/I e rm victim.txt":            false,
		"\\,h, e rm victim.txt":           false,
		"s=h=rm victim.txt=e":             false,
		"s^h^rm victim.txt^e":             false,
		"s h rm\\ victim.txt e":           false,
		"s=h=[alias]=w .git/config":       false,
		"0~1w .git/config":                false,
		"1W out":                          false,
		"s/[/]/X/e":                       false,
		"s/[/]/X/":                        true,
		"/.\\/dir[12]\\/[^/]*$/d":         true,
		"s/^[^/]*\\(.*\\) type .*$/\\1/g": true,
		"s/[[:space:]]*$//":               true,
		"s/[[:space:]/]*$/x/e":            false,
		"s/[]/]/x/w f":                    false,
		"s/[[:alpha:]/]//;e":              false,
		"s/a/b":                           false,
		"/x/{e rm v\n}":                   false,
		"s/a/b/;e":                        false,
		"s/a/b/ # comment\ne rm v":        false,
		"s/x/y/;s/a\\/b/c/e":              false,
		"K":                               false,
	} {
		if got := sedInert(script); got != want {
			t.Errorf("sedInert(%q) = %v, want %v", script, got, want)
		}
	}
}
