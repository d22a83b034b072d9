package main

import (
	"fmt"
	"regexp"
	"strings"
)

// A block is a code block of a Markdown file that shows at least one arena command. Its
// commands run in order, in one shell state, as a reader would type them.
type block struct {
	file string
	line int // the line of the opening fence, or of the first indented line
	cmds []*command
}

// A command is one logical shell command of a block: a line, or several joined by a
// trailing backslash, an unfinished loop or if, an open parenthesis or quote, or a
// trailing && || or |.
type command struct {
	file string
	line int    // the line it starts on
	text string // as written, comments removed, without a trailing &
	bg   bool   // it ended with & (runs in the background until the end of its block)
}

func (c *command) String() string { return fmt.Sprintf("%s:%d", c.file, c.line) }

// oneLine is the command's text on one line, for listings.
func (c *command) oneLine() string {
	s := strings.ReplaceAll(c.text, "\\\n", " ")
	s = strings.Join(strings.Fields(s), " ")
	if c.bg {
		s += " &"
	}
	return s
}

var fenceRE = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})\\s*([^\\s`]*)")

// shellLangs are the info strings of fenced blocks that may hold commands; an unlabelled
// block counts only if it holds an arena command, like any other.
var shellLangs = map[string]bool{"": true, "sh": true, "bash": true, "shell": true}

// extractBlocks returns the code blocks of a Markdown file (fenced ones labelled sh, bash,
// shell or nothing, and indented ones) that hold an arena command, split into commands.
func extractBlocks(file, src string) []*block {
	lines := strings.Split(src, "\n")
	var out []*block
	add := func(at, first int, body []string) {
		cmds := splitCommands(file, first, body)
		for _, c := range cmds {
			if invokesArena(c.text) {
				out = append(out, &block{file: file, line: at, cmds: cmds})
				return
			}
		}
	}
	for i := 0; i < len(lines); i++ {
		if m := fenceRE.FindStringSubmatch(lines[i]); m != nil {
			fence, lang := m[1], strings.ToLower(m[2])
			start := i + 1
			j := start
			for ; j < len(lines); j++ {
				t := strings.TrimSpace(lines[j])
				if strings.HasPrefix(t, fence[:3]) && strings.Trim(t, fence[:1]) == "" && len(t) >= len(fence) {
					break
				}
			}
			if shellLangs[lang] {
				add(i+1, start+1, lines[start:min(j, len(lines))])
			}
			i = j
			continue
		}
		// An indented code block starts after a blank line.
		if isIndented(lines[i]) && (i == 0 || strings.TrimSpace(lines[i-1]) == "") {
			j := i
			var body []string
			for ; j < len(lines); j++ {
				if isIndented(lines[j]) {
					body = append(body, strings.TrimPrefix(strings.TrimPrefix(lines[j], "\t"), "    "))
				} else if strings.TrimSpace(lines[j]) == "" {
					body = append(body, "")
				} else {
					break
				}
			}
			add(i+1, i+1, body)
			i = j - 1
		}
	}
	return out
}

func isIndented(l string) bool {
	return (strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")) && strings.TrimSpace(l) != ""
}

// scanned is a line read with the shell's quoting: the text without its comment, the same
// with every quoted character replaced by 'x' (so that separators and keywords inside
// quotes are not taken for the shell's), and the quote still open at its end.
type scanned struct {
	text, masked string
	quote        byte
}

// scanLine strips a comment from line, starting inside quote q (0, or a quote character).
func scanLine(line string, q byte) scanned {
	var text, masked strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
				masked.WriteByte(c)
			} else {
				masked.WriteByte('x')
			}
		case q == '"':
			if c == '\\' && i+1 < len(line) {
				text.WriteByte(c)
				masked.WriteByte('x')
				i++
				c = line[i]
				masked.WriteByte('x')
			} else if c == '"' {
				q = 0
				masked.WriteByte(c)
			} else {
				masked.WriteByte('x')
			}
		case c == '\\' && i+1 < len(line):
			text.WriteByte(c)
			masked.WriteByte('x')
			i++
			c = line[i]
			masked.WriteByte('x')
		case c == '\'' || c == '"':
			q = c
			masked.WriteByte(c)
		case c == '#' && (i == 0 || strings.ContainsRune(" \t;&|(", rune(line[i-1]))):
			return scanned{strings.TrimRight(text.String(), " \t"), strings.TrimRight(masked.String(), " \t"), q}
		default:
			masked.WriteByte(c)
		}
		text.WriteByte(c)
	}
	return scanned{strings.TrimRight(text.String(), " \t"), strings.TrimRight(masked.String(), " \t"), q}
}

var wordSplitRE = regexp.MustCompile(`[\s;&|()]+`)

// splitCommands cuts a block's lines into logical commands; first is the file line of
// lines[0].
func splitCommands(file string, first int, lines []string) []*command {
	var out []*command
	var text, masked []string
	start, depth, parens := 0, 0, 0
	var quote byte
	for i, l := range lines {
		s := scanLine(l, quote)
		quote = s.quote
		if len(text) == 0 && strings.TrimSpace(s.text) == "" && quote == 0 {
			continue
		}
		if len(text) == 0 {
			start = first + i
		}
		text = append(text, s.text)
		masked = append(masked, s.masked)
		for _, w := range wordSplitRE.Split(s.masked, -1) {
			switch w {
			case "do", "if", "case":
				depth++
			case "done", "fi", "esac":
				depth--
			}
		}
		parens += strings.Count(s.masked, "(") - strings.Count(s.masked, ")")
		m := strings.TrimSpace(s.masked)
		cont := strings.HasSuffix(m, "\\") || strings.HasSuffix(m, "&&") ||
			strings.HasSuffix(m, "||") || (strings.HasSuffix(m, "|") && !strings.HasSuffix(m, "||"))
		if cont || depth > 0 || parens > 0 || quote != 0 {
			continue
		}
		c := &command{file: file, line: start, text: strings.Join(text, "\n")}
		mall := strings.TrimSpace(strings.Join(masked, "\n"))
		if strings.HasSuffix(mall, "&") && !strings.HasSuffix(mall, "&&") {
			c.bg = true
			c.text = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(c.text, " \t"), "&"), " \t")
		}
		out = append(out, c)
		text, masked, depth, parens = nil, nil, 0, 0
	}
	if len(text) > 0 {
		out = append(out, &command{file: file, line: start, text: strings.Join(text, "\n")})
	}
	return out
}

// A simple is one simple command inside a logical command: its words, with quotes
// removed, leading assignments and keywords (do, then, if, ...) dropped.
type simple struct {
	words []string
}

// simpleCommands splits a command's text at ; & | ( ) and newlines (outside quotes) into
// its simple commands.
func simpleCommands(text string) []simple {
	var masked strings.Builder
	var q byte
	for _, l := range strings.Split(text, "\n") {
		s := scanLine(l, q)
		q = s.quote
		// scanLine drops nothing here (comments are gone already), so lengths match
		masked.WriteString(s.masked)
		masked.WriteByte('\n')
	}
	m := masked.String()
	var out []simple
	from := 0
	flush := func(to int) {
		if to > len(text) {
			to = len(text)
		}
		if from < to {
			seg := strings.ReplaceAll(text[from:to], "\\\n", " ")
			w := shellWords(seg)
			for len(w) > 0 && (isKeyword(w[0]) || isAssignment(w[0])) {
				w = w[1:]
			}
			if len(w) > 0 && w[0] != "for" && w[0] != "case" && w[0] != "select" {
				out = append(out, simple{w})
			}
		}
	}
	for i := 0; i < len(m); i++ {
		switch m[i] {
		case '\n':
			if i > 0 && m[i-1] == '\\' {
				continue // a continued line
			}
			flush(i)
			from = i + 1
		case ';', '&', '|', '(', ')':
			flush(i)
			from = i + 1
		}
	}
	flush(len(text))
	return out
}

func isKeyword(w string) bool {
	switch w {
	case "do", "then", "else", "elif", "if", "while", "until", "!", "time", "{", "}", "done", "fi", "esac":
		return true
	}
	return false
}

var assignRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

func isAssignment(w string) bool { return assignRE.MatchString(w) }

// shellWords splits s into words as the shell would, removing quotes and backslashes;
// expansions ($x, $(...)) are left as written.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q == '\'':
			if c == '\'' {
				q = 0
			} else {
				cur.WriteByte(c)
			}
		case q == '"':
			if c == '"' {
				q = 0
			} else if c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// arenaArgs returns the arguments of a simple command that runs arena (arena, ./arena or
// go run ./cmd/arena), and whether it does.
func arenaArgs(w []string) ([]string, bool) {
	switch {
	case len(w) >= 1 && (w[0] == "arena" || w[0] == "./arena"):
		return w[1:], true
	case len(w) >= 3 && w[0] == "go" && w[1] == "run" && isArenaPkg(w[2]):
		return w[3:], true
	}
	return nil, false
}

func isArenaPkg(p string) bool { return strings.TrimSuffix(p, "/") == "./cmd/arena" }

// invokesArena tells whether a command runs arena anywhere in it.
func invokesArena(text string) bool {
	for _, s := range simpleCommands(text) {
		if _, ok := arenaArgs(s.words); ok {
			return true
		}
	}
	return false
}

// subcommand returns arena's subcommand (two words for the ones that have their own:
// "experience run", "ipd simulate", "credentials add") and the flags after it.
func subcommand(args []string) (string, []string) {
	if len(args) == 0 {
		return "", nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "experience", "ipd", "credentials":
		if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			return sub + " " + rest[0], rest[1:]
		}
	}
	return sub, rest
}

// flagValue returns the value of --name (or -name, =value or a separate word).
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		for _, p := range []string{"--" + name, "-" + name} {
			if a == p && i+1 < len(args) {
				return args[i+1], true
			}
			if strings.HasPrefix(a, p+"=") {
				return a[len(p)+1:], true
			}
		}
	}
	return "", false
}
