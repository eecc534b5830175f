package install

import (
	"os"
	"strings"
	"testing"
)

func TestAddToWorkflow(t *testing.T) {
	sh := "shell: " + ActionsShell
	for _, tc := range []struct{ name, in, want string }{
		{"before jobs, after its comment", fixtureText("workflow.yml"),
			strings.Replace(fixtureText("workflow.yml"), "# the jobs\n", "defaults:\n  run:\n    "+sh+"\n\n# the jobs\n", 1)},
		{"no jobs, no final newline", "name: x\non: push", "name: x\non: push\ndefaults:\n  run:\n    " + sh},
		{"defaults with other keys, 4 spaces", "on: push\ndefaults:\n    run:\n        working-directory: src\njobs: {}\n",
			"on: push\ndefaults:\n    run:\n        " + sh + "\n        working-directory: src\njobs: {}\n"},
		{"defaults without run", "defaults:\n  # note\n  other: 1\njobs:\n  a: {}\n", "defaults:\n  run:\n    " + sh + "\n  # note\n  other: 1\njobs:\n  a: {}\n"},
		{"other shell replaced", "defaults:\n  run:\n    shell: bash\n    working-directory: x\n", "defaults:\n  run:\n    " + sh + "\n    working-directory: x\n"},
		{"job-level defaults untouched", "jobs:\n  a:\n    defaults:\n      run:\n        shell: bash\n", "defaults:\n  run:\n    " + sh + "\njobs:\n  a:\n    defaults:\n      run:\n        shell: bash\n"},
		{"crlf", "on: push\r\n\r\njobs:\r\n  a: {}\r\n", "on: push\r\n\r\ndefaults:\r\n  run:\r\n    " + sh + "\r\n\r\njobs:\r\n  a: {}\r\n"},
	} {
		got, err := AddToWorkflow([]byte(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
		if again, _ := AddToWorkflow(got); string(again) != string(got) {
			t.Errorf("%s: not idempotent:\n%s", tc.name, again)
		}
		if !strings.Contains(tc.name, "replaced") {
			if back, _ := RemoveFromWorkflow(got); string(back) != tc.in {
				t.Errorf("%s: remove gave\n%q\nwant\n%q", tc.name, back, tc.in)
			}
		}
	}
	for _, bad := range []string{"defaults: {run: {shell: bash}}\n", "defaults:\n  run: {shell: bash}\n"} {
		if _, err := AddToWorkflow([]byte(bad)); err == nil || !strings.Contains(err.Error(), "flow style") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	in := "defaults:\n  run:\n    shell: bash\n"
	if got, _ := RemoveFromWorkflow([]byte(in)); string(got) != in {
		t.Errorf("removed a shell that is not ours: %s", got)
	}
}

func fixtureText(name string) string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		panic(err)
	}
	return string(b)
}
