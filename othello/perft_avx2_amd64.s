//go:build amd64 && !purego

#include "textflag.h"

// perft3AVX2 is perft3AVX512 (see perft_amd64.s) in AVX2: four lanes, no
// mask registers, no ternary logic, and the counts by scalar POPCNT.
//
// Registers of a batch: Y15 the movers, Y14 their opponents, Y13 the
// opponents & inner, Y12 zero, Y11 the flips, Y10 the move bits, Y9 inner,
// Y8 the area; then Y7 the children's movers, Y6 their opponents, Y5 those
// & inner, Y4 the children's moves, Y2 the lanes without a move; Y0 Y1 Y3
// scratch.

// AFLIPUP ors into Y11 the flips of the moves Y10 in the +s direction: the
// run of M discs from the move, where it ends on a Y15 disc. PRE is
// M&(M<<s).
#define AFLIPUP(s, s2, M, PRE) \
	VPSLLQ s, Y10, Y0; VPAND M, Y0, Y1; \
	VPSLLQ s, Y1, Y0; VPAND M, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSLLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSLLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSLLQ s, Y1, Y0; VPAND Y15, Y0, Y0; VPCMPEQQ Y12, Y0, Y0; \
	VPANDN Y1, Y0, Y0; VPOR Y0, Y11, Y11

// AFLIPDN is AFLIPUP in the -s direction; PRE is M&(M>>s).
#define AFLIPDN(s, s2, M, PRE) \
	VPSRLQ s, Y10, Y0; VPAND M, Y0, Y1; \
	VPSRLQ s, Y1, Y0; VPAND M, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSRLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSRLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSRLQ s, Y1, Y0; VPAND Y15, Y0, Y0; VPCMPEQQ Y12, Y0, Y0; \
	VPANDN Y1, Y0, Y0; VPOR Y0, Y11, Y11

// AFLIPEAST is AFLIPUP for +1 (M is O&inner) by eastMoves' carry: adding
// the run's first disc to M carries through the run and lands on the square
// after it, so M^(M+first) is the run and that square.
#define AFLIPEAST(M) \
	VPADDQ Y10, Y10, Y0; VPAND M, Y0, Y0; VPADDQ M, Y0, Y0; VPXOR M, Y0, Y0; \
	VPAND Y15, Y0, Y1; VPCMPEQQ Y12, Y1, Y1; \
	VPAND M, Y0, Y0; VPANDN Y0, Y1, Y0; VPOR Y0, Y11, Y11

// AFLIPAXIS does both directions of an axis, with M's pairs in Y3.
#define AFLIPAXIS(s, s2, M) \
	VPSLLQ s, M, Y3; VPAND M, Y3, Y3; \
	AFLIPUP(s, s2, M, Y3); \
	VPSRLQ s, Y3, Y3; \
	AFLIPDN(s, s2, M, Y3)

// AMOBUP ors into MOB the squares past a run of M discs that starts next
// to a CP disc in the +s direction (upMoves); PRE is M&(M<<s).
#define AMOBUP(s, s2, CP, M, PRE, MOB) \
	VPSLLQ s, CP, Y0; VPAND M, Y0, Y1; \
	VPSLLQ s, Y1, Y0; VPAND M, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSLLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSLLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSLLQ s, Y1, Y0; VPOR Y0, MOB, MOB

// AMOBDN is AMOBUP in the -s direction (downMoves); PRE is M&(M>>s).
#define AMOBDN(s, s2, CP, M, PRE, MOB) \
	VPSRLQ s, CP, Y0; VPAND M, Y0, Y1; \
	VPSRLQ s, Y1, Y0; VPAND M, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSRLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSRLQ s2, Y1, Y0; VPAND PRE, Y0, Y0; VPOR Y0, Y1, Y1; \
	VPSRLQ s, Y1, Y0; VPOR Y0, MOB, MOB

// AMOBILITY sets MOB to the moves of CP against CO (MO is CO&inner), not
// yet masked with the empty squares; it uses Y0 Y1 Y3.
#define AMOBILITY(CP, CO, MO, MOB) \
	VPSLLQ $1, CP, Y0; VPAND MO, Y0, Y0; VPADDQ MO, Y0, MOB; \
	VPSRLQ $1, MO, Y3; VPAND MO, Y3, Y3; \
	AMOBDN($1, $2, CP, MO, Y3, MOB); \
	VPSLLQ $8, CO, Y3; VPAND CO, Y3, Y3; \
	AMOBUP($8, $16, CP, CO, Y3, MOB); \
	VPSRLQ $8, Y3, Y3; \
	AMOBDN($8, $16, CP, CO, Y3, MOB); \
	VPSLLQ $7, MO, Y3; VPAND MO, Y3, Y3; \
	AMOBUP($7, $14, CP, MO, Y3, MOB); \
	VPSRLQ $7, Y3, Y3; \
	AMOBDN($7, $14, CP, MO, Y3, MOB); \
	VPSLLQ $9, MO, Y3; VPAND MO, Y3, Y3; \
	AMOBUP($9, $18, CP, MO, Y3, MOB); \
	VPSRLQ $9, Y3, Y3; \
	AMOBDN($9, $18, CP, MO, Y3, MOB)

