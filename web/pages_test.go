package web

import (
	"io"
	"regexp"
	"strings"
	"testing"
)

// TestPagesServed: every page is served with the safety headers, loads only its own
// script and style, and has no inline script for the Content-Security-Policy to refuse.
func TestPagesServed(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	script := regexp.MustCompile(`<script[^>]*>`)
	for _, page := range []string{"/", "/index.html", "/tournament.html", "/game.html", "/player.html", "/ladder.html", "/entry.html"} {
		t.Run(page, func(t *testing.T) {
			resp := get(t, hs.URL+page)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "unsafe-inline") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no X-Content-Type-Options: nosniff")
			}
			tags := script.FindAllString(string(body), -1)
			if len(tags) != 1 || tags[0] != `<script src="app.js" defer>` {
				t.Errorf("script tags %q, want only app.js", tags)
			}
			if strings.Contains(string(body), "http://") || strings.Contains(string(body), "https://") || strings.Contains(string(body), "//cdn") {
				t.Error("page refers to another host")
			}
		})
	}
}

// TestScriptBuildsDOMSafely: the page script never turns data into markup. Comments are
// stripped first, so a comment may name what it avoids.
func TestScriptBuildsDOMSafely(t *testing.T) {
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	resp := get(t, hs.URL+"/app.js")
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("app.js Content-Type %q", ct)
	}
	code := regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAllString(string(body), "")
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute(\"on", "javascript:"} {
		if strings.Contains(code, bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
	for _, good := range []string{"textContent", "createTextNode", "encodeURIComponent"} {
		if !strings.Contains(code, good) {
			t.Errorf("app.js does not use %s", good)
		}
	}
}
