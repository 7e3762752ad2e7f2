package search

import (
	"github.com/botarena/botarena/darkchess"
	"github.com/botarena/botarena/geister"
	"github.com/botarena/botarena/othello"
	"github.com/botarena/botarena/pdd"
)

// The adapters satisfy the interfaces.
var (
	_ Game[othello.Position, othello.Move]                       = Othello{}
	_ InfoSetGame[geister.View, geister.Position, geister.Move]  = Geister{}
	_ ChanceGame[DarkChessState, darkchess.Ply]                  = DarkChess{}
	_ InfoSetGame[darkchess.View, DarkChessState, darkchess.Ply] = DarkChess{}
	_ Game[pdd.Position, pdd.Move]                               = PDD{}
)
