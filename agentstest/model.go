package agentstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Call is a tool call a scenario makes: the tool's name as the agent
// offers it and its arguments.
type Call struct {
	Name string
	Args map[string]any
}

// Request is one request an agent made to the model server.
type Request struct {
	API  string // "anthropic", "openai" or "gemini"
	Path string
	// Tools are the names of the tools the request offered.
	Tools []string
	// Results are the texts of the tool results the request carried.
	Results []string
	// Answered is what the server answered: "call", "search" (a tool
	// search for the call), "final" or "text".
	Answered string
	// done counts the scenario's tool results in the whole conversation;
	// searched is set when the last result answered a tool search.
	done     int
	searched bool
}

// toolSearch is Claude Code's tool that loads deferred tools (MCP tools
// among them) by name: the model asks for a tool it is not offered yet
// with a query "select:NAME", as the real model does.
const toolSearch = "ToolSearch"

// toolBridge is Qwen Code's tool that calls a deferred tool (its MCP
// tools, monitor) by name: {"name": NAME, "arguments": ARGS}.
const toolBridge = "tool_call"

// Final is the text the model answers once it has a tool result.
const Final = "scenario done"

// maxBody bounds a request body the server reads.
const maxBody = 32 << 20

// Server is a scripted model server.
type Server struct {
	URL   string
	calls []Call
	srv   *httptest.Server

	mu   sync.Mutex
	reqs []Request
}

// NewServer starts a model server on 127.0.0.1 that makes calls, one per
// request, each once the previous one's result came back.
func NewServer(calls ...Call) *Server {
	s := &Server{calls: calls}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests recorded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Results returns every tool result text the agent sent back.
func (s *Server) Results() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Results...)
	}
	return out
}