// ACHILDREN sets Y7, Y6 to the children (mover, other side) of the moves
// Y10 of (Y15, Y14), Y4 to the children's moves (0 in the lanes without a
// move), and Y2 to the lanes without a move (all ones there).
#define ACHILDREN \
	VPAND Y9, Y14, Y13; \
	VPXOR Y11, Y11, Y11; \
	AFLIPEAST(Y13); \
	VPSRLQ $1, Y13, Y3; VPAND Y13, Y3, Y3; \
	AFLIPDN($1, $2, Y13, Y3); \
	AFLIPAXIS($8, $16, Y14); \
	AFLIPAXIS($7, $14, Y13); \
	AFLIPAXIS($9, $18, Y13); \
	VPXOR Y14, Y11, Y7; \
	VPOR Y15, Y11, Y6; \
	VPOR Y10, Y6, Y6; \
	VPAND Y9, Y6, Y5; \
	AMOBILITY(Y7, Y6, Y5, Y4); \
	VPOR Y7, Y6, Y0; \
	VPANDN Y4, Y0, Y4; \
	VPAND Y8, Y4, Y4; \
	VPCMPEQQ Y12, Y10, Y2; \
	VPANDN Y4, Y2, Y4

// AOPPONENT sets Y4 to the moves, on the area, of the children's other
// side (Y6 against Y7); it uses Y5.
#define AOPPONENT \
	VPAND Y9, Y7, Y5; \
	AMOBILITY(Y6, Y7, Y5, Y4); \
	VPOR Y7, Y6, Y0; \
	VPANDN Y4, Y0, Y4; \
	VPAND Y8, Y4, Y4

// AEXTRACT4 puts the four lowest bits of REG (0 past its last) at OFF(SP)
// and clears them from REG; it uses AX BX DX R11.
#define AEXTRACT4(REG, OFF) \
	BLSIQ REG, AX; BLSRQ REG, REG; \
	BLSIQ REG, BX; BLSRQ REG, REG; \
	BLSIQ REG, DX; BLSRQ REG, REG; \
	BLSIQ REG, R11; BLSRQ REG, REG; \
	MOVQ AX, OFF+0(SP); MOVQ BX, OFF+8(SP); MOVQ DX, OFF+16(SP); MOVQ R11, OFF+24(SP)

// func perft3AVX2(P, O, moves, area uint64, bik bool) uint64
//
// The frame holds the queue (up to 8 leaves-to-be) at 0 (movers), 64
// (other sides) and 128 (moves); a batch of the root's four children at 192
// (movers), 224 (other sides) and 256 (their moves); 288 scratch for a
// batch's counts; 320 the root's moves of a batch. Registers: SI the root's
// moves still to do, DI the count, R12 the queue's length, R9 the child in
// hand, R10 its moves still to queue, R15 where a batch returns to.
TEXT ·perft3AVX2(SB), NOSPLIT, $352-48
	MOVQ moves+16(FP), SI
	XORQ DI, DI
	XORQ R12, R12
	VPXOR Y12, Y12, Y12
	MOVQ $0x7E7E7E7E7E7E7E7E, CX
	MOVQ CX, X9
	VPBROADCASTQ X9, Y9
	MOVQ area+24(FP), R8
	MOVQ R8, X8
	VPBROADCASTQ X8, Y8
	TESTQ SI, SI
	JZ a3done

a3outer:
	// The root's children, four at a time.
	VPBROADCASTQ P+0(FP), Y15
	VPBROADCASTQ O+8(FP), Y14
	AEXTRACT4(SI, 320)
	VMOVDQU 320(SP), Y10
	ACHILDREN
	VPCMPEQQ Y12, Y4, Y0
	VPANDN Y0, Y2, Y0
	VMOVMSKPD Y0, R14
	TESTL R14, R14
	JNZ a3outerpass

a3queue:
	VMOVDQU Y7, 192(SP)
	VMOVDQU Y6, 224(SP)
	VMOVDQU Y4, 256(SP)
	XORQ R9, R9

