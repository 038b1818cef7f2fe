// Package agentstest runs real coding agents (Claude Code, Qwen Code,
// Gemini CLI) through gate against a scripted model server on 127.0.0.1.
//
// The model server speaks the three APIs the agents use — Anthropic
// Messages, OpenAI chat completions and Gemini streamGenerateContent, each
// streamed as server-sent events — and answers a scenario: one tool call on
// the first request, then a final text once the request carries the tool's
// result. It records every request so a test can check what the agent sent
// back to the model. The driver test (TestAgents, run with GATE_AGENTS=1;
// scenarios_test.go, one file per agent)
// installs the pinned agents, configures them from examples/agents and
// checks the tool results and the files.
package agentstest
