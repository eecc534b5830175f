package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// dockerCarried: docker's read-only verbs carry no code of their own;
// -H ssh://HOST makes the client run ssh.
func dockerCarried(r *carry) {
	c := Normalize(r.argv, false)
	for _, v := range c.Values("--host") {
		if t, ok := v.Static(); !ok || strings.HasPrefix(t, "ssh://") {
			if !ok {
				r.Opaque("docker -H with a host not known here (an ssh:// host runs ssh)")
				continue
			}
			r.Argv(word.Lits("ssh", strings.TrimPrefix(t, "ssh://"), "docker", "system", "dial-stdio"), "docker -H", false)
		}
	}
}

// dockerEnv: DOCKER_HOST=ssh://HOST makes the docker client run ssh.
func (r *carry) dockerEnv(a envVar) bool {
	if a.Name != "DOCKER_HOST" {
		return false
	}
	t, ok := a.Value.Static()
	switch {
	case !ok:
		r.Opaque("DOCKER_HOST is set to a host not known here (an ssh:// host runs ssh)")
	case strings.HasPrefix(t, "ssh://"):
		r.Argv(word.Lits("ssh", strings.TrimPrefix(t, "ssh://"), "docker", "system", "dial-stdio"), "DOCKER_HOST", false)
	}
	return true
}
