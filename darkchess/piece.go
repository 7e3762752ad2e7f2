package darkchess

// Kind is what a piece is, whatever its colour. Its value is its rank in the
// capture table, 1 (the king, highest) to 7 (the pawn, lowest). The zero value
// is [NoKind].
type Kind uint8

// The seven kinds, highest rank first.
const (
	NoKind   Kind = iota
	King          // 帥/將, K: one per side
	Guard         // 仕/士 (advisor), G: two per side
	Minister      // 相/象 (elephant), M: two per side
	Rook          // 俥/車 (chariot), R: two per side
	Knight        // 傌/馬 (horse), N: two per side
	Cannon        // 炮/包, C: two per side
	Pawn          // 兵/卒 (soldier), P: five per side
)

// String returns the kind's English name in lower case ("king"), or
// "no kind" / "invalid kind".
func (k Kind) String() string {
	if k == NoKind {
		return "no kind"
	}
	if !k.Valid() {
		return "invalid kind"
	}
	return [...]string{"king", "guard", "minister", "rook", "knight", "cannon", "pawn"}[k-1]
}

// Valid reports whether k is one of the seven kinds.
func (k Kind) Valid() bool { return k >= King && k <= Pawn }

// InitialCount returns how many pieces of kind k each side starts with: 1 king,
// 5 pawns and 2 of every other kind; 0 for a value that is not a kind.
func (k Kind) InitialCount() int {
	switch {
	case k == King:
		return 1
	case k == Pawn:
		return 5
	case k.Valid():
		return 2
	}
	return 0
}

// Takes reports whether a piece of kind k may capture a piece of kind victim
// by a step: a higher or equal rank takes a lower or equal one,
// except that the king may not take a pawn, a pawn takes only a pawn or the
// king, and a cannon never captures by stepping (it captures by jumping, see
// the package documentation).
func (k Kind) Takes(victim Kind) bool {
	if !k.Valid() || !victim.Valid() {
		return false
	}
	switch k {
	case King:
		return victim != Pawn
	case Cannon:
		return false
	case Pawn:
		return victim == Pawn || victim == King
	}
	return victim >= k
}

// Piece is what a square can hold: one of the 14 pieces, [Hidden] (a
// face-down piece seen from outside) or [NoPiece] (an empty square). The
// values are the legacy socket protocol's codes: 0 empty, 1..7 red K G M R N C
// P, 8 face-down, 9..15 black k g m r n c p. So a piece is 8*colour + kind.
type Piece uint8

// The pieces. Red letters are upper case, black ones lower case.
const (
	NoPiece       Piece = 0  // an empty square; "-"
	RedKing       Piece = 1  // K
	RedGuard      Piece = 2  // G
	RedMinister   Piece = 3  // M
	RedRook       Piece = 4  // R
	RedKnight     Piece = 5  // N
	RedCannon     Piece = 6  // C
	RedPawn       Piece = 7  // P
	Hidden        Piece = 8  // a face-down piece, identity unknown; "X"
	BlackKing     Piece = 9  // k
	BlackGuard    Piece = 10 // g
	BlackMinister Piece = 11 // m
	BlackRook     Piece = 12 // r
	BlackKnight   Piece = 13 // n
	BlackCannon   Piece = 14 // c
	BlackPawn     Piece = 15 // p
)

// pieceLetters is the letter of each piece code: '-' empty, 'X' face-down.
const pieceLetters = "-KGMRNCPXkgmrncp"

// MakePiece returns the piece of colour c and kind k, or [NoPiece] if either is
// not valid.
func MakePiece(c Color, k Kind) Piece {
	if !c.Valid() || !k.Valid() {
		return NoPiece
	}
	return Piece(c)<<3 | Piece(k)
}

// Valid reports whether p is one of the 14 pieces (not [NoPiece], not
// [Hidden]).
func (p Piece) Valid() bool { return p < 16 && p&7 != 0 }

// Color returns the piece's colour, or [NoColor] for [NoPiece], [Hidden] and
// invalid values.
func (p Piece) Color() Color {
	if !p.Valid() {
		return NoColor
	}
	return Color(p >> 3)
}

// Kind returns the piece's kind, or [NoKind] for [NoPiece], [Hidden] and
// invalid values.
func (p Piece) Kind() Kind {
	if !p.Valid() {
		return NoKind
	}
	return Kind(p & 7)
}

// String returns the piece's letter: "KGMRNCP" red, "kgmrncp" black, "X"
// for [Hidden], "-" for [NoPiece], or "?" for a value that is none of these.
func (p Piece) String() string {
	if p >= 16 {
		return "?"
	}
	return pieceLetters[p : p+1]
}

// ParsePiece reads a piece letter as [Piece.String] writes it: one of
// "KGMRNCPkgmrncp", "X" for [Hidden] or "-" for [NoPiece].
func ParsePiece(text string) (Piece, error) {
	if len(text) == 1 {
		for i := range len(pieceLetters) {
			if pieceLetters[i] == text[0] {
				return Piece(i), nil
			}
		}
	}
	return NoPiece, &SyntaxError{Input: text, Offset: 0, Msg: "a piece is one of KGMRNCPkgmrncp, X or -"}
}
