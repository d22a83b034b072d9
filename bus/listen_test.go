package bus

import "testing"

func TestBindHost(t *testing.T) {
	for _, tc := range []struct{ host, want string }{
		{"", "0.0.0.0"},
		{"localhost", "127.0.0.1"},
		{"LOCALHOST.", "127.0.0.1"},
		{"127.0.0.5", "127.0.0.5"},
		{"::1", "::1"},
		{"0.0.0.0", "0.0.0.0"},
		{"10.1.2.3", "10.1.2.3"},
	} {
		if got := BindHost(tc.host); got != tc.want {
			t.Errorf("BindHost(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
}
