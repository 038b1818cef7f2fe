package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/gate-dev/gate/engine"
)

// Reload builds a new engine from the current policies and settings, with
// its revision.
type Reload func() (*engine.Engine, string, error)

// reloadDelay gathers the events of one change (an editor's write, rename
// and chmod) into one reload.
const reloadDelay = 200 * time.Millisecond

// Watch reloads the gateway's engine whenever a file under paths changes
// (policy directories, recursively, and settings files), until ctx ends.
// The new engine is compiled off to the side and swapped in at once; one
// that fails keeps the last good engine deciding, and is logged and counted
// in gate_policy_reloads_total{result="error"}.
func (g *Gateway) Watch(ctx context.Context, paths []string, reload Reload) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	for _, p := range paths {
		if err := watchPath(w, p); err != nil {
			w.Close()
			return err
		}
	}
	go func() {
		defer w.Close()
		var timer <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				// New directories under a policy directory are watched too.
				if ev.Has(fsnotify.Create) {
					if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
						_ = watchPath(w, ev.Name)
					}
				}
				timer = time.After(reloadDelay)
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				g.log.Warn("watching policies", "error", err)
			case <-timer:
				timer = nil
				g.ReloadNow(reload)
			}
		}
	}()
	return nil
}

// ReloadNow rebuilds the engine and swaps it in, or keeps the current one
// when the rebuild fails.
func (g *Gateway) ReloadNow(reload Reload) bool {
	e, rev, err := reload()
	if err != nil {
		g.metrics.Reload(false)
		g.log.Error("policy reload refused; the last good policy keeps deciding", "error", err)
		return false
	}
	g.SetEngine(e, rev)
	g.metrics.Reload(true)
	g.log.Info("policy reloaded", "revision", rev)
	return true
}

// watchPath watches a directory and the directories below it, or a file's
// directory (editors replace files by renaming new ones over them).
func watchPath(w *fsnotify.Watcher, p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return w.Add(filepath.Dir(p))
	}
	return filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		return w.Add(path)
	})
}

// Revision names the policies and settings in use: the first 12 hex digits
// of a hash over the files' paths and contents.
func Revision(paths []string) string {
	h := sha256.New()
	for _, p := range paths {
		_ = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			bs, err := os.ReadFile(path)
			if err == nil {
				h.Write([]byte(path + "\x00"))
				h.Write(bs)
			}
			return nil
		})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
