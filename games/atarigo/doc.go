// Package atarigo is the capture game of Go for Arena: atari-go ("atari-go"), where the
// first capture wins, and capture problems ("capture"), where one side must take a given
// string and the other must save it.
package atarigo
