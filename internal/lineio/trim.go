package lineio

import "strings"

// TrimLine strips one trailing CR and then trailing spaces and tabs: the
// lenient end of a line that the line protocols accept.
func TrimLine(line string) string {
	line = strings.TrimSuffix(line, "\r")
	return strings.TrimRight(line, " \t")
}
