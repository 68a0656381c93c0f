// What tests/e2e/test_one_screen.py measures on a table page (issue 42), through helpers/one_screen.py:
// an object of probes, each run by page.evaluate with its argument; each answers what is wrong, in words.
({
  // Shared: an element's name as a selector a person can find (tag#id.class[data-seat] "its words").
  name(e) {
    const words = e.textContent.trim().replace(/\s+/g, " ").slice(0, 30);
    return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
      + (e.classList.length ? "." + [...e.classList].join(".") : "")
      + (e.dataset && e.dataset.seat !== undefined ? `[data-seat=${e.dataset.seat}]` : "")
      + (["BUTTON", "SUMMARY", "A", "LABEL"].includes(e.tagName) && words ? ` "${words}"` : "");
  },
  at(r) {
    const px = v => Math.round(v * 10) / 10;
    return `(x ${px(r.x)}, y ${px(r.y)}, ${px(r.width)}x${px(r.height)})`;
  },
  // Drawn: not display:none, hidden, transparent, nor a pixel's speck (a visually hidden label).
  shown(e) {
    const r = e.getBoundingClientRect();
    return e.checkVisibility({opacityProperty: true, visibilityProperty: true}) && r.width > 1 && r.height > 1;
  },
  inside(r) {
    return r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  },
  // Whether a tap at (x, y) reaches e (or what is inside it: a button's ::after answers for it).
  hits(e, x, y) {
    const found = document.elementFromPoint(x, y);
    return !!found && e.contains(found);
  },
  what(x, y) {
    const found = document.elementFromPoint(x, y);
    return found ? this.name(found) : "nothing";
  },

  // The page as it is, at its viewport. {edge: px two boxes may share, slack: px the hand's tops may
  // differ by, reach: px from an open end's centre a tap still hits it, ends: check that (a tile that
  // fits both ends is picked), minTile: a line tile's least long side, or 0}.
  layout({edge, slack, reach, ends: tapEnds, minTile}) {
    document.getAnimations().forEach(a => a.finish());
    const all = sel => [...document.querySelectorAll(sel)], box = e => e.getBoundingClientRect();
    const px = v => Math.round(v * 10) / 10, wrong = [];
    const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > edge
      && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > edge;

    const page = document.scrollingElement;
    if (page.scrollHeight > innerHeight) {
      wrong.push(`the page scrolls: scrollHeight ${page.scrollHeight} > innerHeight ${innerHeight}`);
    }
    if (page.scrollWidth > innerWidth) {
      wrong.push(`the page scrolls sideways: scrollWidth ${page.scrollWidth} > innerWidth ${innerWidth}`);
    }

    // The seats, the line's tiles, its open ends while the round is played (from its first tile), and the
    // hand's tiles: each in the viewport, over none of the others nor under a control or a panel (what is
    // inside it aside).
    const playing = document.querySelector("#table[data-phase=playing] #line .domino") !== null;
    const ends = playing ? ["end-left", "end-right"].map(id => document.getElementById(id)) : [];
    if (ends.includes(null)) wrong.push("an open end (#end-left, #end-right) is missing while the round is played");
    const things = [...all("article.seat[data-seat]"), ...all("#line .domino"), ...ends.filter(e => e),
                    ...all("#hand .tile-btn")];
    const controls = all("button, summary, input, select, a, details.panel")
      .filter(e => this.shown(e) && !things.includes(e));
    things.forEach((e, i) => {
      const r = box(e);
      if (!this.shown(e)) { wrong.push(`${this.name(e)} is not shown ${this.at(r)}`); return; }
      if (!this.inside(r)) wrong.push(`${this.name(e)} is not inside the viewport ${this.at(r)}`);
      for (const o of [...things.slice(i + 1).filter(t => this.shown(t)), ...controls]) {
        if (e.contains(o) || o.contains(e)) continue;  // a seat's own controls, a tile's own radio
        if (overlap(r, box(o))) wrong.push(`${this.name(e)} ${this.at(r)} overlaps ${this.name(o)} ${this.at(box(o))}`);
      }
    });

    const hand = all("#hand .tile-btn").map(box);
    if (hand.length) {
      const tops = hand.map(r => r.top), spread = Math.max(...tops) - Math.min(...tops);
      if (spread > slack) wrong.push(`the hand's ${hand.length} tiles are not one row: their tops differ by ${px(spread)} px`);
    }

    // The actions of the moment: in the viewport, and nothing over them (their middle, and 4 px in from
    // the middle of each side: a pill-shaped button's corners are not its own).
    for (const a of [...all("#me .actions button"), ...all("#me .choose-end button")].filter(e => this.shown(e))) {
      const r = box(a), x = r.x + r.width / 2, y = r.y + r.height / 2;
      if (!this.inside(r)) { wrong.push(`${this.name(a)} is not inside the viewport ${this.at(r)}`); continue; }
      const covered = [[x, y], [r.left + 4, y], [r.right - 4, y], [x, r.top + 4], [x, r.bottom - 4]]
        .filter(([u, v]) => !this.hits(a, u, v));
      if (covered.length) {
        wrong.push(`${this.name(a)} ${this.at(r)} is covered: at ${covered.map(([u, v]) =>
          `(${px(u)}, ${px(v)}) by ${this.what(u, v)}`).join(", ")}`);
      }
    }

    if (tapEnds) {
      for (const e of ends.filter(e => e)) {
        const r = box(e), x = r.x + r.width / 2, y = r.y + r.height / 2;
        const missed = [[x, y], [x - reach, y], [x + reach, y], [x, y - reach], [x, y + reach]]
          .filter(([u, v]) => !this.hits(e, u, v));
        if (missed.length) {
          wrong.push(`#${e.id} ${this.at(r)} is no 44x44 px tap target: a tap at ${missed.map(([u, v]) =>
            `(${px(u)}, ${px(v)}) reaches ${this.what(u, v)}`).join(", ")}`);
        }
      }
    }

    const tiles = all("#line .domino").map(box);
    if (minTile && tiles.length) {
      const least = Math.min(...tiles.map(r => Math.max(r.width, r.height)));
      if (least < minTile) {
        wrong.push(`the smallest line tile's long side is ${px(least)} px, under ${minTile} (${tiles.length} tiles)`);
      }
    }
    return wrong;
  },

  // The seats' and the line's boxes (x, y, width, height), by id.
  boxes() {
    return Object.fromEntries([...document.querySelectorAll("article.seat[data-seat], #line")].map(e => {
      const r = e.getBoundingClientRect();
      return ["#" + e.id, [r.x, r.y, r.width, r.height].map(v => Math.round(v * 10) / 10)];
    }));
  },

  // Where the focus is, if that is wrong: under a closed panel (its summary aside), or out of sight.
  focus() {
    const e = document.activeElement;
    if (!e || e === document.body || e === document.documentElement) return "";
    const r = e.getBoundingClientRect(), closed = e.closest("details.panel:not([open])"), wrong = [];
    if (closed && e !== closed.querySelector(":scope > summary")) wrong.push(`inside the closed panel ${this.name(closed)}`);
    if (r.width < 1 || r.height < 1) wrong.push("with no box");
    else if (!this.inside(r)) wrong.push(`outside the viewport ${this.at(r)}`);
    return wrong.length ? `${this.name(e)} is focused ${wrong.join(", ")}` : "";
  },

  // A panel's name: its id and its summary's words.
  panel(i) {
    const d = document.querySelectorAll("details.panel")[i];
    return `#${d.id} "${(d.querySelector(":scope > summary")?.textContent ?? "").trim().replace(/\s+/g, " ")}"`;
  },
})
