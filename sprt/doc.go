// Package sprt decides whether one game-playing program is stronger than
// another from as few games as the evidence allows: the sequential
// probability ratio test (SPRT) that fishtest and cutechess-cli run to
// test chess engines, with the Elo estimates that go with it. It imports
// nothing of botarena's and works for any two-player game.
//
// # Pairs
//
// The games are played in pairs: the same start (opening, deal, seed)
// twice, each player taking each seat once. A pair is worth 0, ½, 1, 1½ or
// 2 points to the player under test; a [Pentanomial] counts the pairs by
// that score. Counting pairs rather than games takes out what the start
// gives one seat, which makes the test both sound (the two games of a pair
// are not independent; the pairs are) and shorter. Games that cannot be
// paired go into a [Trinomial] (losses, draws, wins).
//
// # The test
//
// A [Test] weighs H0, Elo = Elo0, against H1, Elo = Elo1, stopping as soon
// as the generalized log-likelihood ratio ([Test.LLR]) leaves the interval
// [Test.Bounds], ln(β/(1-α)) to ln((1-β)/α): above, H1 is accepted (the
// player is at least about Elo1 stronger; wrongly so at most a fraction α
// of the times H0 holds), below, H0 is (wrongly at most a fraction β of the
// times H1 holds). [Parse] reads a test the way cutechess-cli's -sprt
// option writes it: "elo0=0,elo1=5,alpha=0.05,beta=0.05".
//
// The LLR is fishtest's (server/fishtest/stats/LLRcalc.py): for each
// hypothesis the most likely pentanomial distribution satisfying it, found
// with a Lagrange multiplier, and the log of the ratio of the data's
// likelihoods under the two; an outcome never seen is counted as 0.001
// pairs so that the distributions can give it weight.
//
// # Elo
//
// Elo0 and Elo1 are normalized Elo unless the test says model=logistic.
// Normalized Elo, fishtest's default, measures the score's distance from
// ½ in standard deviations of a game's score, times 800/ln 10: for small
// differences it is the logistic Elo over twice that standard deviation,
// so close to logistic Elo in a game without draws (whose standard
// deviation is about ½) and larger the more draws there are. A test's expected
// length in games then depends on Elo1-Elo0 alone, not on the game's draw
// rate or the balance of its openings: the same bounds are as demanding for
// Othello, which has few draws, as for a game that has many. The cost is
// that a normalized Elo is not the familiar rating difference; an
// [Estimate] gives both scales.
//
// On the normalized scale a pair can only tell so much: even if every pair
// is won, the LLR grows by about √2·(Elo1-Elo0)/(800/ln 10) a pair, so a
// test [0, 5] at α = β = 0.05 needs at least 147 pairs (294 games) to
// accept H1, however strong the player, and [0, 50] at least 17. A player
// about Elo1 stronger takes much longer: a [0, 5] test typically runs to
// tens of thousands of games, as on fishtest.
package sprt
