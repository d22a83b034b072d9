// Package archive reads the archive of a submitted engine (arena submit-engine): a .tar.gz
// or .zip with a manifest, arena.toml, at its root. It unpacks archives safely and parses
// manifests strictly, with the same errors for the student who submits, the referee who
// stores, and the host who builds and runs.
//
// A manifest says how to build and run the engine:
//
//	protocol = "line"                      # line, gtp or nboard, as arena engine --protocol
//	build = "cc -O2 -o engine engine.c"    # optional: a shell command run in the engine's directory
//	run = "./engine --quiet"               # the engine's command line
//	game = "othello"                       # optional: the game it plays, or a list of games
//
// ParseManifest rejects unknown keys and values of the wrong type with the line they are
// on, like tournament files (organizer.ParseSpecFile), and a protocol its caller did not
// list: the callers pass the engine registry's names (engine.Names), so that this package,
// shared by the submitting client, the referee and the host, imports nothing of the engine
// runner. The run line is split into words as
// a shell would, with single and double quotes and backslashes, but it is no shell
// command: an unquoted shell operator (| & ; < > ( ) $ ` * ? [ # ~) is refused, so that a
// line that needs a shell says so at once instead of running something else. The build
// command is run by a shell (sh -c), in a sandbox, by the host.
//
// Unpacking refuses, each with its own error wrapping ErrRefused:
//
//   - an archive larger than Limits.MaxArchive (protocol.MaxArchiveSize, 8 MiB), or in
//     another format than gzip-compressed tar or zip;
//   - an entry whose name is absolute, has a ".." (or "." or empty) component, a
//     backslash, a control character or invalid UTF-8, or is too long;
//   - a link of any kind (symbolic or hard), a device, a FIFO, or any entry that is not a
//     regular file or a directory: refusing links altogether, rather than checking where
//     they point, leaves nothing to get wrong;
//   - an entry that appears twice, or a file where a directory is needed;
//   - more than Limits.MaxFiles entries (2000), a file larger than Limits.MaxFile (16 MiB),
//     or more than Limits.MaxTotal bytes unpacked in all (64 MiB), counted as the data is
//     decompressed, never trusting the sizes the archive declares;
//   - no arena.toml at the root (with a hint when it sits one directory down), unless
//     Limits.NoManifest.
//
// Files are written with mode 0644, or 0755 when the archive gives them any execute bit;
// directories 0755, except the directory unpacked into, which is its owner's alone
// (0700). Nothing else of the archive's metadata (owners, times, special bits) is kept.
package archive
