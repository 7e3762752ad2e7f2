// botarena viewer: the index follows /events, redrawing the tables of live
// and finished games as they change.
"use strict";
(function () {
  function cell(tr, text, href) {
    const td = document.createElement("td");
    if (href) {
      const a = document.createElement("a");
      a.href = href; a.textContent = text;
      td.appendChild(a);
    } else {
      td.textContent = text;
    }
    tr.appendChild(td);
    return td;
  }
  function fill(tbody, games, empty, row) {
    tbody.textContent = "";
    if (games.length === 0) {
      const tr = document.createElement("tr");
      tr.className = "none";
      cell(tr, empty).colSpan = 5;
      tbody.appendChild(tr);
      return;
    }
    for (const g of games) {
      const tr = document.createElement("tr");
      row(tr, g);
      tbody.appendChild(tr);
    }
  }
  const live = document.getElementById("live");
  const finished = document.getElementById("finished");
  const es = new EventSource("/events");
  es.addEventListener("index", ev => {
    const st = JSON.parse(ev.data);
    document.getElementById("live-count").textContent = st.live.length;
    document.getElementById("finished-count").textContent = st.nFinished;
    fill(live, st.live, "No game is being played.", (tr, g) => {
      cell(tr, g.title, "/live/" + encodeURIComponent(g.id));
      cell(tr, g.players[0] + " – " + g.players[1]);
      cell(tr, String(g.ply));
      cell(tr, (g.clocks[0] + " " + g.clocks[1]).trim()).className = "mono";
      cell(tr, g.status);
    });
    fill(finished, st.finished, "No game has finished yet.", (tr, g) => {
      cell(tr, g.title, "/live/" + encodeURIComponent(g.id));
      cell(tr, g.players[0] + " – " + g.players[1]);
      cell(tr, String(g.ply));
      cell(tr, g.result || "");
      if (g.replay) cell(tr, "replay", g.replay); else cell(tr, "");
    });
  });
})();
