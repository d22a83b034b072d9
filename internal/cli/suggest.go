package cli

import (
	"flag"
	"fmt"
	"sort"
	"strings"
)

// editDistance is the optimal string alignment distance between a and b: the fewest
// insertions, deletions, substitutions and swaps of two neighbouring letters that turn one
// into the other ("tournamnet" is one swap from "tournament"). It compares bytes, which
// is enough for command and flag names.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1) // row i-2
	prev := make([]int, len(b)+1)  // row i-1
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Suggest returns the candidates the mistyped word was most likely meant to be: the one
// it equals but for case; or else the only candidate the word begins, if it has at least
// 3 letters ("tourn" for "tournament"); or else those at the smallest edit distance, if
// that is small for the word's length (one edit up to 5 letters, two up to 11, three
// beyond). Case is ignored. It returns nothing when no candidate is close, and at most
// three, in alphabetical order.
func Suggest(word string, candidates []string) []string {
	w := strings.ToLower(word)
	if w == "" {
		return nil
	}
	for _, c := range candidates {
		if strings.ToLower(c) == w {
			return []string{c}
		}
	}
	var found []string
	if len(w) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), w) && len(c) > len(w) {
				found = append(found, c)
			}
		}
		if len(found) == 1 {
			return found
		}
	}
	limit := 1 + min(len(w)/6, 2)
	best := limit
	found = nil
	for _, c := range candidates {
		d := editDistance(w, strings.ToLower(c))
		switch {
		case d > best:
		case d < best:
			best, found = d, []string{c}
		default:
			found = append(found, c)
		}
	}
	sort.Strings(found)
	return found[:min(len(found), 3)]
}

// DidYouMean is " did you mean 'x'?" (or 'x' or 'y') for the suggestions of word, each
// written by quote, or "" when there are none.
func DidYouMean(word string, candidates []string, quote func(string) string) string {
	s := Suggest(word, candidates)
	if len(s) == 0 {
		return ""
	}
	for i := range s {
		s[i] = quote(s[i])
	}
	return " did you mean " + strings.Join(s, " or ") + "?"
}

// Quoted writes a command name as the suggestions show it: 'tournament'.
func Quoted(s string) string { return "'" + s + "'" }

// Dashed writes a flag name as the suggestions show it: --rounds.
func Dashed(s string) string { return "--" + s }

// flagError rewrites an error of fs.Parse for the user: an undefined flag is named with
// the flags it is close to ("unknown flag --round; did you mean --rounds?"); other errors
// are the flag package's own.
func flagError(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return err.Error()
	}
	name = strings.TrimLeft(name, "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := fmt.Sprintf("unknown flag --%s", name)
	if s := DidYouMean(name, names, Dashed); s != "" {
		msg += ";" + s
	}
	return msg
}
