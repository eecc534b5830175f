package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeModel is a model server on 127.0.0.1 that speaks the three clients'
// streaming APIs (Anthropic Messages, OpenAI Responses, Gemini
// streamGenerateContent, each with SSE) and scripts the model: for the
// n-th turn of a conversation it asks the client's shell tool to run
// script[n]; once the conversation carries a result for every command it
// answers "done". Which turn it is comes from the history the client
// sends (the number of tool results in it), so a client's retries and
// side requests do not move the script.
//
// It records the tool results the clients send back, which is what the
// model read: the output of an allowed command, the guard's reason for a
// refused one.
type fakeModel struct {
	t      *testing.T
	script []string
	srv    *http.Server
	url    string
	logf   *os.File

	mu      sync.Mutex
	results []string // the longest list of tool results seen in one request, in order
	calls   int      // tool calls handed out
}

func newFakeModel(t *testing.T, script []string, logPath string) *fakeModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake model server: %v", err)
	}
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{t: t, script: script, url: "http://" + ln.Addr().String(), logf: logf}
	m.srv = &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: time.Minute}
	go m.srv.Serve(ln)
	t.Cleanup(func() {
		m.srv.Close()
		logf.Close()
		if t.Failed() || os.Getenv("GUARD_EXEC_E2E_VERBOSE") != "" {
			b, _ := os.ReadFile(logPath)
			t.Logf("fake model server log:\n%s", tail(b))
		}
	})
	return m
}

// reset forgets the tool results seen so far (a new session follows).
func (m *fakeModel) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.results = nil
}

// Results returns the tool results the client sent back, in order.
func (m *fakeModel) Results() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.results...)
}

func (m *fakeModel) logLine(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintf(m.logf, time.Now().Format("15:04:05.000 ")+format+"\n", args...)
}

func (m *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	m.logLine("%s %s (%d bytes)", r.Method, r.URL.Path, len(body))
	var req map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			m.logLine("  not JSON: %v", err)
		}
	}
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet:
		// Model lists, health checks: nothing to offer.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"models":[]}`)
	case strings.HasSuffix(p, "/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
	case strings.HasSuffix(p, "/v1/messages"):
		m.anthropic(w, req)
	case strings.HasSuffix(p, "/responses"):
		m.openai(w, req)
	case strings.Contains(p, ":streamGenerateContent"):
		m.gemini(w, req, true)
	case strings.Contains(p, ":generateContent"):
		m.gemini(w, req, false)
	case strings.Contains(p, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":10}`)
	default:
		m.logLine("  unknown endpoint")
		http.NotFound(w, r)
	}
}

// next records the tool results of one request and says which command
// to ask for next ("" when the script is done).
func (m *fakeModel) next(results []string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, r := range results {
		fmt.Fprintf(m.logf, "  tool result %d: %q\n", i, r)
	}
	if len(results) >= len(m.results) {
		m.results = results
	}
	if len(results) >= len(m.script) {
		return ""
	}
	m.calls++
	fmt.Fprintf(m.logf, "  asking for command %d: %q\n", len(results), m.script[len(results)])
	return m.script[len(results)]
}

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

func toolNames(req map[string]any) map[string]bool {
	names := map[string]bool{}
	tools, _ := req["tools"].([]any)
	for _, t := range tools {
		tm, _ := t.(map[string]any)
		if n, ok := tm["name"].(string); ok {
			names[n] = true
		}
		// Gemini: [{functionDeclarations: [{name}]}]
		decls, _ := tm["functionDeclarations"].([]any)
		for _, d := range decls {
			dm, _ := d.(map[string]any)
			if n, ok := dm["name"].(string); ok {
				names[n] = true
			}
		}
	}
	return names
}

// textOf flattens a tool result's content: a string, or a list of
// {type: text, text} blocks.
func textOf(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, x := range c {
			xm, _ := x.(map[string]any)
			if s, ok := xm["text"].(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// anthropic answers POST /v1/messages (Claude Code).
func (m *fakeModel) anthropic(w http.ResponseWriter, req map[string]any) {
	var results []string
	msgs, _ := req["messages"].([]any)
	for _, msg := range msgs {
		mm, _ := msg.(map[string]any)
		content, _ := mm["content"].([]any)
		for _, c := range content {
			cm, _ := c.(map[string]any)
			if cm["type"] == "tool_result" {
				results = append(results, textOf(cm["content"]))
			}
		}
	}
	cmd := ""
	if toolNames(req)["Bash"] {
		cmd = m.next(results)
	}
	model, _ := req["model"].(string)
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	stop := "end_turn"
	if cmd != "" {
		input, _ := json.Marshal(map[string]string{"command": cmd, "description": "run the scripted command"})
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_e2e_%d", len(results)), "name": "Bash", "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		stop = "tool_use"
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": "done"}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// openai answers POST /v1/responses (Codex CLI).
func (m *fakeModel) openai(w http.ResponseWriter, req map[string]any) {
	var results []string
	input, _ := req["input"].([]any)
	for _, it := range input {
		im, _ := it.(map[string]any)
		if im["type"] == "function_call_output" || im["type"] == "custom_tool_call_output" {
			results = append(results, textOf(im["output"]))
		}
	}
	tools := toolNames(req)
	cmd := ""
	if tools["exec_command"] || tools["shell"] || tools["shell_command"] {
		cmd = m.next(results)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_e2e_%d", len(results))
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	var item map[string]any
	switch {
	case cmd != "" && tools["exec_command"]:
		args, _ := json.Marshal(map[string]any{"cmd": cmd, "yield_time_ms": 10000})
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": fmt.Sprintf("call_e2e_%d", len(results)), "name": "exec_command", "arguments": string(args)}
	case cmd != "" && tools["shell_command"]:
		args, _ := json.Marshal(map[string]any{"command": cmd})
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": fmt.Sprintf("call_e2e_%d", len(results)), "name": "shell_command", "arguments": string(args)}
	case cmd != "":
		args, _ := json.Marshal(map[string]any{"command": []string{"bash", "-lc", cmd}})
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": fmt.Sprintf("call_e2e_%d", len(results)), "name": "shell", "arguments": string(args)}
	default:
		item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
	}
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": id, "status": "completed", "output": []any{item},
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}})
}

// gemini answers models/M:streamGenerateContent?alt=sse and the
// non-streaming generateContent that Gemini CLI uses for side questions.
func (m *fakeModel) gemini(w http.ResponseWriter, req map[string]any, stream bool) {
	var results []string
	contents, _ := req["contents"].([]any)
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		parts, _ := cm["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			fr, ok := pm["functionResponse"].(map[string]any)
			if !ok {
				continue
			}
			resp, _ := fr["response"].(map[string]any)
			if out, ok := resp["output"]; ok {
				results = append(results, textOf(out))
			} else if e, ok := resp["error"]; ok {
				results = append(results, textOf(e))
			} else {
				results = append(results, textOf(resp))
			}
		}
	}
	cmd := ""
	if stream && toolNames(req)["run_shell_command"] {
		cmd = m.next(results)
	}
	var part map[string]any
	if cmd != "" {
		part = map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": cmd, "description": "run the scripted command"}}}
	} else if !stream {
		// Side questions (next speaker, routing) want JSON.
		part = map[string]any{"text": `{"next_speaker": "user", "reasoning": "done", "model_choice": "flash"}`}
	} else {
		part = map[string]any{"text": "done"}
	}
	chunk := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(chunk)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "", chunk)
}
