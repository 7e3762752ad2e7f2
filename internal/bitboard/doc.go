// Package bitboard holds the bit-set helpers the game packages share.
//
// A bitboard is an unsigned integer whose bit i stands for square i. Dark chess
// uses uint32 (its 4x8 board has 32 squares); Othello and Geister use uint64.
// Every helper is generic over [constraints.Unsigned] and compiles to the
// math/bits intrinsics, so the hot paths of the games can call them without cost.
//
// The package is internal: the game packages export their own named Bitboard
// types with methods built on these helpers.
package bitboard
