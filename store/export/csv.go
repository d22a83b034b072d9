package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/arenaref/arena/store"
)

// csvHeader is the first row of a CSV file, the names of its columns.
var csvHeader = []string{"id", "tournament", "round", "index", "game", "first", "second", "result", "reason", "plies", "started", "ended", "moves"}

// WriteCSV writes a header and one row per game, the columns the package documentation
// lists. A move that is empty or has white space in it is an error wrapping
// ErrUnsupported, since the moves column separates moves with spaces; nothing is written
// then.
func WriteCSV(w io.Writer, games []store.Game) error {
	rows := [][]string{csvHeader}
	for i, g := range games {
		first, second := "", ""
		if len(g.Players) > 0 {
			first = g.Players[0]
		}
		if len(g.Players) > 1 {
			second = g.Players[1]
		}
		row := []string{
			strconv.FormatInt(g.ID, 10), strconv.FormatInt(g.TournamentID, 10),
			strconv.Itoa(g.Round), strconv.Itoa(g.Index), g.Game, first, second,
			g.Result, g.Reason, "", csvTime(g.Started), csvTime(g.Ended), "",
		}
		if err := setCSVMoves(row, flatMoves(g)); err != nil {
			return fmt.Errorf("export csv: %s: %w", gameLabel(i, g), err)
		}
		rows = append(rows, row)
	}
	return writeCSVRows(w, rows)
}

// setCSVMoves fills in the columns plies and moves of a row.
func setCSVMoves(row []string, moves []string) error {
	for _, m := range moves {
		if m == "" || strings.ContainsFunc(m, unicode.IsSpace) {
			return fmt.Errorf("%w: move %q cannot be one of space-separated moves", ErrUnsupported, m)
		}
	}
	row[9], row[12] = strconv.Itoa(len(moves)), strings.Join(moves, " ")
	return nil
}

func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func writeCSVRows(w io.Writer, rows [][]string) error {
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("export csv: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// csvRecordRow is the row of a record: the columns a record does not carry (id,
// tournament, ended) are left empty, and round and index come from Round.
func csvRecordRow(rec Record) ([]string, error) {
	round, index, ok := parseRoundTag(rec.Round)
	if !ok {
		return nil, fmt.Errorf("%w: round %q is not R.I", ErrUnsupported, rec.Round)
	}
	row := []string{
		"", "", strconv.Itoa(round), strconv.Itoa(index), rec.Game, rec.White, rec.Black,
		rec.Result, rec.Reason, "", rec.Date, "", "",
	}
	return row, setCSVMoves(row, rec.Moves)
}

// ReadCSV reads what WriteCSV writes: the header, then one game a row. Id and tournament
// may be empty; round, index and plies are numbers, plies the number of moves; started
// and ended are RFC 3339 times or empty; result is one of the four results. The Record of
// a row has its Round written as PGN's ("R.I"), its Date from started, and its Board from
// the game. Errors wrap ErrMalformed.
func ReadCSV(r io.Reader) ([]Record, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(csvHeader)
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: csv: %w", ErrMalformed, err)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], csvHeader) {
		return nil, fmt.Errorf("%w: csv: the first row is not the header %s", ErrMalformed, strings.Join(csvHeader, ","))
	}
	var recs []Record
	for i, row := range rows[1:] {
		rec, err := csvRecord(row)
		if err != nil {
			return nil, fmt.Errorf("%w: csv row %d: %w", ErrMalformed, i+2, err)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

func csvRecord(row []string) (Record, error) {
	for _, col := range []int{0, 1} {
		if _, err := strconv.ParseInt(row[col], 10, 64); row[col] != "" && err != nil {
			return Record{}, fmt.Errorf("%s %q is not a number", csvHeader[col], row[col])
		}
	}
	var nums [3]int
	for k, col := range []int{2, 3, 9} {
		n, ok := atoiNonNeg(row[col])
		if !ok {
			return Record{}, fmt.Errorf("%s %q is not a number", csvHeader[col], row[col])
		}
		nums[k] = n
	}
	for _, col := range []int{10, 11} {
		if _, err := time.Parse(time.RFC3339, row[col]); row[col] != "" && err != nil {
			return Record{}, fmt.Errorf("%s %q is not an RFC 3339 time", csvHeader[col], row[col])
		}
	}
	if !validResult(row[7]) {
		return Record{}, fmt.Errorf("result %q is none of 1-0, 0-1, 1/2-1/2 and *", row[7])
	}
	rec := Record{
		Date: row[10], Round: roundTag(nums[0], nums[1]), White: row[5], Black: row[6],
		Result: row[7], Reason: row[8], Moves: strings.Fields(row[12]), Game: row[4],
	}
	if len(rec.Moves) != nums[2] {
		return Record{}, fmt.Errorf("plies is %d but there are %d moves", nums[2], len(rec.Moves))
	}
	if len(rec.Moves) == 0 {
		rec.Moves = nil
	}
	rec.Board, _ = othelloSize(rec.Game)
	return rec, nil
}
