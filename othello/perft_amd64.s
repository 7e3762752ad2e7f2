//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 perft kernels work on eight moves at once, one in each 64-bit
// lane. Every direction is a shift-and-mask fill (Kogge-Stone with a
// doubling step), as in moveGen, but for +1, done by the carry of an add as
// in eastMoves.
//
// Registers of leavesAVX512, set once per call:
//   Z31 P, Z30 O, Z29 O&inner, Z28 inner, Z27 area, Z18 all ones, Z17 the
//   per-lane leaf counts; Z25 the O&inner pairs for -1, Z24/Z23 the O
//   pairs for +8/-8, Z22/Z21 +7/-7, Z20/Z19 +9/-9 (see upMoves).
// Per batch: Z1 the move bits (lane i the i-th lowest move still to do),
// Z2 and Z10 the flips (then Z2 the child's opponent), Z5 the child's
// mover, Z7 its opponent&inner, Z8 its moves, Z0 Z3 Z4 Z6 Z9 Z11 scratch;
// K7 the lanes that hold a move.

// FLIPUP ors into ACC, in the lanes where the run ends on a P disc, the run
// of M discs that starts next to each move bit of Z1 in the +s direction.
// PRE is M&(M<<s); s2 is 2*s.
#define FLIPUP(s, s2, M, PRE, ACC) \
	VPSLLQ s, Z1, Z4; VPANDQ M, Z4, Z3; \
	VPSLLQ s, Z3, Z4; VPTERNLOGQ $0xF8, M, Z4, Z3; \
	VPSLLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSLLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSLLQ s, Z3, Z4; VPTESTMQ Z31, Z4, K1; VPORQ Z3, ACC, K1, ACC

// FLIPEAST is FLIPUP for +1 (M is O&inner) by eastMoves' carry: adding
// the run's first disc to M carries through the run and lands on the square
// after it, so M^(M+first) is the run and that square. No shift.
#define FLIPEAST(M, ACC) \
	VPADDQ Z1, Z1, Z4; VPANDQ M, Z4, Z4; VPADDQ M, Z4, Z4; VPXORQ M, Z4, Z4; \
	VPTESTMQ Z31, Z4, K1; VPTERNLOGQ $0xF8, M, Z4, K1, ACC

// FLIPDN is FLIPUP in the -s direction; PRE is M&(M>>s).
#define FLIPDN(s, s2, M, PRE, ACC) \
	VPSRLQ s, Z1, Z4; VPANDQ M, Z4, Z3; \
	VPSRLQ s, Z3, Z4; VPTERNLOGQ $0xF8, M, Z4, Z3; \
	VPSRLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSRLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSRLQ s, Z3, Z4; VPTESTMQ Z31, Z4, K1; VPORQ Z3, ACC, K1, ACC

// MOBUP ors into MOB the squares past a run of M discs that starts next to
// a disc of CP in the +s direction (upMoves); PRE is M&(M<<s).
#define MOBUP(s, s2, CP, M, PRE, MOB) \
	VPSLLQ s, CP, Z4; VPANDQ M, Z4, Z3; \
	VPSLLQ s, Z3, Z4; VPTERNLOGQ $0xF8, M, Z4, Z3; \
	VPSLLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSLLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSLLQ s, Z3, Z4; VPORQ Z4, MOB, MOB

// MOBDN is MOBUP in the -s direction (downMoves); PRE is M&(M>>s).
#define MOBDN(s, s2, CP, M, PRE, MOB) \
	VPSRLQ s, CP, Z4; VPANDQ M, Z4, Z3; \
	VPSRLQ s, Z3, Z4; VPTERNLOGQ $0xF8, M, Z4, Z3; \
	VPSRLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSRLQ s2, Z3, Z4; VPTERNLOGQ $0xF8, PRE, Z4, Z3; \
	VPSRLQ s, Z3, Z4; VPORQ Z4, MOB, MOB

