// botarena viewer: the live page. The first "state" event of /events/<id>
// brings the whole game; later ones the latest frame and the new moves.
"use strict";
(function () {
  const first = JSON.parse(document.getElementById("data").textContent);
  const id = first.info.id;
  const board = new Board();
  const moves = document.getElementById("moves");
  const conn = document.getElementById("conn");
  const result = document.getElementById("result");
  let count = 0;

  function apply(st) {
    count = addMoves(moves, st, count);
    const last = moves.lastElementChild;
    moves.querySelectorAll(".current").forEach(e => e.classList.remove("current"));
    if (last) last.classList.add("current");
    board.show(st.frame);
    if (st.finished) {
      showResult(result, st);
      conn.textContent = "game over";
    }
    // Last, once the panel has its final layout: show the latest move.
    if (last) moves.scrollTop = moves.scrollHeight;
  }

  board.show(first.frame);
  const es = new EventSource("/events/" + encodeURIComponent(id));
  es.addEventListener("state", ev => {
    const st = JSON.parse(ev.data);
    conn.textContent = "live";
    apply(st);
    if (st.finished) es.close();
  });
  es.onerror = () => {
    if (es.readyState !== EventSource.CLOSED) conn.textContent = "reconnecting…";
  };
})();
