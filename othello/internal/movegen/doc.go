// Package movegen holds the 8x8 Othello bitboard primitives that package
// othello's move generator and perft and the endgame solver share: bit
// x+8y stands for the square in column x and row y, P holds the discs of the
// side to move and O the opponent's.
//
// Package othello's tests check them against a naive reference on 20,000
// random boards; perft's tables check them as a whole.
package movegen