// MOBILITY sets MOB to the moves of CP against CO (MO is CO&inner), not yet
// masked with the empty squares. East (+1) is eastMoves' carry trick. The
// downward directions gather in Z6, for a shorter chain of ORs. It uses Z3
// Z4 Z6 Z9.
#define MOBILITY(CP, CO, MO, MOB) \
	VPSLLQ $1, CP, Z4; VPANDQ MO, Z4, Z4; VPADDQ MO, Z4, MOB; \
	VPSRLQ $1, MO, Z9; VPANDQ MO, Z9, Z9; \
	VPSRLQ $1, CP, Z4; VPANDQ MO, Z4, Z3; \
	VPSRLQ $1, Z3, Z4; VPTERNLOGQ $0xF8, MO, Z4, Z3; \
	VPSRLQ $2, Z3, Z4; VPTERNLOGQ $0xF8, Z9, Z4, Z3; \
	VPSRLQ $2, Z3, Z4; VPTERNLOGQ $0xF8, Z9, Z4, Z3; \
	VPSRLQ $1, Z3, Z6; \
	VPSLLQ $8, CO, Z9; VPANDQ CO, Z9, Z9; \
	MOBUP($8, $16, CP, CO, Z9, MOB); \
	VPSRLQ $8, Z9, Z9; \
	MOBDN($8, $16, CP, CO, Z9, Z6); \
	VPSLLQ $7, MO, Z9; VPANDQ MO, Z9, Z9; \
	MOBUP($7, $14, CP, MO, Z9, MOB); \
	VPSRLQ $7, Z9, Z9; \
	MOBDN($7, $14, CP, MO, Z9, Z6); \
	VPSLLQ $9, MO, Z9; VPANDQ MO, Z9, Z9; \
	MOBUP($9, $18, CP, MO, Z9, MOB); \
	VPSRLQ $9, Z9, Z9; \
	MOBDN($9, $18, CP, MO, Z9, Z6); \
	VPORQ Z6, MOB, MOB

// squareIndex holds the bytes 0, 1, ..., 63.
DATA squareIndex<>+0(SB)/8, $0x0706050403020100
DATA squareIndex<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA squareIndex<>+16(SB)/8, $0x1716151413121110
DATA squareIndex<>+24(SB)/8, $0x1f1e1d1c1b1a1918
DATA squareIndex<>+32(SB)/8, $0x2726252423222120
DATA squareIndex<>+40(SB)/8, $0x2f2e2d2c2b2a2928
DATA squareIndex<>+48(SB)/8, $0x3736353433323130
DATA squareIndex<>+56(SB)/8, $0x3f3e3d3c3b3a3938
GLOBL squareIndex<>(SB), RODATA|NOPTR, $64

// PRE sets the pair masks Z25..Z19 of M (Z29, the opponent & inner) and
// O (Z30), as leavesAVX512's header describes.
#define PRE \
	VPSRLQ $1, Z29, Z25; VPANDQ Z29, Z25, Z25; \
	VPSLLQ $8, Z30, Z24; VPANDQ Z30, Z24, Z24; VPSRLQ $8, Z24, Z23; \
	VPSLLQ $7, Z29, Z22; VPANDQ Z29, Z22, Z22; VPSRLQ $7, Z22, Z21; \
	VPSLLQ $9, Z29, Z20; VPANDQ Z29, Z20, Z20; VPSRLQ $9, Z20, Z19

// FLIPS sets Z2 | Z10 to the flips of the moves Z1 of (Z31, Z30): the
// upward directions in Z2, the downward in Z10, two shorter chains of ORs.
#define FLIPS \
	VPXORQ Z2, Z2, Z2; \
	VPXORQ Z10, Z10, Z10; \
	FLIPEAST(Z29, Z2); \
	FLIPDN($1, $2, Z29, Z25, Z10); \
	FLIPUP($8, $16, Z30, Z24, Z2); \
	FLIPDN($8, $16, Z30, Z23, Z10); \
	FLIPUP($7, $14, Z29, Z22, Z2); \
	FLIPDN($7, $14, Z29, Z21, Z10); \
	FLIPUP($9, $18, Z29, Z20, Z2); \
	FLIPDN($9, $18, Z29, Z19, Z10)

// CHILD sets Z5 to the children's movers, O^flips, Z2 to their other
// sides, P|flips|move, and Z7 to Z2&inner.
#define CHILD \
	VPORQ Z31, Z1, Z11; \
	VMOVDQA64 Z30, Z5; \
	VPTERNLOGQ $0x1E, Z10, Z2, Z5; \
	VPTERNLOGQ $0xFE, Z10, Z11, Z2; \
	VPANDQ Z28, Z2, Z7

// CHILDREN sets Z5 and Z2 to the children (mover, other side) of the moves
// Z1 of (Z31, Z30), and Z8 to the children's moves on the area Z27.
#define CHILDREN \
	FLIPS; \
	CHILD; \
	MOBILITY(Z5, Z2, Z7, Z8); \
	VPTERNLOGQ $0x10, Z2, Z5, Z8; \
	VPANDQ Z27, Z8, Z8

// EXTRACT sets DST lane i to the i-th lowest bit of REG (0 past its last):
// VPCOMPRESSB packs the indices of REG's bits into the low bytes of Z0,
// over bytes of 64 (a shift by 64 gives 0), and each lane shifts a 1 by
// its index. It uses Z0, Z4, K1 and R13.
#define EXTRACT(REG, DST) \
	KMOVQ REG, K1; \
	MOVL $64, R13; \
	VPBROADCASTB R13, Z0; \
	VMOVDQU64 squareIndex<>(SB), Z4; \
	VPCOMPRESSB Z4, K1, Z0; \
	VPMOVZXBQ X0, Z0; \
	VPSRLQ $63, Z18, Z4; \
	VPSLLVQ Z0, Z4, DST

