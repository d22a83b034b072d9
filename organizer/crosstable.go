package organizer

import "github.com/arenaref/arena/store"

// CrossCell is one pairing of a crosstable, from the row player's side.
type CrossCell struct {
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Points float64 `json:"points"`
}

// Games is how many games the cell counts.
func (c CrossCell) Games() int { return c.Wins + c.Draws + c.Losses }

// Crosstable is the score of each player against each other player over two-player games:
// Crosstable[a][b] is a's record against b, whichever seats they had. The rating table,
// the CLI's and the web view's crosstables are this one count.
type Crosstable map[string]map[string]CrossCell

// Add counts one game: its players and scores by seat (1 a win, 0 a loss, anything else a
// draw) and its result as stored. A game that is not a two-player game with a result
// (store.ResultNone) is left out; Add reports whether it counted the game.
func (c Crosstable) Add(players []string, scores []float64, result string) bool {
	if len(players) != 2 || len(scores) != 2 || result == store.ResultNone {
		return false
	}
	for seat, p := range players {
		other := players[1-seat]
		if c[p] == nil {
			c[p] = map[string]CrossCell{}
		}
		cell := c[p][other]
		switch sc := scores[seat]; {
		case sc == 1:
			cell.Wins++
		case sc == 0:
			cell.Losses++
		default:
			cell.Draws++
		}
		cell.Points += scores[seat]
		c[p][other] = cell
	}
	return true
}
