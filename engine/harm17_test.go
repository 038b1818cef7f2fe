package engine

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestSeventeenthRoundRealBash: what rt31 found the static layer let
// through, each run for real:
//   - unzip reads -d at the end of a cluster of flags, its value attached
//     (-qod.git/hooks) or the next word;
//   - zip -O (--output-file, abbreviated --out=) writes the archive there;
//   - wget -r / -x with -nH saves the URL's path below its directory:
//     http://host/.git/hooks/pre-commit is .git/hooks/pre-commit.
func TestSeventeenthRoundRealBash(t *testing.T) {
	hook := "#!/bin/sh\nexit 0\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.git/hooks/pre-commit" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(hook))
	}))
	defer srv.Close()
	url := srv.URL + "/.git/hooks/pre-commit"
	zipHook := "mkdir -p z && printf '#!/bin/sh\\\\nexit 0\\\\n' > z/pre-commit && chmod +x z/pre-commit && (cd z && zip -q ../x.zip pre-commit)"
	runHarm(t, []harmCase{
		{command: "unzip -qod.git/hooks x.zip", setup: harmRepo + " && " + zipHook, tools: []string{"git", "zip", "unzip"}, harm: ".git/hooks/pre-commit"},
		{command: "unzip -qo -d.git/hooks x.zip", setup: harmRepo + " && " + zipHook, tools: []string{"git", "zip", "unzip"}, harm: ".git/hooks/pre-commit"},
		{command: "unzip -qod ../outside-unzip x.zip", setup: zipHook, tools: []string{"zip", "unzip"}, harm: "../outside-unzip/pre-commit"},
		{command: "zip -q -O../outside.zip x.zip a", setup: "echo a > a && zip -q x.zip a", tools: []string{"zip"}, harm: "../outside.zip"},
		{command: "zip -q --out=../outside.zip x.zip a", setup: "echo a > a && zip -q x.zip a", tools: []string{"zip"}, harm: "../outside.zip"},
		{command: "zip -q x.zip a -O ../outside.zip", setup: "echo a > a && zip -q x.zip a", tools: []string{"zip"}, harm: "../outside.zip"},
		{command: "wget -q -r -nH " + url, setup: harmRepo, tools: []string{"git", "wget"}, harm: ".git/hooks/pre-commit"},
		{command: "wget -q --force-dir --no-host-directories " + url, setup: harmRepo, tools: []string{"git", "wget"}, harm: ".git/hooks/pre-commit"},
	})
	allowedStill(t, "unzip -o x.zip -d out", "unzip -q x.zip", "unzip -Pd.. x.zip", "zip -q x.zip a", "zip -qr x.zip src", "wget -q "+url[:len(url)-len("/.git/hooks/pre-commit")]+"/a.txt")
}
