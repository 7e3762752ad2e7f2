// Package viewer serves the live and replay pages of the four games as an
// http.Handler that any host can feed: arena's matches and servers, or a
// program that embeds a referee.
//
// A Viewer (made by New) is both the handler and the feed. A host
// publishes each game it plays through the Watcher interface: Begin with
// the game's GameInfo and first Frame, Update after every ply, Finish with
// the result and the record file written. A Frame is the board drawn as SVG
// (package boardsvg) and the text around it; OthelloFrame, GeisterFrame and
// PDDFrame build one from a position (for dark chess, boardsvg.DarkChess
// and DarkChessStatus). A host with no viewer passes Discard.
//
//	v, err := viewer.New(viewer.Options{Records: []string{"records"}})
//	...
//	go http.ListenAndServe("127.0.0.1:8080", v)
//	v.Begin(viewer.GameInfo{ID: "g1", Game: "othello", Title: "Game 1"}, viewer.OthelloFrame(p, 0, othello.NoMove, "", clocks))
//
// The pages:
//
//	/                  the index: live and finished games, the recorded games (one entry each), an upload form
//	/live/{id}         a game's live page: the board, both clocks, the move list, the result
//	/replay?file=F     the replay page of a record file under Options.Records, or that a game
//	                   finished with; /replay?upload=U that of an uploaded record
//	/replay/start?file=F&game=G&ply=N
//	                   the position at ply N as a start file in the platform's format,
//	                   a download that "arena match -start" reads (see Replay.Start)
//	/replay/output?file=F&game=G&ply=N
//	                   what the programs printed for ply N, read from the record's directory
//	/play/{id}?seat=T  a seat's page, where a person plays one side of a live game (without
//	                   the token, the game's live page)
//
// A person plays a seat of a game as a program would: the host opens the
// seat (OpenSeat), gives its link (the path with its unguessable token) to
// the person, and asks the seat for each move (Ask) with a Question: the
// seat's own view of the game (so that nothing hidden shows), the board's
// clickable Areas in the units of the picture's viewBox, and the Choices
// allowed (each legal move with the areas to click for it, and buttons:
// pass, resign, a draw offer, take-back). Ask returns the Answer the page
// gave, always one of the choices, or ends with its context (the clock
// ran out). For a Geister setup, the Question's Setup names the seat's
// ghosts and their squares, and the answer is the four red ones'
// letters. When the game is over the host calls Finish, then CloseSeats.
//
//	path, err := v.OpenSeat("g1", 0) // "/play/g1?seat=..."
//	...
//	a, err := v.Ask(ctx, "g1", 0, viewer.Question{Frame: f, Areas: areas, Prompt: "Your turn (black)", Choices: moves, Deadline: deadline})
//
// The seat's page highlights the areas that begin or continue a move,
// marks those clicked, and answers once the clicks name exactly one move
// (Escape starts again); it shows whose turn it is, both clocks (the
// seat's own counting down to the Deadline), the prompt, the buttons, an
// answer the viewer refused and why, and the result with a link to the
// replay. A seat is played from one browser at a time: another browser's
// page says that the seat is open elsewhere, and a reload takes the seat
// over from the page it replaces. The seat's event stream
// (/play/{id}/events?seat=T) sends "seat" events, JSON with the page's
// session, the game as the seat sees it, the question asked and its
// number n (a question the stream sent already comes again as its number
// with "same": true, without its choices); an answer is a form (session, n, kind, move) posted to
// /play/{id}/act?seat=T: 204 when taken, 400 when not allowed, 403 from
// a page that does not hold the seat, 409 for a question no longer asked,
// 413 for an answer longer than 4 KiB.
//
// A replay page is stepped with the arrow keys, Home, End, PageUp and
// PageDown. It lists the moves and fetches each ply's picture as it is
// shown (drawn then by the Game's Replay, see ReplayOthello, ReplayGeister,
// ReplayDarkChess and ReplayPDD), so that it stays small however long the
// record. Its "Save position" link saves the ply shown as a start file
// (Othello: the -trans transcript or move list cut there; Geister and dark
// chess: board.txt cut there, no result line; PDD: stepLog.txt cut there),
// and its output panel shows, as text, what the programs printed: for PDD
// the mover's logs of that turn, for the other games the end of each
// program's whole output (it is not stamped with plies), at most 64 KiB
// for a ply. For Geister, a game in progress shows no ghost's colour unless
// the host reveals them (GeisterFrameOptions.Known), and each player's view
// once they are known.
//
// Everything the pages load comes from the package (embedded): the viewer
// works offline and its pages load nothing from elsewhere. Its memory is
// bounded however long it runs and whatever it is sent (Limits): the games
// kept, the moves listed per game, the size of a record, the uploads kept,
// the records kept read, and the requests that read a record or draw a
// frame served at once (others wait a moment, then get 503). No request
// can make it panic; bad input gets a 4xx page saying what was wrong.
package viewer
