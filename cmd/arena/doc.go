// Command arena hosts the game platforms' servers, runs matches and
// tournaments between programs, and shows games in a web viewer, for
// Othello, Geister, Chinese dark chess and Ponte del Diavolo.
//
//	arena match <game> [flags] [player player]
//	arena tournament <game> [flags] player player [player...]
//	arena merge [-out DIR] SHARD_DIR...
//	arena serve <game> [flags]
//	arena view [-web addr] [record files or directories...]
//	arena bot <game> <name> [args...]
//	arena train othello [-seed S] [-games N] [-out FILE] [-j N]
//	arena help [command [game]]
//	arena help results
//	arena version
//
// "arena train othello" trains the n-tuple network of the Othello best
// bot (package search's OthelloPatternEval) by self-play with TD(λ),
// telling the games done, the games a second and the time left on
// standard error at most once a second, and writes the weights file
// atomically at the end. The same seed and flags give the same file,
// whatever -j; the shipped weights are the defaults' with the seed their
// README names.
//
// # Matches
//
// "arena match othello", with nothing else, plays two games between two
// built-in bots with the platform's protocol in the loop (a TUS server on
// loopback and two TCP clients), the seats swapped in the second, prints a
// line per game and the totals: wins, draws and losses of each player, the
// score, and the Elo difference with its 95% error bar. The games are the
// same for geister (the Java server's messages, each bot a STDIO program),
// darkchess (MGTP engines) and pdd (a strategy program run per move). A
// match names both its players or none; one alone is refused (the other
// would be a default, often the same bot).
//
// "arena version" prints arena's version, the module's version and the
// revision it was built from, as the Go build recorded them. Help that is
// asked for (help, -h) goes to standard output; a command line arena cannot
// read gets its message, and the usage where one helps, on standard error,
// and exit status 2.
//
// A player is a built-in bot, an external program or a person:
//
//	random, greedy, mcts          built-in bots of every game (Othello and PDD have alphabeta
//	                              too, dark chess expecti, Geister rush)
//	best                          the strongest built-in of each game (package search's
//	                              OthelloBestPlayer, GeisterBestPlayer, DarkChessBestPlayer,
//	                              PDDBestPlayer; dark chess's is expecti, PDD's alphabeta)
//	tcp:./bot args                Othello: a TUS client, started with the server's host and port
//	                              appended (or put in place of {host} and {port})
//	stdio:./bot, tcp:./bot        Geister: the NTPU launcher's STDIO and TCP modes
//	mgtp:./engine, legacy:./search, readmode:./search
//	                              dark chess: MGTP, the legacy socket protocol, read mode
//	strategy:./bot                PDD: PROG <W|B> <Y|N> chess.txt bridge.txt stepLog.txt
//	./bot                         a path alone speaks the game's first protocol
//	human                         a person, on the seat page of -web (needed): arena prints
//	                              each seat's link when its game begins; without -time,
//	                              Othello and PDD then play 60s/move
//	alice=mgtp:./engine           NAME=PLAYER names a player (alice=human a person)
//
// A command line is split on blanks, with no shell. A program is named after
// its executable's base name ("mgtp:./engine 5" is engine), or for an
// interpreter after its script ("python3 bot.py" is bot). A program that is
// missing, not executable, crashes, hangs or talks nonsense loses its game,
// and the result line says which fault it was, in the same words for every
// game and protocol (see Endings), with the reason.
//
// It is killed with every process it started and reaped, and the match goes
// on. On Linux that includes the processes that left its process group
// (setsid), cleared their environment or lost their parent: each program
// runs in a PID namespace of its own (in an unprivileged user namespace, so
// any user has it where the kernel allows user namespaces), as the child of
// a small init of arena's (arena's own binary started again), and when the
// program ends the init exits and the kernel kills every process of the
// namespace; the program also runs in a cgroup of its own when arena's
// cgroup is writable; with neither, its processes are found in /proc, and
// arena says so once before the games (see internal/proc). arena catches
// SIGINT, SIGTERM and SIGHUP (closing its terminal) and ends its games
// with their programs; a second signal ends it at once, and killing arena
// itself (kill -9) kills the programs it runs and everything they started.
// A cgroup a killed arena left behind is removed, with anything still in
// it, by the next one. A program's logs keep at most 256 KiB per game, the
// start and the end. arena exits with status 1 after the games when a program could not
// start in any of its games.
//
// Flags of match and tournament (flags and players may come in any order):
//
//	-games N     games per pairing (2); with -sprt the cap, even (100000)
//	-sprt T      match only: play pairs until the SPRT T decides, e.g.
//	             elo0=0,elo1=5,alpha=0.05,beta=0.05 (see "Is B stronger than A?")
//	-swap        swap who moves first after each game (true)
//	-time C      time control in timer's text form: none, 900s, 600s+10s/move, 5s/move, ...
//	             (each game's platform default)
//	-rules P     rule preset: othello tus|standard, geister gat|ntpu,
//	             darkchess ntu2021|classic|icga, pdd course|official
//	-plies N     ply limit (Geister's turn limit, dark chess's no-capture-no-flip limit)
//	-start F     a record to start every game from (a mid-game position)
//	-openings F  a file of openings, each played by every pairing once with each colour (below)
//	-openings-order O
//	             sequential (the file's order) or random (shuffled by -seed)
//	-seed S      the match seed, printed when drawn; a run with the same seed plays the same
//	             games: built-ins are seeded from the seed, the game's index and the seat
//	-out DIR     where the records go (arena-records/<game>-<date>-<time>)
//	-startup D   how long a program has to start, connect and hand-shake (10s)
//	-resume DIR  go on with the run in DIR: play its unplayed games only
//	-shard I/N   tournament: play only shard I of N, I counted from 0 (see Tournaments)
//	-j N         games at once (match 1, tournament the number of CPUs)
//	-web ADDR    serve the web viewer (live boards, clocks, move lists, replays)
//	-v           log the referees' events
//
// plus each game's own (darkchess -repetition, geister -reveal, pdd -eol and
// -workdir).
//
// The built-in mcts is package search's player (Monte Carlo tree search;
// information-set MCTS for Geister, its determinizations weighted by what
// the opponent's ghosts have done; dark chess playouts cut off after 12
// plies and scored by material). Geister's best is package search's
// GeisterBestPlayer: mcts's search, and at the root a check over the same
// determinizations of each move's chance of letting the opponent force an
// escape within three of its moves, playing the search's favourite among
// the safest, keeping 25 ms more of a per-move limit back for a loaded
// machine. Geister's rush (package search's GeisterRushPlayer) is a
// sparring bot that answers at once: each move its blue ghost nearest to
// an exit steps toward it, or escapes. Dark chess's expecti, also called
// best, is package search's DarkChessBestPlayer: Expectimax (Star1, each
// flip a chance node, a quiescence search of the captures at the leaves;
// captures, steps and flips searched in that order) over material, shrunk
// toward the draw as the no-progress counter runs out, a return to a
// position of the game scored as a draw less a contempt; PDD's alphabeta,
// also called best, is package search's PDDBestPlayer: αβ over the 8 best
// moves of each position by greedy's evaluation (search.PDDValue) plus the
// points each side could reach through the bridges it could still build
// (PDD positions have hundreds of moves, too many for playouts). Othello's
// alphabeta is a fixed-depth search of its own; Othello's best is package
// search's OthelloBestPlayer, principal-variation αβ over the learned
// n-tuple evaluation with an exact endgame solve (its weights made by
// "arena train othello"). The search bots take their
// time from -time through the time manager of package timer, as package
// search's players do on any platform: under a per-move limit, the limit
// less a latency margin (50 ms, more after slow answers) and a sixteenth
// for overshoot; under a game clock a share of the time left (as the
// protocol tells it, else as the bot measured it) over 30 moves (dark
// chess 50) plus three quarters of the increment, keeping the margin back
// for every move still to come. PDD's built-ins play in arena's own
// process, through the same files and checks as a strategy program
// (without the cost of starting one for each move); their runner keeps
// back a fifth of the time, at most 1 s, for writing the move. Under
// -time none they search a fixed number of playouts a move instead
// (Othello and Geister 1000, dark chess 300, PDD 60), or a fixed depth
// (expecti and dark chess's best 4 plies, PDD's alphabeta and best 2,
// Othello's best 4 and a solve from 10 empty squares), so that the same -seed
// replays their games; under a time limit their games depend on the
// machine's speed. The other built-ins answer at once and replay from the
// seed under any control.
//
// Othello by hand: a person ("human", on the -web seat page) plays as a
// TUS client of the game's own server, which referees and times their
// moves as a program's (the -time per-move limit). The server passes for a
// side with no move, so a person is never asked to pass. The TUS protocol
// has no resignation or draw: a person who resigns (or two persons who
// agree on a draw) leaves the server's game, and arena scores it as a
// resignation (an agreed draw); the transcript and the move list hold the
// moves played, their formats having no result line. A take-back, against
// a program, restarts the server from the position before the person's
// last move (the program connects again as at a game's start; a tcp:
// program is started again), and the records hold the game as finally
// played, from its start. No Othello preset forbids a take-back.
//
// Every game gets a directory in -out with the platform's records (Othello's
// -trans transcript and a move list; Geister's board.txt; dark chess's
// board.txt, its JSON sidecar and the MGTP transcripts; PDD's game directory
// with stepLog.txt and result.json) and result.txt, its result in words.
// The run's directory holds run.json (the run: game, flags, players, seed),
// results.tsv (a line per game, appended and synced as the game ends, so
// that no finished game is lost even to kill -9) and, at the end,
// results.txt (a line per game and the table). arena holds the run's
// directory open from the start and writes its files through it, so a
// program that moves the directory away or puts a symlink in its place
// does not take arena's writes elsewhere; arena checks before and after
// each game that -out still leads there, and when it does not, that game's
// result says so, no further game is played, and arena exits with an error
// naming what is at -out now (the files are in the directory where the
// program moved it). Each game's directory is held open the same way:
// arena's records in it go to the directory it made, and a program that
// moves or replaces it stops the run alike. A PDD program that does so,
// and a dark chess read-mode engine that moves or replaces its working
// directory, loses the game by it.
//
// A PDD strategy program whose player misses its deadline (or fails) does
// not lose: its strategy runner plays the first legal move in the player's
// place and says so on its standard error. arena counts these fallback
// moves per player and shows them in the result line ("bot: 3 fallback
// moves (...)"), in the first_fallbacks and second_fallbacks columns of
// results.tsv and in result.json, so that a bot whose search overruns its
// time is seen. Under -time none a PDD program has no time limit at all;
// Ctrl-C still stops it.
//
// A person playing PDD (human) is asked each action on the seat page: two
// tiles or a bridge by clicking their two squares, in either order, Change
// by its button. The same referee checks the action through the same files
// as a program's, and the person's time runs on the same clock (give -time:
// the platform's 5 s a move is short for a person); a person out of time
// loses by time, no move is played in their place. A resignation or an
// agreed draw is recorded in result.json (reason "resignation" or "agreement"),
// since stepLog.txt has no line for either. A take-back against a program
// undoes the person's last action and the program's answer (never the
// actions of -start or -openings); the clocks go on as they stand, and the
// record keeps the game as finally played.
//
// # Endings
//
// How a game ended is said in the same words for the four games and every
// protocol ("arena help results"): the result line's "wins by ..." or "draw
// by ...", the ending column of results.tsv, the endings of the match's
// summary and the viewer's last status. When a program misbehaved, its fault
// decides the ending, whatever the platform calls it (a program that never
// started loses by "start failure" in every game); the platform's own word
// stays in the game's record. A program's fault (the program that did it
// loses):
//
//	start failure   it could not be started: not found, not executable, not a program
//	crash           it exited with a non-zero status or died by a signal
//	protocol error  it broke the protocol: garbage, a wrong command, a closed
//	                connection or output, an exit with status 0 before the end
//	illegal move    a well-formed move the rules forbid (Othello: too many
//	                rejected commands)
//	time            no answer in time: to start, connect, hand-shake or move
//
// The rules:
//
//	resignation     the loser resigned (dark chess, Geister; a person, any game)
//	discs           Othello: neither side can move; the disc counts decide
//	score           PDD: the points decide ("draw by score": points, islands
//	                and bridges all equal)
//	islands         PDD: points equal; the islands decide
//	bridges         PDD: points and islands equal; the bridges decide
//	escape          Geister: a blue ghost escaped
//	blue captured   Geister: the winner captured the loser's four blue ghosts
//	red captured    Geister: the loser captured the winner's four red ghosts
//	ply limit       Geister: a draw at the ply limit
//	agreed draw     two persons agreed on a draw (players "human")
//	no pieces       dark chess: the loser has no pieces left
//	no moves        dark chess: the loser, to move, has no legal move
//	no progress     dark chess: a draw after too many plies without a capture
//	                or a flip
//	repetition      dark chess: a draw by a repeated cycle of plies
//
// A game that did not end (interrupted, or neither program started) is
// "unfinished". A result line reads
//
//	game 3: a (black) vs b (white): a wins by crash, 12 plies; b: crash, exit status 3; record out/003-a-b/othello.trans
//
// after the players, each program's fault, and the game's main record, its
// path under the run's directory as -out gave it, in every game.
//
// Ctrl-C stops a match or tournament: the games being played end unfinished,
// their programs are killed, the finished games stay recorded, the partial
// results are printed, and arena exits with status 130. "arena tournament
// -resume DIR" (or match) goes on with a run stopped by Ctrl-C, a crash or
// kill -9: it plays only the games results.tsv lacks, with the run's
// players, flags and seed, and ends with the table the whole run would have
// printed. A run directory has one writer: while an arena plays a run (or
// merges shards) into DIR, it holds DIR/arena.lock, and a second arena that
// would write there (-resume DIR, -out DIR) is refused at once, with the
// holder's pid, host, start time and command line. The hold ends with its
// process, however it ends, so a run killed with kill -9 does not block its
// resume. A second Ctrl-C (or SIGTERM) ends arena at once.
//
// -resume believes no result it cannot check. When a game ends, arena
// writes game.json into its directory (beside result.txt, before the
// game's line of results.tsv): the run it was played in, as run.json then
// said, and the game's line. -resume refuses, naming the game and what
// disagrees: a line of results.tsv that is not the line its game's
// game.json holds (an edited result), a line for a game the run does not
// have, a finished game whose directory is missing, and a run.json whose
// seed, flags or players are no longer those its games were played with.
// A game directory of an earlier arena, without game.json, has its line
// checked against its result.txt instead.
//
// Every file arena is told to read (-start, -openings, run.json and
// results.tsv of -resume, the shards of merge) is opened without waiting
// for a writer and must be a regular file (or a link to one): a named pipe
// or a device is refused at once, naming the file and what it is. Each is
// read within a bound well above what a real file of its kind holds
// (-start 4 MiB, -openings 4 MiB, run.json 1 MiB, results.tsv 256 MiB); a
// file past it is refused, naming the file and the bound.
//
// # Openings
//
// "-openings FILE" makes games differ fairly: each pair of games of a
// pairing (games 2i and 2i+1 of it, the seats swapped) starts from one
// opening of the file, so that each player plays each opening once with
// each colour. The pairs take the openings in the file's order, or with
// "-openings-order random" in an order shuffled by -seed (the same seed, the
// same order); with more pairs than openings the order starts again, and
// every pairing of a tournament plays the same sequence. (With an odd
// -games the last game's opening is played with one colour only, and with
// -swap=false a pair's games keep their seats.) The file holds one
// opening a line; '#' starts a comment to the end of the line and blank
// lines are skipped; a line is at most 4096 bytes and the file 4 MiB. A line
// that is not an opening of the game under -rules stops arena before any
// game with the file, the line and what is wrong. -openings and -start
// cannot be given together.
//
//	othello    a move list from the standard start as XOT's openings are written:
//	           f5d6c3d3c4f4f6f3 (either case, spaces allowed, a forced pass as pa or
//	           ps or left out); under -rules tus the moves are mirrored onto the TUS
//	           start. It must leave the game unfinished. The server starts from its
//	           position, which the programs get in the first BOARD (TUS clients take
//	           the position from BOARD); the transcript holds the opening's moves
//	           before the game's, so that it replays from the start like any -trans
//	           file, and moves.txt the whole game.
//	geister    both players' red ghosts, the first player's then the second's, as
//	           SET: names them: BCDE efgh, or SET:BCDE SET:EFGH. The game starts as a
//	           mid-game file with both red sets (as the NTPU platform's start file): the
//	           host still asks every program for SET:, answers a well-formed one with
//	           OK and ignores its letters; the programs, built-ins included, learn
//	           their colours from the first MOV? board. board.txt's "* red" line has
//	           the imposed sets.
//	darkchess  a deal: the piece under each face-down square of the opening, rank 8
//	           first, as the sidecar's "deal" (PmRc/MRpP/MrnK/Pknp/rCpC/GgPP/GpNN/gmpc);
//	           or "seed N" (or N alone): the deal "arena match darkchess -seed N"
//	           gives its first two games, rand.NewPCG(N, 0)'s. The deal stays with
//	           the referee, as every deal does; the sidecar's "opening" names it.
//	pdd        a start record: the first actions as stepLog.txt writes them,
//	           separated by spaces: W_1_Chess_2,0_2,2 B_2_Change_2,0_2,2 W_3_Chess_0,2_1,3,
//	           replayed under -rules and left unfinished. The referee starts from
//	           it as from -start: the programs find its actions in stepLog.txt,
//	           chess.txt and bridge.txt, and result.json counts them in start_plies.
//
// Each game's directory holds opening.txt (the opening's number, its line in
// the file, the line) and the game's result line ends with the opening
// ("; opening 2 (line 5: f5f6e6f4)"). The run's directory holds
// openings.txt, a copy of the file made before run.json: -resume takes the
// openings from it, so that a file changed or removed since has no effect
// on a resumed run. cmd/arena/testdata/openings has an example file for
// each game.
//
// # Is B stronger than A? (-sprt)
//
// "arena match othello B A -sprt elo0=0,elo1=5,alpha=0.05,beta=0.05" plays
// game pairs, each the same start (seed, deal) twice with the seats
// swapped, until a sequential probability ratio test decides between H0,
// B is elo0 Elo stronger than A, and H1, B is elo1 Elo stronger, with at
// most a fraction alpha of false positives and beta of false negatives
// (alpha and beta default to 0.05; KEY=VALUE parts may be separated by
// commas or spaces, as cutechess-cli writes them). It is the test fishtest
// runs on Stockfish (package sprt): pairs are counted by the points the
// first player took from them, 0 to 2 ("Ptnml(0-2)"), and the generalized
// log-likelihood ratio of the pentanomial model decides. After each pair
// whose two games both finished, a line gives the LLR and its bounds:
//
//	SPRT: llr 1.23 (-2.94, 2.94) [elo0 0, elo1 5] pairs 37
//
// A pair with an unfinished game is not counted (a line says so). Once the
// LLR reaches a bound no new pair starts; the games under way (with -j)
// finish, a pair begun is completed (at most one more game per game under
// way), and they count, but the verdict stays the one reached first. At the
// end: "H1 accepted" (B is stronger, by about elo1 or more), "H0 accepted"
// (it is not stronger by elo1; about elo0 or less) or "no verdict" at the
// cap, with the pentanomial and the Elo difference from the pairs on both
// scales.
//
// Elo0 and elo1 are normalized Elo, fishtest's default (model=logistic for
// classic Elo): the score's distance from ½ in standard deviations of a
// game's score, times 800/ln 10. A test's length then depends on
// elo1-elo0 and not on how drawish the game is, so the same bounds are as
// demanding in each of the four games. A pair can only tell so much: even
// if B wins every pair, [0, 5] needs 147 pairs and [0, 50] 17 to accept H1;
// against a B about elo1 stronger, [0, 5] takes tens of thousands of games.
//
// With -sprt, -games is the cap on games, an even number, 100000 (50000
// pairs) when not given: a [0, 5] test runs about 42000 games on average
// when the truth lies midway between the hypotheses, its slowest case
// (there the cap ends about one in fifteen), and about 26000 at elo0 or
// elo1. The schedule of the cap's games is made up front (some
// 80 MB for 100000). -resume goes on with an SPRT match, the LLR recomputed
// from results.tsv. -swap=false cannot go with -sprt; tournaments have no
// -sprt.
//
// # Tournaments
//
// "arena tournament <game> p1 p2 p3 ..." plays a round robin: every pair of
// players meets in -games games, -j games at a time, with a progress line
// on standard error and a table at the end (games, wins, draws, losses,
// points, score, Elo against the field). The games are played round by
// round: game pair k (games 2k and 2k+1 of a pairing, the seats swapped) of
// every pairing before pair k+1 of any, and numbered in that order, so that
// a tournament cut short has played every pairing about as often. A game's
// seed depends on its pairing and its index in it, not on its number. The
// progress line says the games done, the time spent, an ETA (the mean wall
// time of the games this run has played, times the games left, over -j;
// "ETA ?" until one has ended; games a resumed run restored do not count),
// the leader and the last game's result.
//
// # Shards: one tournament on many machines
//
// "arena tournament ... -seed S -shard I/N" plays shard I of N: the I-th of
// N disjoint slices of the games that the same tournament without -shard
// would play, with the same game numbers, seeds and directory names, so the
// shards' directories hold the records one run would have written. I is
// counted from 0, as Kubernetes counts JOB_COMPLETION_INDEX: the shards of
// -shard I/4 are 0/4, 1/4, 2/4 and 3/4 (with a Slurm array, --array=0-3 and
// SLURM_ARRAY_TASK_ID). -shard needs -seed (every shard must play the same
// tournament) and gives each shard its own default -out. The slices are
// cut at game pairs, so the two games of a pair (which share a dark chess
// deal) are played by one shard; the pairs are dealt to the shards in turn
// in the order of the schedule, moving on by one shard every lcm(N, P)
// pairs for P pairings, so that the shards' numbers of games differ by one
// pair at most and, with N rounds or more, every shard plays every
// pairing. A shard prints the table of its own games; run.json records
// -shard, and -resume DIR goes on with a shard as with any run.
//
// "arena merge [-out DIR] SHARD_DIR..." joins the directories of the N
// shards of one tournament, given in any order: it prints the table one
// run of the whole tournament would have printed and, with -out DIR (a new
// or empty directory), writes what that run with -out DIR would have
// written there: run.json (without -shard), results.tsv (a line per game,
// in the order of the game numbers), results.txt (byte for byte the one
// run's, when its games are played the same, but for the names of
// Othello's transcripts, which the TUS server names after the time) and a
// copy of every game's directory, whose result.txt, game.json and whose
// record paths in the results name the copy (sockets and pipes a program
// left are not copied). The merged directory is a finished run: -resume
// of it prints the table, "arena view" replays it. Without -out, merge
// only prints, and the records stay in the shards' directories. It refuses,
// naming what is wrong: shards of different tournaments (another game,
// seed, player or flag that shapes the games: -games, -time, -rules, ...),
// shards cut into different numbers N, a shard missing or given twice, a
// shard with unfinished games (it names them: go on with -resume SHARD_DIR
// first), a results.tsv holding another shard's game, and, as -resume
// does, a line its game's game.json contradicts, a game directory missing
// or a run.json changed since its games (with or without -out). With
// -out it copies no symbolic link: a link in a game's directory (one a
// program left, pointing anywhere) is refused, naming it. Every shard is
// checked whole before anything is written, and -out is built in a new
// directory beside it, renamed into place at the end: a refusal or a
// failure leaves no -out, nothing half written. deploy/README.md
// shows a shell loop, a Kubernetes Indexed Job and a Slurm array that run
// the shards and merge them.
//
// # Servers
//
// "arena serve othello" is a TUS OthelloServer (port 25033, -timeout,
// -pairing, -trans, -debug, -monitor, -score, -maxconns) and "arena serve
// geister" the Java geister server (ports 10000 and 10001, --budget,
// --timeout, --no_ng_terminate, --wait, --max-turn, the WebSocket viewer on
// 8080), usable unchanged by their clients; both record every game and take
// -web. Dark chess and PDD platforms run the programs themselves, so they
// have no server: use match or tournament.
//
// # The web viewer
//
// -web :8080 on match, tournament and serve, or "arena view", serves pages
// with the games being played (the board as each game's platform draws it,
// both clocks, the move list, and for Geister each player's view once the
// game is over: until then the colours on the board are hidden, unless
// geister -reveal or serve geister --ws-reveal), and a replay page for any
// record file the index lists or that is uploaded, stepped with the arrow
// keys, Home, End, PageUp and PageDown. The index lists only the files a
// game replays. A replay page holds the moves, and fetches the picture of
// each ply as it is shown, so that it stays small however long the record.
// Its "Save position" link saves the ply shown as a start file in the
// platform's format, from which "arena match -start FILE" plays on (a
// program debugged from there), and beside the moves it shows what the
// programs printed, read from the game's directory: a PDD turn's logs/, or
// the end of each program's output for the other games. The viewer reads or draws at most a few replays at once (others wait a
// moment, then get 503) and keeps the latest uploads within a bound. The
// pages are package viewer's http.Handler and the pictures package
// boardsvg's: a program that embeds a referee serves the same viewer.
//
// A Geister person (player human) plays under the same ntpu.Host as a
// program, as a player in arena's process that the host talks to in STDIO
// mode: the seat page shows the person's own colours, never the
// opponent's; the setup swaps two ghosts' colours per pair of clicks, then
// Set Finish; a move is a click on the ghost and one on where it goes (an
// escape: beyond the exit corner). Resigning is recorded in board.txt as
// Resign. Two persons may agree on a draw, which board.txt cannot say: its
// record ends without a result line, and the match counts a draw (agreed
// draw). Against a program a person may take back their last move and the
// program's answer (no Geister preset forbids it): the game is played on
// from two plies back, the program started again, the clocks as they were
// (the time used stays used), and board.txt holds the game as finally
// played.
//
// Unlike the Java server's, the WebSocket viewer of "arena serve geister"
// sends the ghosts on the board without their colours until the game ends
// (--ws-reveal sends them, for an operator), and accepts the pages of its
// own host only, and a page opened from a file (the Java viewer.html)
// unless --ws-reveal; --ws-origin names others.
//
// # Built-in bots as programs
//
// "arena bot <game> <name>" runs a built-in bot as a program speaking the
// game's interface: "arena bot othello alphabeta HOST PORT" plays on a TUS
// server, "arena bot geister greedy" speaks STDIO (with HOST PORT, a Java
// server), "arena bot darkchess greedy" is an MGTP engine, and "arena bot
// pdd greedy W Y chess.txt bridge.txt stepLog.txt" a PDD strategy. Referees
// that run only programs run the built-ins this way. -time C tells a bot
// the control it plans its moves for (none by default; PDD's 5s/move for
// pdd), and geister's -plies N the ply limit; arena passes both to the
// built-ins it runs.
package main
