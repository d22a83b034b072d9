package exporttest

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/store/export"
)

// ReadCSV reads what export.WriteCSV writes: the header, then one game a row. Id and tournament
// may be empty; round, index and plies are numbers, plies the number of moves; started
// and ended are RFC 3339 times or empty; result is one of the four results. The Record of
// a row has its Round written as PGN's ("R.I"), its Date from started, and its Board from
// the game. Errors wrap export.ErrMalformed.
func ReadCSV(r io.Reader) ([]export.Record, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(export.CSVHeader())
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: csv: %w", export.ErrMalformed, err)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], export.CSVHeader()) {
		return nil, fmt.Errorf("%w: csv: the first row is not the header %s", export.ErrMalformed, strings.Join(export.CSVHeader(), ","))
	}
	var recs []export.Record
	for i, row := range rows[1:] {
		rec, err := csvRecord(row)
		if err != nil {
			return nil, fmt.Errorf("%w: csv row %d: %w", export.ErrMalformed, i+2, err)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

func csvRecord(row []string) (export.Record, error) {
	for _, col := range []int{0, 1} {
		if _, err := strconv.ParseInt(row[col], 10, 64); row[col] != "" && err != nil {
			return export.Record{}, fmt.Errorf("%s %q is not a number", export.CSVHeader()[col], row[col])
		}
	}
	var nums [3]int
	for k, col := range []int{2, 3, 9} {
		n, ok := export.ParseDigits(row[col])
		if !ok {
			return export.Record{}, fmt.Errorf("%s %q is not a number", export.CSVHeader()[col], row[col])
		}
		nums[k] = n
	}
	for _, col := range []int{10, 11} {
		if _, err := time.Parse(time.RFC3339, row[col]); row[col] != "" && err != nil {
			return export.Record{}, fmt.Errorf("%s %q is not an RFC 3339 time", export.CSVHeader()[col], row[col])
		}
	}
	if !export.ValidResult(row[7]) {
		return export.Record{}, fmt.Errorf("result %q is none of 1-0, 0-1, 1/2-1/2 and *", row[7])
	}
	rec := export.Record{
		Date: row[10], Round: export.RoundTag(nums[0], nums[1]), White: row[5], Black: row[6],
		Result: row[7], Reason: row[8], Moves: strings.Fields(row[12]), Game: row[4],
	}
	if len(rec.Moves) != nums[2] {
		return export.Record{}, fmt.Errorf("plies is %d but there are %d moves", nums[2], len(rec.Moves))
	}
	if len(rec.Moves) == 0 {
		rec.Moves = nil
	}
	rec.Board, _ = export.OthelloSize(rec.Game)
	return rec, nil
}
