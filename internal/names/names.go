package names

import "regexp"

// Pattern is the regular expression a valid name matches.
const Pattern = `^[A-Za-z0-9_-]{1,64}$`

var re = regexp.MustCompile(Pattern)

// Valid reports whether s is a valid name.
func Valid(s string) bool { return re.MatchString(s) }
