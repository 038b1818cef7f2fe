// Drives `gate mcp` with the official TypeScript MCP SDK, a client gate's
// authors did not write: list the tools, run an allowed command, get a
// denied one as an error, write and edit a file. Run by .ci/run:
//   GATE_BIN=/path/to/gate node client.mjs
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import assert from "node:assert/strict";

const root = mkdtempSync(join(tmpdir(), "gate-ts-"));
writeFileSync(join(root, "victim"), "x");
const settings = join(mkdtempSync(join(tmpdir(), "gate-ts-settings-")), "settings.json");
writeFileSync(settings, JSON.stringify({ tools: { exclude: ["run_shell_command(rm)"] } }));

const transport = new StdioClientTransport({
  command: process.env.GATE_BIN ?? "gate",
  args: ["mcp", "--root", root, "--settings", settings, "--approval-mode", "yolo"],
});
const client = new Client({ name: "gate-ts-test", version: "1.0.0" });
await client.connect(transport);

const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");

const { tools } = await client.listTools();
assert.deepEqual(tools.map((t) => t.name).sort(),
  ["edit", "glob", "grep_search", "list_directory", "read_file", "run_shell_command", "write_file"]);
const shell = tools.find((t) => t.name === "run_shell_command");
assert.deepEqual([...shell.inputSchema.required].sort(), ["command", "is_background"]);

let res = await client.callTool({ name: "run_shell_command", arguments: { command: "echo hello; exit 4", is_background: false } });
assert.equal(res.isError ?? false, false, text(res));
assert.match(text(res), /Stdout: hello\n/);
assert.match(text(res), /Exit Code: 4/);

res = await client.callTool({ name: "run_shell_command", arguments: { command: "sudo rm -rf victim", is_background: false } });
assert.equal(res.isError, true);
assert.match(text(res), /\[command_excluded\] Command 'rm -rf victim' is blocked by configuration/);
assert.ok(existsSync(join(root, "victim")), "a denied command ran");

res = await client.callTool({ name: "write_file", arguments: { file_path: "notes.md", content: "one\ntwo\n" } });
assert.equal(res.isError ?? false, false, text(res));
res = await client.callTool({ name: "edit", arguments: { file_path: "notes.md", old_string: "two", new_string: "2" } });
assert.equal(res.isError ?? false, false, text(res));
assert.equal(readFileSync(join(root, "notes.md"), "utf8"), "one\n2\n");

await client.close();
console.log("ok: the TypeScript MCP SDK client listed gate's tools, ran, was refused, wrote and edited");
