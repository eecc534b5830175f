package sha256

import (
	stdsha256 "crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestSum256 checks the FIPS 180-4 examples, then every length across the
// padding boundaries and random texts against crypto/sha256.
func TestSum256(t *testing.T) {
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	} {
		if got := Sum256([]byte(in)); hex.EncodeToString(got[:]) != want {
			t.Errorf("Sum256(%q) = %x, want %s", in, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 4096)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	for n := 0; n <= 300; n++ {
		if got, want := Sum256(buf[:n]), stdsha256.Sum256(buf[:n]); got != want {
			t.Fatalf("%d bytes: %x, crypto/sha256 %x", n, got, want)
		}
	}
	for i := 0; i < 200; i++ {
		n := r.IntN(len(buf))
		if got, want := Sum256(buf[:n]), stdsha256.Sum256(buf[:n]); got != want {
			t.Fatalf("%d random bytes: %x, crypto/sha256 %x", n, got, want)
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte("guard-exec"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Sum256(b), stdsha256.Sum256(b); got != want {
			t.Fatalf("%x: %x, crypto/sha256 %x", b, got, want)
		}
	})
}
