package state

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/internal/sha256"
)

// trustFile is the content of dir/trust.json.
type trustFile struct {
	Version int               `json:"version"`
	Trusted map[string]string `json:"trusted"` // absolute real path -> hex sha256 of content
}

// maxTrustBytes bounds the trust file read before each command: about
// 50,000 trusted projects.
const maxTrustBytes = 8 << 20

func trustPath(dir string) string { return filepath.Join(dir, "trust.json") }

// projectKey is the absolute path of f with symlinks resolved when possible.
func projectKey(f string) (abs, real string, err error) {
	abs, err = filepath.Abs(f)
	if err != nil {
		return "", "", fmt.Errorf("state: cannot resolve project file %s: %w", f, err)
	}
	real = abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	}
	return abs, real, nil
}

func hashOf(content []byte) string {
	h := sha256.Sum256(content)
	return hex.EncodeToString(h[:])
}

// readTrust returns the recorded hashes; a missing file is an empty record.
func readTrust(dir string) (map[string]string, error) {
	path := trustPath(dir)
	b, err := atomicfile.ReadFile(path, maxTrustBytes)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	} else if errors.Is(err, atomicfile.ErrNotRegular) || errors.Is(err, atomicfile.ErrTooLarge) {
		// Not a trust file guard-exec wrote: as corrupt as one that does
		// not decode, and replaced the same way.
		return nil, fmt.Errorf("state: %w trust file %s (%v): no project is trusted; run `guard-exec trust` again in each project you trust to rewrite it",
			ErrCorrupt, path, err)
	} else if err != nil {
		return nil, fmt.Errorf("state: cannot read trust file, so no project is trusted: %w", err)
	}
	var t trustFile
	if err := json.Unmarshal(b, &t); err != nil || t.Version != 1 || t.Trusted == nil {
		why := "unknown version or no \"trusted\" table"
		if err != nil {
			why = err.Error()
		}
		return nil, fmt.Errorf("state: %w trust file %s (%s): no project is trusted; run `guard-exec trust` again in each project you trust to rewrite it",
			ErrCorrupt, path, why)
	}
	return t.Trusted, nil
}

// updateTrust applies fn to the record under the trust lock and writes it
// back atomically. A corrupt record is replaced (it trusts nothing anyway).
func updateTrust(dir string, fn func(map[string]string)) error {
	path := trustPath(dir)
	unlock, err := atomicfile.Lock(path)
	if err != nil {
		return fmt.Errorf("state: cannot update trust: %w", err)
	}
	defer unlock()
	m, err := readTrust(dir)
	if errors.Is(err, ErrCorrupt) {
		m = map[string]string{}
	} else if err != nil {
		return err
	}
	fn(m)
	b, err := json.MarshalIndent(trustFile{Version: 1, Trusted: m}, "", "  ")
	if err != nil {
		return fmt.Errorf("state: cannot encode trust file: %w", err)
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// Trust records that projectFile with exactly this content is trusted.
func Trust(dir, projectFile string, content []byte) error {
	_, real, err := projectKey(projectFile)
	if err != nil {
		return err
	}
	return updateTrust(dir, func(m map[string]string) { m[real] = hashOf(content) })
}

// Untrust forgets projectFile; forgetting an untrusted file is not an error.
func Untrust(dir, projectFile string) error {
	abs, real, err := projectKey(projectFile)
	if err != nil {
		return err
	}
	return updateTrust(dir, func(m map[string]string) { delete(m, abs); delete(m, real) })
}

// IsTrusted reports whether projectFile was trusted with exactly this
// content: any change to the file revokes trust. A corrupt trust file gives
// false and an error matching ErrCorrupt that says how to fix it.
func IsTrusted(dir, projectFile string, content []byte) (bool, error) {
	_, real, err := projectKey(projectFile)
	if err != nil {
		return false, err
	}
	m, err := readTrust(dir)
	if err != nil {
		return false, err
	}
	h, ok := m[real]
	return ok && h == hashOf(content), nil
}