a3child:
	MOVQ 256(SP)(R9*8), R10
	TESTQ R10, R10
	JZ a3nextchild
	VPBROADCASTQ 192(SP)(R9*8), Y0
	VMOVDQU Y0, 0(SP)(R12*8)
	VPBROADCASTQ 224(SP)(R9*8), Y0
	VMOVDQU Y0, 64(SP)(R12*8)

a3fill:
	// Queue up to four moves of the child.
	POPCNTQ R10, R13
	MOVQ $4, R11
	CMPQ R13, R11
	CMOVQGT R11, R13
	LEAQ 128(SP)(R12*8), R14
	BLSIQ R10, AX
	BLSRQ R10, R10
	MOVQ AX, 0(R14)
	BLSIQ R10, AX
	BLSRQ R10, R10
	MOVQ AX, 8(R14)
	BLSIQ R10, AX
	BLSRQ R10, R10
	MOVQ AX, 16(R14)
	BLSIQ R10, AX
	BLSRQ R10, R10
	MOVQ AX, 24(R14)
	ADDQ R13, R12
	CMPQ R12, $4
	JLT a3notfull
	XORQ R15, R15
	JMP a3batch

a3full:
	// The batch counted lanes 0..3: move the rest down, with the child's
	// sides again in the lanes past them.
	VMOVDQU 32(SP), Y0
	VMOVDQU Y0, 0(SP)
	VMOVDQU 96(SP), Y0
	VMOVDQU Y0, 64(SP)
	VMOVDQU 160(SP), Y0
	VMOVDQU Y0, 128(SP)
	SUBQ $4, R12
	TESTQ R10, R10
	JZ a3nextchild
	VPBROADCASTQ 192(SP)(R9*8), Y0
	VMOVDQU Y0, 0(SP)(R12*8)
	VPBROADCASTQ 224(SP)(R9*8), Y0
	VMOVDQU Y0, 64(SP)(R12*8)
	JMP a3fill

a3notfull:
	TESTQ R10, R10
	JNZ a3fill

a3nextchild:
	INCQ R9
	CMPQ R9, $4
	JLT a3child
	TESTQ SI, SI
	JNZ a3outer
	TESTQ R12, R12
	JZ a3done
	VMOVDQU Y12, 128(SP)(R12*8)
	MOVQ $1, R15
	JMP a3batch

a3done:
	MOVQ DI, ret+40(FP)
	VZEROUPPER
	RET

a3outerpass:
	// Children of R14 have no move: after a pass each counts the other
	// side's moves; at the game's end 1 if bik, else 0. Their moves stay 0
	// in Y4, so they queue nothing.
	VMOVDQU Y4, 256(SP)
	AOPPONENT
	VMOVDQU Y4, 288(SP)
	VPCMPEQQ Y12, Y4, Y0
	VMOVMSKPD Y0, R13
	XORQ R11, R11

a3opp:
	BTL R11, R14
	JCC a3oppnext
	POPCNTQ 288(SP)(R11*8), AX
	ADDQ AX, DI
	BTL R11, R13
	JCC a3oppnext
	CMPB bik+32(FP), $0
	JEQ a3oppnext
	INCQ DI

a3oppnext:
	INCQ R11
	CMPQ R11, $4
	JLT a3opp
	VMOVDQU 256(SP), Y4
	JMP a3queue

a3batch:
	// Count the leaves below the queue's lanes, each its own parent.
	VMOVDQU 0(SP), Y15
	VMOVDQU 64(SP), Y14
	VMOVDQU 128(SP), Y10
	ACHILDREN
	VMOVDQU Y4, 288(SP)
	POPCNTQ 288(SP), AX
	ADDQ AX, DI
	POPCNTQ 296(SP), AX
	ADDQ AX, DI
	POPCNTQ 304(SP), AX
	ADDQ AX, DI
	POPCNTQ 312(SP), AX
	ADDQ AX, DI
	VPCMPEQQ Y12, Y4, Y0
	VPANDN Y0, Y2, Y0
	VMOVMSKPD Y0, R14
	TESTL R14, R14
	JNZ a3batchpass

a3batchdone:
	TESTQ R15, R15
	JZ a3full
	JMP a3done

a3batchpass:
	CMPB bik+32(FP), $0
	JNE a3batchbik
	AOPPONENT
	VPCMPEQQ Y12, Y4, Y0
	VMOVMSKPD Y0, R13
	ANDNL R14, R13, R14
a3batchbik:
	POPCNTL R14, R14
	ADDQ R14, DI
	JMP a3batchdone