// func leavesAVX512(P, O, moves, area uint64, bik bool) uint64
TEXT ·leavesAVX512(SB), NOSPLIT, $0-48
	MOVQ P+0(FP), AX
	MOVQ O+8(FP), BX
	MOVQ moves+16(FP), SI
	MOVQ area+24(FP), R8
	MOVQ $0x7E7E7E7E7E7E7E7E, CX
	MOVQ BX, DX
	ANDQ CX, DX
	VPBROADCASTQ AX, Z31
	VPBROADCASTQ BX, Z30
	VPBROADCASTQ DX, Z29
	VPBROADCASTQ CX, Z28
	VPBROADCASTQ R8, Z27
	VPSRLQ $1, Z29, Z25
	VPANDQ Z29, Z25, Z25
	VPSLLQ $8, Z30, Z24
	VPANDQ Z30, Z24, Z24
	VPSRLQ $8, Z24, Z23
	VPSLLQ $7, Z29, Z22
	VPANDQ Z29, Z22, Z22
	VPSRLQ $7, Z22, Z21
	VPSLLQ $9, Z29, Z20
	VPANDQ Z29, Z20, Z20
	VPSRLQ $9, Z20, Z19
	VPTERNLOGQ $0xFF, Z18, Z18, Z18
	VPXORQ Z17, Z17, Z17
	XORQ DI, DI
	TESTQ SI, SI
	JZ done

loop:
	// Z1 lane i = the i-th lowest bit of SI.
	EXTRACT(SI, Z1)
	VPTESTMQ Z1, Z1, K7
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI

	FLIPS

	// The child: Z5 to move (O^flips), Z2 the other side (P|flips|move).
	CHILD
	MOBILITY(Z5, Z2, Z7, Z8)
	VPTERNLOGQ $0x10, Z2, Z5, Z8 // Z8 &^= Z5|Z2
	VPANDQ Z27, Z8, Z8
	VPOPCNTQ Z8, Z9
	VPADDQ Z9, Z17, K7, Z17
	VPTESTNMQ Z8, Z8, K7, K2
	KTESTB K2, K2
	JNZ pass

next:
	TESTQ SI, SI
	JNZ loop

done:
	VEXTRACTI64X4 $1, Z17, Y0
	VPADDQ Y0, Y17, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	ADDQ DI, AX
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET

pass:
	// The children of K2 have no move: each counts 1 if bik, else only
	// if the other side has a move (a pass, not the game's end).
	CMPB bik+32(FP), $0
	JNE passbik
	VPANDQ Z28, Z5, Z10
	MOBILITY(Z2, Z5, Z10, Z11)
	VPTERNLOGQ $0x10, Z2, Z5, Z11
	VPTESTMQ Z27, Z11, K2, K2

passbik:
	KMOVB K2, R9
	POPCNTL R9, R9
	ADDQ R9, DI
	JMP next

// func perft3AVX512(P, O, moves, area uint64, bik bool) uint64
//
// The root's children go eight at a time through the frame: at 0 their
// movers, at 64 their other sides, at 128 their moves. Their moves queue in
// Z12 (the parents' movers), Z13 (their other sides) and Z14 (the move
// bits), and when eight are there, a batch counts the leaves below them.
// Registers: SI the root's moves still to do, DI and Z17 the count, R12 the
// queue's length, R9 the child in hand, Z15 Z16 its two sides, R10 its
// moves still to queue, Z6 the next eight of them, R15 where a batch
// returns to, K6 the lanes a batch counts.
TEXT ·perft3AVX512(SB), NOSPLIT, $192-48
	MOVQ moves+16(FP), SI
	XORQ DI, DI
	XORQ R12, R12
	VPXORQ Z17, Z17, Z17
	MOVQ $0x7E7E7E7E7E7E7E7E, CX
	VPBROADCASTQ CX, Z28
	MOVQ area+24(FP), R8
	VPBROADCASTQ R8, Z27
	VPTERNLOGQ $0xFF, Z18, Z18, Z18
	TESTQ SI, SI
	JZ p3done

p3outer:
	// The root's children, eight at a time (a batch clobbers the root's
	// registers, so they are set anew each time).
	MOVQ P+0(FP), AX
	MOVQ O+8(FP), BX
	MOVQ BX, DX
	ANDQ CX, DX
	VPBROADCASTQ AX, Z31
	VPBROADCASTQ BX, Z30
	VPBROADCASTQ DX, Z29
	PRE
	EXTRACT(SI, Z1)
	VPTESTMQ Z1, Z1, K7
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	BLSRQ SI, SI
	CHILDREN
	VMOVDQA64.Z Z8, K7, Z8
	VPTESTNMQ Z8, Z8, K7, K2
	KTESTB K2, K2
	JNZ p3outerpass

