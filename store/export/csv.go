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

// CSVHeader returns the first row of a CSV file, the names of its columns, which a reader
// checks. It is a new slice each time, so that no caller can change the header.
func CSVHeader() []string { return slices.Clone(csvHeader) }

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

// WriteCSVRecords writes a header and one row per record, the way WriteCSV writes games,
// so that whatever exporttest.ReadCSV reads can be written again. A record's Round must be
// what RoundTag writes, and its moves must be what WriteCSV accepts; otherwise the error
// wraps ErrUnsupported and nothing is written.
func WriteCSVRecords(w io.Writer, recs []Record) error {
	rows := [][]string{csvHeader}
	for i, rec := range recs {
		row, err := csvRecordRow(rec)
		if err != nil {
			return fmt.Errorf("export csv: record %d: %w", i+1, err)
		}
		rows = append(rows, row)
	}
	return writeCSVRows(w, rows)
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
