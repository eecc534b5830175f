package policy

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"
)

// inet_aton's spellings of an address, as curl and wget read a host.
func TestMetadataHost(t *testing.T) {
	for h, want := range map[string]bool{
		"169.254.169.254": true, "2852039166": true, "0xA9FEA9FE": true, "0xa9fea9fe": true,
		"0251.0376.0251.0376": true, "169.254.43518": true, "169.16689662": true, "0xa9.0xfe.0xa9.0xfe": true,
		"0251.254.169.254": true, "169.254.170.2": true, "fd00:ec2::254": true, "FD00:EC2::254": true,
		"::ffff:169.254.169.254": true, "::ffff:a9fe:a9fe": true, "::a9fe:a9fe": true, "metadata.google.internal": true,
		"METADATA.GOOGLE.INTERNAL.": true, "169.254.169.254.nip.io": true, "100.100.100.200": true,
		"169.254.169.253": false, "169.254.169.2544": false, "256.254.169.254": false, "10.0.0.1": false,
		"example.com": false, "": false, "0x": false, "08.0.0.1": false, "metadata.example.com": false, "1.2.3.4.5": false,
	} {
		if got := metadataHost(h); got != want {
			t.Errorf("metadataHost(%q) = %v, want %v", h, got, want)
		}
	}
}

// ProjectRootIn never answers the home or an ancestor of it.
func TestProjectRootIn(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(d string) string {
		p := filepath.Join(root, d)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	home := mk("h")
	mk("h/.git")
	app := mk("h/src/app")
	repo := mk("h/src/repo/sub")
	mk("h/src/repo/.git")
	if err := os.Symlink(home, filepath.Join(root, "hl")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dir, home string
		want      string
		ok        bool
	}{
		{home, home, home, false},                                           // cwd = HOME, a dotfiles repository there
		{root, home, root, false},                                           // above HOME
		{"/", home, "/", false},                                             // the root
		{app, home, app, true},                                              // below the dotfiles repository: the directory itself
		{repo, home, filepath.Join(root, "h/src/repo"), true},               // a repository inside HOME
		{home, filepath.Join(root, "hl"), home, false},                      // HOME a link to the directory
		{filepath.Join(root, "hl"), home, filepath.Join(root, "hl"), false}, // the directory through a link
	} {
		got, ok := ProjectRootIn(tt.dir, tt.home)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ProjectRootIn(%q, %q) = %q, %v; want %q, %v", tt.dir, tt.home, got, ok, tt.want, tt.ok)
		}
		// ProjectRoots is both in one walk.
		if c, p, in := ProjectRoots(tt.dir, tt.home); c != ProjectRoot(tt.dir) || p != got || in != ok {
			t.Errorf("ProjectRoots(%q, %q) = %q, %q, %v", tt.dir, tt.home, c, p, in)
		}
	}
}

// parseIPv6 reads what netip.ParseAddr reads as an IPv6 address without a
// zone, to the same bytes.
func TestParseIPv6(t *testing.T) {
	for _, s := range []string{
		"::", "::1", "1::", "1::2", "fd00:ec2::254", "FD00:EC2::254", "::ffff:169.254.169.254", "::a9fe:a9fe",
		"1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "::1.2.3.4",
		"1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", ":1", "1:", ":::", "1:::2", "1::2::3", "12345::", "g::",
		"::01.2.3.4", "::1.2.3", "::1.2.3.4.5", "1:2:3:4:5:6:7:1.2.3.4", "1.2.3.4", "", ":", "::ffff:256.1.1.1",
		"0000:0000::", "00000::", "1:2:3:4:5:6::1.2.3.4", "::1.2.3.4:5", "-1::",
	} {
		checkIPv6(t, s)
	}
}

func FuzzParseIPv6(f *testing.F) {
	for _, s := range []string{"fd00:ec2::254", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8"} {
		f.Add(s)
	}
	f.Fuzz(checkIPv6)
}

func checkIPv6(t *testing.T, s string) {
	got, ok := parseIPv6(s)
	a, err := netip.ParseAddr(s)
	want := err == nil && a.Is6() && a.Zone() == ""
	if ok != want || ok && got != a.As16() {
		t.Errorf("parseIPv6(%q) = %v %v, netip %v %v", s, got, ok, a, err)
	}
}