p3queue:
	VMOVDQU64 Z5, 0(SP)
	VMOVDQU64 Z2, 64(SP)
	VMOVDQU64 Z8, 128(SP)
	XORQ R9, R9

p3child:
	MOVQ 128(SP)(R9*8), R10
	TESTQ R10, R10
	JZ p3nextchild
	VPBROADCASTQ 0(SP)(R9*8), Z15
	VPBROADCASTQ 64(SP)(R9*8), Z16

p3fill:
	// Queue up to eight moves of the child in the lanes from R12 on.
	EXTRACT(R10, Z6)
	POPCNTQ R10, R11
	MOVQ $8, R13
	CMPQ R11, R13
	CMOVQGT R13, R11
	BLSRQ R10, R10
	BLSRQ R10, R10
	BLSRQ R10, R10
	BLSRQ R10, R10
	BLSRQ R10, R10
	BLSRQ R10, R10
	BLSRQ R10, R10
	BLSRQ R10, R10
	MOVL $0xFF, R13
	SHLXQ R12, R13, R14
	KMOVB R14, K5
	VPEXPANDQ Z6, K5, Z14
	VMOVDQA64 Z15, K5, Z12
	VMOVDQA64 Z16, K5, Z13
	MOVQ $8, AX
	SUBQ R12, AX
	SHLXQ AX, R13, AX
	ADDQ R11, R12
	CMPQ R12, $8
	JLT p3notfull
	// Full: the batch takes the queue, which keeps the moves that did not
	// fit (Z6 from lane 8-R12 on).
	VMOVDQA64 Z12, Z31
	VMOVDQA64 Z13, Z30
	VMOVDQA64 Z14, Z1
	KMOVB AX, K4
	VPCOMPRESSQ.Z Z6, K4, Z14
	VMOVDQA64 Z15, Z12
	VMOVDQA64 Z16, Z13
	SUBQ $8, R12
	MOVL $0xFF, R13
	KMOVB R13, K6
	XORQ R15, R15
	JMP p3batch

p3notfull:
	TESTQ R10, R10
	JNZ p3fill

p3nextchild:
	INCQ R9
	CMPQ R9, $8
	JLT p3child
	TESTQ SI, SI
	JNZ p3outer
	TESTQ R12, R12
	JZ p3done
	MOVQ $1, R13
	SHLXQ R12, R13, R13
	DECQ R13
	KMOVB R13, K6
	VMOVDQA64 Z12, Z31
	VMOVDQA64 Z13, Z30
	VMOVDQA64 Z14, Z1
	MOVQ $1, R15
	JMP p3batch

p3done:
	VEXTRACTI64X4 $1, Z17, Y0
	VPADDQ Y0, Y17, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDQ X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDQ X1, X0, X0
	VMOVQ X0, AX
	ADDQ DI, AX
	MOVQ AX, ret+40(FP)
	VZEROUPPER
	RET

p3outerpass:
	// Children of K2 have no move: after a pass each counts the other
	// side's moves; at the game's end 1 if bik, else 0.
	VPANDQ Z28, Z5, Z10
	MOBILITY(Z2, Z5, Z10, Z11)
	VPTERNLOGQ $0x10, Z2, Z5, Z11
	VPANDQ Z27, Z11, Z11
	VPTESTMQ Z11, Z11, K2, K3
	VPOPCNTQ Z11, Z9
	VPADDQ Z9, Z17, K3, Z17
	CMPB bik+32(FP), $0
	JEQ p3queue
	KANDNB K2, K3, K4
	KMOVB K4, R14
	POPCNTL R14, R14
	ADDQ R14, DI
	JMP p3queue

p3batch:
	// Count the leaves below the lanes K6 of (Z31, Z30) by the moves Z1,
	// each lane its own parent.
	VPANDQ Z28, Z30, Z29
	PRE
	CHILDREN
	VPOPCNTQ Z8, Z9
	VPADDQ Z9, Z17, K6, Z17
	VPTESTNMQ Z8, Z8, K6, K2
	KTESTB K2, K2
	JNZ p3batchpass

p3batchdone:
	TESTQ R15, R15
	JZ p3notfull
	JMP p3done

p3batchpass:
	CMPB bik+32(FP), $0
	JNE p3batchbik
	VPANDQ Z28, Z5, Z10
	MOBILITY(Z2, Z5, Z10, Z11)
	VPTERNLOGQ $0x10, Z2, Z5, Z11
	VPTESTMQ Z27, Z11, K2, K2

p3batchbik:
	KMOVB K2, R14
	POPCNTL R14, R14
	ADDQ R14, DI
	JMP p3batchdone
