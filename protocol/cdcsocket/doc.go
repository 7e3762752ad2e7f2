// Package cdcsocket speaks the legacy dark chess socket protocol of the
// 2013-2019 platforms: length-prefixed messages over
// TCP, each frame two length bytes and then the text.
//
// The codec is [ParseFrame]/[AppendFrame]/[ReadFrame] for the framing and
// [ParseMessage]/[AppendMessage] for the messages ([Message], [Init]).
// [Dial] connects a [darkchess.Player] to a host and plays one game, with
// the conveniences of the platform's C++ API ([DialArgs] takes the
// program's arguments; [Client] has the options; [Conn] is the bare
// connection). The host tells only our remaining time, so the
// [timer.Status] on the player's ctx carries it as our clock (the
// opponent's unknown) under the ICGA control of 900 s for the game, not
// told. [Engine] is the host side: it starts a `search 127.0.0.1
// <port>` program and is a protocol.DarkChessSeat, so a
// protocol.DarkChessReferee plays it against any other seat.
package cdcsocket
