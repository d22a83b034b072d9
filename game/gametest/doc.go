// Package gametest runs the conformance suite of package conformance from a game's tests,
// each check as a subtest:
//
//	func TestConformance(t *testing.T) {
//		gametest.Run(t, othello.New())
//	}
//
// Playouts, Seed and MaxPlies set how far it explores. The suite checks the contract, not
// the rules: each game adds its own rule tests (perft counts, hand-built positions).
package gametest
