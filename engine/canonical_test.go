package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalArgs(t *testing.T) {
	for _, c := range []struct {
		tool, in, want, err string
	}{
		// The seed's names pass unchanged.
		{ToolReadFile, `{"path":"a","offset":1,"limit":2}`, `{"path":"a","offset":1,"limit":2}`, ""},
		{ToolWriteFile, `{"file_path":"a","content":"x"}`, `{"file_path":"a","content":"x"}`, ""},
		// Aliases become the seed's names.
		{ToolReadFile, `{"file_path":"a"}`, `{"path":"a"}`, ""},
		{ToolReadFile, `{"absolute_path":"/r/a"}`, `{"path":"/r/a"}`, ""},
		{ToolReadFile, `{"file_path":"a","start_line":5,"end_line":7}`, `{"path":"a","offset":4,"limit":3}`, ""},
		{ToolReadFile, `{"path":"a","start_line":3}`, `{"path":"a","offset":2}`, ""},
		{ToolReadFile, `{"path":"a","end_line":10}`, `{"path":"a","limit":10}`, ""},
		{ToolShell, `{"command":"ls","dir_path":".gemini"}`, `{"command":"ls","directory":".gemini"}`, ""},
		{ToolListDirectory, `{"dir_path":"src"}`, `{"path":"src"}`, ""},
		{ToolGlob, `{"pattern":"*","dir_path":"src"}`, `{"pattern":"*","path":"src"}`, ""},
		{ToolGrep, `{"pattern":"x","dir_path":"src","include_pattern":"*.go"}`, `{"pattern":"x","path":"src","glob":"*.go"}`, ""},
		{ToolGrep, `{"pattern":"x","include":"*.go"}`, `{"pattern":"x","glob":"*.go"}`, ""},
		{ToolEdit, `{"file_path":"a","old_string":"x","new_string":"y","allow_multiple":true}`, `{"file_path":"a","old_string":"x","new_string":"y","replace_all":true}`, ""},
		// The same value twice is one; two values are refused, since the
		// decision and the run could each take a different one.
		{ToolReadFile, `{"path":"a","file_path":"a"}`, `{"path":"a"}`, ""},
		{ToolShell, `{"command":"ls","directory":"src","dir_path":".gemini"}`, "", `"directory" and "dir_path"`},
		{ToolReadFile, `{"path":"a","file_path":"b"}`, "", `"path" and "file_path"`},
		{ToolReadFile, `{"path":"a","start_line":0}`, "", "positive integer"},
		{ToolReadFile, `{"path":"a","start_line":5,"end_line":4}`, "", "before start_line"},
		{ToolReadFile, `{"path":"a","offset":1,"start_line":5}`, "", "not both"},
	} {
		var in map[string]any
		if err := json.Unmarshal([]byte(c.in), &in); err != nil {
			t.Fatal(err)
		}
		got, err := CanonicalArgs(c.tool, in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %s: error %v, want %q", c.tool, c.in, err, c.err)
			}
			continue
		}
		var want map[string]any
		json.Unmarshal([]byte(c.want), &want)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s: %v %v, want %v", c.tool, c.in, got, err, want)
		}
	}
}
