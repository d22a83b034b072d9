// Package workqueue lets several referee processes, on one host or many, share the games
// of tournaments and ladders through NATS JetStream.
//
// One process, the owner, keeps the SQLite file: it decides which games to play, puts
// each on the work queue as a Job, and records the results that come back. Any number of
// workers (arena referee --worker, and the owner itself unless told otherwise) take jobs,
// play them with their own referee.Referee, and send back an Outcome.
//
// # Streams
//
// Two JetStream streams carry the work, both with work-queue retention, so that a
// message is gone once acknowledged:
//
//	ARENA_GAMES    arena.v1.work.games.<db>.<tournament>.<index>    jobs, taken by the
//	               durable pull consumer "workers", which every worker shares
//	ARENA_RESULTS  arena.v1.work.results.<db>.<tournament>.<index>  outcomes, taken by
//	               the durable pull consumer "recorder", which only the owner reads
//
// <db> is the owner's database id (Config.Database), which also marks both streams (their
// description): a database made again, or another database on the same bus, never meets
// the messages of another, even within the server's duplicate window (the subject is each
// message's id). An owner refuses streams marked with another database unless told to take
// them over (ErrOtherDatabase, Config.TakeOver).
//
// # Start-up in any order
//
// Only the owner makes and changes the streams and consumers (Setup), with its replicas
// and AckWait. A worker waits until they are there, saying so in its log, and takes the
// AckWait from the consumer; it looks the consumer up again after repeated failures to
// fetch, so it survives the owner making the queue again. Owner and workers may therefore
// start in any order, or together.
//
// # Stalls
//
// While a feed waits for outcomes, the owner looks at the queue a few times per
// Config.Stall (Owner.watch). When no outcome has come for Stall and either a job vanished
// from both streams, the queue cannot be read, or no worker has taken a job for Stall, it
// logs an error naming what it sees, and Owner.Problem returns it (arena status prints it).
// A worker whose loop stops by itself is reported by StartWorker, so that its process exits
// instead of idling.
//
// Each subject holds at most one message and a second one is refused
// (DiscardNewPerSubject): a game cannot be queued twice, nor answered twice, while the
// first is there. A work queue was chosen over a key-value bucket or a plain stream
// because it is what JetStream offers for "each message to exactly one of many
// consumers, removed once done": it gives redelivery after a missed acknowledgement, a
// per-message deadline that a worker extends while it plays (InProgress), and no cleanup.
//
// # Exactly once
//
//   - A worker acknowledges a job only after the server has stored its outcome (the
//     publish acknowledgement of ARENA_RESULTS, replicated when the streams are). A worker
//     that dies in the middle of a game acknowledges nothing: after AckWait the job is
//     redelivered to another worker and the game is replayed from its start.
//   - A worker that dies after storing an outcome but before acknowledging its job has the
//     job redelivered; the next worker finds the outcome already in ARENA_RESULTS and
//     acknowledges the job without playing it.
//   - The owner acknowledges an outcome only after it has recorded it in SQLite. An owner
//     that dies in between gets the outcome again after its restart, and the store refuses
//     a second game with the same tournament and index (store.ErrDuplicate), which the
//     owner takes as already recorded.
//   - The one case in which a game is played twice: its outcome was recorded and
//     acknowledged (so it left ARENA_RESULTS) before the redelivered job reached a worker.
//     That needs a worker to die in the instant between the two acknowledgements; the
//     second outcome is then refused by the store, so it is never recorded twice.
//
// An owner that restarts asks for the results of its tournaments again (Owner.Open); the
// outcomes of games its earlier run put on the queue arrive like any other, and
// Feed.Reserved tells a ladder which game indices are still on the queue so that it does
// not reuse them.
package workqueue
