package audit

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// The hand-written encoder writes what encoding/json would, byte for byte.
func TestEncodeLikeJSON(t *testing.T) {
	strs := []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\r\b\f", "\x00\x01\x1f\x7f", "<a href='x'>&amp;</a>",
		"héllo wörld ✓", "\u2028\u2029", "bad \xff\xfe utf8 \xc3", "emoji 🎉", "ctl \x1b[31m"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string {
		if rng.IntN(4) == 0 {
			b := make([]byte, rng.IntN(12))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			return string(b)
		}
		return strs[rng.IntN(len(strs))]
	}
	for i := 0; i < 2000; i++ {
		r := Record{Time: time.Unix(rng.Int64N(2e9), rng.Int64N(1e9)).In(time.FixedZone("x", rng.IntN(40000)-20000)),
			Session: pick(), Cwd: pick(), Client: pick(), Mode: pick(), Via: pick(), Command: pick(),
			Decision: pick(), Answer: pick(), Reason: pick(), Redacted: rng.IntN(2) == 0}
		for n := rng.IntN(3); n > 0; n-- {
			p := PartRecord{Decision: pick(), Rule: pick(), Source: pick(), Reason: pick()}
			if rng.IntN(5) > 0 {
				p.Argv = []string{}
				for m := rng.IntN(4); m > 0; m-- {
					p.Argv = append(p.Argv, pick())
				}
			}
			r.Parts = append(r.Parts, p)
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.appendJSON(nil); string(got) != string(want) {
			t.Fatalf("record %d:\n got  %s\n want %s", i, got, want)
		}
	}
}
