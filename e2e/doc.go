// Package e2e holds the end-to-end tests with the real clients (Claude
// Code, Codex CLI, Gemini CLI): each test sets a client up as the README
// says (`guard-exec install <client>`), points it at a fake model server on
// 127.0.0.1 that scripts the model's tool calls, and checks what ran, what
// the model read, the audit log and the state left behind. The tests skip
// unless GUARD_EXEC_E2E_CLIENTS names a directory where the pinned clients
// were installed with npm (.ci/run does).
package e2e
