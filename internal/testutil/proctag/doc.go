// Package proctag finds processes by a token on their command line, for tests that must
// show a program left nothing running. The test gives the program a fresh token (New), the
// program passes it on as an argument to every process it starts (as fakeengine --tag
// does), and Find lists those still running, read from /proc.
//
// The pids a program reports about itself are no help for this once it runs in a pid
// namespace of its own: there it is pid 1 and its children count from 2. Its command line
// shows in /proc all the same, under the pid the caller knows it by.
package proctag
