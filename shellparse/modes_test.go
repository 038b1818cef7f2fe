package shellparse

import "testing"

// Programs with modes (cmake -E MODE): the words after the mode are read
// with the mode's description; a mode gate does not know is unprovable.
func TestSegmentsModes(t *testing.T) {
	runRows(t, []row{
		r("cmake -E env X=1 -- rm x", seg("cmake", "cmake", "-E", "env", "X=1", "--", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "cmake").as(av("X", "1"))),
		r("cmake -E time rm x", seg("cmake", "cmake", "-E", "time", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "cmake")),
		r("cmake -E chdir sub rm x", seg("cmake", "cmake", "-E", "chdir", "sub", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "cmake").cd("sub")),
		r("env -C sub rm x", seg("env", "env", "-C", "sub", "rm", "x").twraps(), seg("rm", "rm", "x").in("wrapper").by(0, "env").cd("sub")),
		r("cmake -E env --frob rm x", seg("cmake", "cmake", "-E", "env", "--frob", "rm", "x").twraps().find("unknown_option")),
		r("cmake -E rm -f x", seg("cmake", "cmake", "-E", "rm", "-f", "x").writes(wd("x"))),
		r("cmake -E copy a ../b", seg("cmake", "cmake", "-E", "copy", "a", "../b").writes(wd("../b"))),
		r("cmake -E cmake_link_script x", seg("cmake", "cmake", "-E", "cmake_link_script", "x").find("unknown_option")),
		r("cmake -E $m rm x", seg("cmake", "cmake", "-E", "$m", "rm", "x").dyn(2).find("unknown_option")),
		r("cmake -E echo rm x", seg("cmake", "cmake", "-E", "echo", "rm", "x")),
		r("cmake -S . -B build", seg("cmake", "cmake", "-S", ".", "-B", "build")),
	})
}
