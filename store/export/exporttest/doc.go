// Package exporttest holds the readers of the export formats, for tests that check a
// written file reads back: ReadPGN, ReadGGF, ReadCSV and ReadJSON read what the writers of
// package export write, and refuse malformed input with errors wrapping
// export.ErrMalformed. Nothing but tests needs to read these formats back, so the readers
// live here rather than in package export; the rules they share with the writers (results,
// board sizes, round tags, PGN symbols, the CSV header, the JSON document) are exported by
// package export and written once there.
package exporttest
