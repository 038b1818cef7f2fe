//go:build linux

package confine

import (
	"os"
	"sync"
	"testing"
)

// TestProbeLeavesNamespaceAlone guards against probing on a thread of this
// process: if the main thread ended up in the probe's namespace,
// /proc/PID/ns/mnt would change and children would be misjudged.
func TestProbeLeavesNamespaceAlone(t *testing.T) {
	before, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		t.Fatal(err)
	}
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = probeMountNS(nil)
			_ = probeMountNS(userNS(nil))
		}()
	}
	wg.Wait()
	after, _ := os.Readlink("/proc/self/ns/mnt")
	mountsAfter, _ := os.ReadFile("/proc/self/mountinfo")
	if after != before || string(mountsAfter) != string(mounts) {
		t.Errorf("probing changed this process's mount namespace: %s -> %s", before, after)
	}
	if err := probeMountNS(nil); err != nil {
		t.Logf("mount namespaces unavailable here: %v", err)
	}
}