// Called reports whether the server answered a request with the tool call.
func (s *Server) Called() bool {
	for _, r := range s.Requests() {
		if r.Answered == "call" {
			return true
		}
	}
	return false
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

// answer decides what to answer: the next call when the request offers
// its tool, the final text once every call's result came back, else a
// plain text (the agents' side requests: titles, classifiers, quota
// checks). It returns the call to make.
func (s *Server) answer(r *Request) Call {
	switch {
	case r.done < len(s.calls) && contains(r.Tools, s.calls[r.done].Name):
		r.Answered = "call"
		return s.calls[r.done]
	case r.done < len(s.calls) && contains(r.Tools, toolBridge):
		r.Answered = "call"
		return Call{Name: toolBridge, Args: map[string]any{"name": s.calls[r.done].Name, "arguments": s.calls[r.done].Args}}
	case r.done < len(s.calls) && contains(r.Tools, toolSearch) && !r.searched:
		r.Answered = "search"
		return Call{Name: toolSearch, Args: map[string]any{"query": "select:" + s.calls[r.done].Name, "max_results": 5}}
	case r.done > 0:
		r.Answered = "final"
	default:
		r.Answered = "text"
	}
	return Call{}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages") && !strings.Contains(p, "count_tokens"):
		s.anthropic(w, p, body)
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 1})
	case r.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		s.openai(w, p, body)
	case r.Method == http.MethodPost && strings.Contains(p, ":streamGenerateContent"):
		s.gemini(w, p, body, true)
	case r.Method == http.MethodPost && strings.Contains(p, ":generateContent"):
		s.gemini(w, p, body, false)
	case r.Method == http.MethodPost && strings.Contains(p, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 1})
	default:
		s.record(Request{API: "other", Path: r.Method + " " + r.URL.String(), Answered: "404"})
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes one server-sent event (event may be empty) and flushes it.
func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	if event != "" {
		fmt.Fprintf(w, "event: %s\n", event)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// text flattens a tool result's content: a string, a list of text parts,
// or any other JSON (kept as JSON).
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					parts = append(parts, t)
					continue
				}
			}
			parts = append(parts, text(e))
		}
		return strings.Join(parts, "\n")
	case nil:
		return ""
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func (s *Server) anthropic(w http.ResponseWriter, path string, body []byte) {
	var in struct {
		Stream   bool `json:"stream"`
		Tools    []struct{ Name string }
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{API: "anthropic", Path: path}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	for i, m := range in.Messages {
		var blocks []map[string]any
		_ = json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			if b["type"] != "tool_result" {
				continue
			}
			if id, _ := b["tool_use_id"].(string); strings.HasPrefix(id, "toolu_search") {
				req.searched = i == len(in.Messages)-1
				continue
			}
			req.done++
			if i == len(in.Messages)-1 {
				req.Results = append(req.Results, text(b["content"]))
			}
		}
	}
	call := s.answer(&req)
	s.record(req)

	var block map[string]any
	stop := "end_turn"
	switch req.Answered {
	case "call":
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_gate%d", req.done), "name": call.Name, "input": call.Args}
		stop = "tool_use"
	case "search":
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_search%d", req.done), "name": call.Name, "input": call.Args}
		stop = "tool_use"
	case "final":
		block = map[string]any{"type": "text", "text": Final}
	default:
		block = map[string]any{"type": "text", "text": "ok"}
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
	msg := map[string]any{"id": "msg_gate", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"stop_sequence": nil, "usage": usage}
	if !in.Stream {
		msg["content"] = []any{block}
		msg["stop_reason"] = stop
		writeJSON(w, msg)
		return
	}
	startSSE(w)
	msg["content"] = []any{}
	msg["stop_reason"] = nil
	sse(w, "message_start", map[string]any{"type": "message_start", "message": msg})
	if block["type"] == "tool_use" {
		stop = "tool_use"
		args, _ := json.Marshal(call.Args)
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

func (s *Server) openai(w http.ResponseWriter, path string, body []byte) {
	var in struct {
		Stream bool `json:"stream"`
		Tools  []struct {
			Function struct{ Name string }
		}
		Messages []struct {
			Role    string
			Content any
		}
	}
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{API: "openai", Path: path}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	last := true // in the messages after the last assistant message
	for i := len(in.Messages) - 1; i >= 0; i-- {
		switch in.Messages[i].Role {
		case "assistant":
			last = false
		case "tool":
			req.done++
			if last {
				req.Results = append([]string{text(in.Messages[i].Content)}, req.Results...)
			}
		}
	}
	c := s.answer(&req)
	s.record(req)

	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	args, _ := json.Marshal(c.Args)
	call := map[string]any{"index": 0, "id": fmt.Sprintf("call_gate%d", req.done), "type": "function",
		"function": map[string]any{"name": c.Name, "arguments": string(args)}}
	content, finish := "ok", "stop"
	if req.Answered == "final" {
		content = Final
	}
	if !in.Stream {
		m := map[string]any{"role": "assistant", "content": content}
		if req.Answered == "call" {
			m = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}
			finish = "tool_calls"
		}
		writeJSON(w, map[string]any{"id": "chatcmpl-gate", "object": "chat.completion", "created": 1, "model": "gate-model",
			"choices": []any{map[string]any{"index": 0, "message": m, "finish_reason": finish}}, "usage": usage})
		return
	}
	startSSE(w)
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": "chatcmpl-gate", "object": "chat.completion.chunk", "created": 1, "model": "gate-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		sse(w, "", c)
	}
	if req.Answered == "call" {
		chunk(map[string]any{"role": "assistant", "tool_calls": []any{call}}, nil, nil)
		finish = "tool_calls"
	} else {
		chunk(map[string]any{"role": "assistant", "content": content}, nil, nil)
	}
	chunk(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (s *Server) gemini(w http.ResponseWriter, path string, body []byte, stream bool) {
	var in struct {
		Tools []struct {
			FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
		}
		Contents []struct {
			Role  string
			Parts []map[string]any
		}
	}
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{API: "gemini", Path: path}
	for _, t := range in.Tools {
		for _, f := range t.FunctionDeclarations {
			req.Tools = append(req.Tools, f.Name)
		}
	}
	for i, c := range in.Contents {
		for _, p := range c.Parts {
			if fr, ok := p["functionResponse"].(map[string]any); ok {
				req.done++
				if i == len(in.Contents)-1 {
					req.Results = append(req.Results, text(fr["response"]))
				}
			}
		}
	}
	call := s.answer(&req)
	s.record(req)

	part := map[string]any{"text": "ok"}
	switch req.Answered {
	case "call":
		part = map[string]any{"functionCall": map[string]any{"name": call.Name, "args": call.Args}}
	case "final":
		part = map[string]any{"text": Final}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-pro",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	startSSE(w)
	sse(w, "", resp)
}
