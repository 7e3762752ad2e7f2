// Package ntuple is an n-tuple (pattern) network, the learned evaluation
// of board games such as Othello: a position is a board of cells, each in
// one of a few states; each tuple is a list of cells, looked up under each
// symmetry of the board, its states spelling an index into the tuple's
// table of weights; the value of the position is tanh of the sum of the
// weights read, in (-1, 1). A game may keep several weight sets (stages),
// choosing one for each position, for example by how far the game has
// come.
//
// Any game uses it by describing its board in a [Config] (the cells, the
// states, the tuples and the symmetries as permutations of the cells) and
// by writing each position's cells into a []uint8, from the side of the
// player to be valued:
//
//	n, err := ntuple.New(cfg)
//	v := n.Value(stage, cells) // allocates nothing
//
// The network learns by gradient steps toward a target ([Network.Fit]):
// by regression on scored positions, or by temporal-difference learning
// on the positions of a game ([Network.Learn], TD(λ)), as self-play
// trainers do, with a falling learning rate ([Schedule]).
//
// The weights file (written by [Network.WriteTo], read by [Read]) holds a
// magic header, a version, the shape and the float32 weights, with a
// CRC-32 at the end; the reader refuses shapes past [MaxWeights] before
// reading any weight, so that a file from anywhere cannot make it
// allocate much.
package ntuple
