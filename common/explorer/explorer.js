// The bank explorer: the page's controls describe one warp instruction, the
// bank model (bank_model.js: common/bank_model compiled with Emscripten)
// prices it, and the page shows the numbers, the lane groups, the
// explanation, the bank map and, for a tile, where the lanes read. The URL's
// hash carries the access (#preset=... or #w=4&mode=stride&stride=32...) and
// the language (&lang=zh: the page in Chinese; the bank model's explanation
// stays in English, as banksim prints it).
// With window.BANKLAB_CHECK set (tests/explorer), the page also runs each
// given access and each preset through its own controls and writes what it
// showed into <pre id="check-result">.
"use strict";

const PRESETS = [
  {id: "column32", title: "float tile[32][32], a column (32-way)", zh: "float tile[32][32]，读一列（32 路冲突）",
   state: {mode: "tile", w: 4, rows: 32, cols: 32, pad: 0, swz: 0, read: "col", index: 0}},
  {id: "column33", title: "float tile[32][33], a column (padded)", zh: "float tile[32][33]，读一列（已填充）",
   state: {mode: "tile", w: 4, rows: 32, cols: 32, pad: 1, swz: 0, read: "col", index: 0}},
  {id: "diagonal33", title: "float tile[32][33], the diagonal (2-way)", zh: "float tile[32][33]，读对角线（2 路冲突）",
   state: {mode: "tile", w: 4, rows: 32, cols: 32, pad: 1, swz: 0, read: "diag", index: 0}},
  {id: "swizzled", title: "float tile[32][32] XOR-swizzled, a column", zh: "float tile[32][32] 经 XOR 重排，读一列",
   state: {mode: "tile", w: 4, rows: 32, cols: 32, pad: 0, swz: 1, read: "col", index: 3}},
  {id: "chunks", title: "float4 tile[32][8], a column of chunks (8-way)", zh: "float4 tile[32][8]，读一列 16 字节分段（8 路冲突）",
   state: {mode: "tile", w: 16, rows: 32, cols: 8, pad: 0, swz: 0, read: "col", index: 0}},
  {id: "chunks_swizzled", title: "float4 tile[32][8], chunk ^ (row % 8), a column of chunks", zh: "float4 tile[32][8]，分段 ^ (行 % 8)，读一列分段",
   state: {mode: "tile", w: 16, rows: 32, cols: 8, pad: 0, swz: 1, read: "col", index: 0}},
  {id: "stride2", title: "stride 2 (2-way)", zh: "步长 2（2 路冲突）", state: {mode: "stride", w: 4, stride: 2}},
  {id: "broadcast", title: "every lane on one float (broadcast)", zh: "所有 lane 读同一个 float（广播）", state: {mode: "stride", w: 4, stride: 0}},
  {id: "double_broadcast", title: "every lane loads one double", zh: "所有 lane 读同一个 double", state: {mode: "stride", w: 8, stride: 0}},
  {id: "float4_broadcast", title: "every lane loads one float4", zh: "所有 lane 读同一个 float4", state: {mode: "stride", w: 16, stride: 0}},
  {id: "double_column33", title: "double tile[32][33], a column", zh: "double tile[32][33]，读一列", state: {mode: "tile", w: 8, rows: 32, cols: 32, pad: 1, swz: 0, read: "col", index: 0}},
  {id: "double_column34", title: "double tile[32][34], a column (2-way)", zh: "double tile[32][34]，读一列（2 路冲突）", state: {mode: "tile", w: 8, rows: 32, cols: 32, pad: 2, swz: 0, read: "col", index: 0}},
  {id: "float4_rows", title: "float4, lane l reads element l (quarter-warps)", zh: "float4，lane l 读元素 l（按四分之一 warp 服务）", state: {mode: "stride", w: 16, stride: 1}},
  {id: "struct3_y", title: "field y of 12-byte structures (stride 3)", zh: "12 字节结构体的字段 y（步长 3）", state: {mode: "stride", w: 4, stride: 3, base: 4}},
  {id: "struct4_y", title: "field y of 16-byte structures (stride 4, 4-way)", zh: "16 字节结构体的字段 y（步长 4，4 路冲突）", state: {mode: "stride", w: 4, stride: 4, base: 4}},
  {id: "pitch24", title: "rows of 24 floats, a column (8-way)", zh: "每行 24 个 float，读一列（8 路冲突）", state: {mode: "stride", w: 4, stride: 24}},
  {id: "pitch25", title: "rows of 25 floats, a column", zh: "每行 25 个 float，读一列", state: {mode: "stride", w: 4, stride: 25}},
  {id: "weights_per_lane", title: "8 weights per lane, lane l reads its weight k (8-way)", zh: "每个 lane 8 个权重，lane l 读它的第 k 个（8 路冲突）", state: {mode: "stride", w: 4, stride: 8}},
  {id: "pair_merge", title: "double, lanes 2k and 2k+1 on one address (pair-merge)", zh: "double，lane 2k 与 2k+1 同一地址（成对合并）",
   state: {mode: "offsets", w: 8, offsets: Array.from({length: 32}, (_, l) => String(8 * (l >> 1))).join(" ")}},
  // Stage 6: fixes of the capstone's kinds of access (not its graded lines).
  {id: "capstone_sequential_step", title: "a reduction step with sequential addressing: lanes 0-15 read partial[tid + 16]",
   zh: "顺序寻址的归约步：lane 0-15 读 partial[tid + 16]", state: {mode: "stride", w: 4, stride: 1, base: 64, lanes: "0-15"}},
  {id: "capstone_padded_sweep", title: "a scan sweep, elements 32 apart, a word of padding after every 32",
   zh: "扫描的一步，元素相隔 32，每 32 个元素后填充一个字",
   state: {mode: "offsets", w: 4, offsets: Array.from({length: 32}, (_, l) => l < 16 ? String(4 * (33 * l + 15)) : "-").join(" ")}},
  {id: "capstone_rows_of_9", title: "counters in rows of 9, lane l reads row l (odd pitch)", zh: "每行 9 个计数器，lane l 读第 l 行（奇数行距）",
   state: {mode: "stride", w: 4, stride: 9}},
];

// The page's words in each language: data-i18n="KEY" elements show WORDS[lang][KEY].
const WORDS = {
  en: {},  // filled from the page itself (its English text)
  zh: {
    title: "BankLab bank 探索器", language: "语言",
    lead: "一条 warp 范围的共享内存指令，由实验包的 bank 模型计价（H200 的规则，与 banksim 同一份代码，编译为 WebAssembly）：" +
          "选择访问方式，读出 wavefront 数、bank 图和解释。不从网络加载任何内容。",
    preset: "预设", example: "示例", none: "（无）", access: "访问", width: "每个 lane 的字节数", direction: "方向",
    load: "读（load）", store: "写（store）", pattern: "模式", mode_stride: "步长", mode_offsets: "32 个偏移",
    mode_tile: "二维 tile", stride_legend: "步长", stride: "步长（元素）", base: "起始（字节）", lanes: "活跃 lane",
    lanes_help: "all、even、odd，或列表：0-15 或 0,2,8-11", offsets_legend: "偏移",
    offsets: "32 个字节偏移，- 表示不活跃的 lane", tile_legend: "tile", rows: "行数", cols: "列数",
    pad: "填充（每行元素数）", swizzle: "XOR 重排：元素 (行, 列) 存放在列 ^ (行 % 列数)", read: "读取",
    read_col: "一列", read_row: "一行", read_diag: "对角线", index: "第几列 / 行", predict_legend: "先预测",
    predict: "预测之前隐藏答案", guess: "你预测的 wavefront 数", check: "检查", link: "此访问的链接：",
    permalink: "永久链接", tile_heading: "tile，按 bank 着色（加框：各 lane 读的元素）", groups_heading: "lane 组",
    why_heading: "原因（bank 模型的说明，英文）", map_heading: "bank 图（横向为 bank，纵向为 wavefront）",
    banksim_heading: "banksim 中的同一访问",
  },
};
let lang = "en";
const say = {
  en: {
    numbers: (a) => `<strong id="wf">${a.wavefronts}</strong> wavefront${a.wavefronts === 1 ? "" : "s"},` +
        ` ideal <span id="ideal">${a.ideal}</span>, <span id="conflicts">${a.conflicts}</span> bank conflict` +
        `${a.conflicts === 1 ? "" : "s"}` + (a.passes !== a.wavefronts ? `, ${a.passes} pipeline passes` : ""),
    group: (i, g, active) => `group ${i}: lanes ${g.lanes[0]}-${g.lanes[g.lanes.length - 1]} (` +
        (active ? `${active} active` : "none active") + `): ${g.wavefronts} wavefront${g.wavefronts === 1 ? "" : "s"}`,
    merged: (m) => `merged: every active lane t whose partner t ^ ${m} is active reads the partner's ` +
        "address, so the groups double (a load only)",
    first: "Type your number of wavefronts first.", right: "Right.",
    wrong: (w, g) => `Not quite: ${w} wavefronts (you said ${g}). The bank map shows why.`,
    loading: "loading the bank model...",
  },
  zh: {
    numbers: (a) => `<strong id="wf">${a.wavefronts}</strong> 个 wavefront，理想值 <span id="ideal">${a.ideal}</span>，` +
        `<span id="conflicts">${a.conflicts}</span> 次 bank 冲突` + (a.passes !== a.wavefronts ? `，${a.passes} 次流水线通过` : ""),
    group: (i, g, active) => `第 ${i} 组：lane ${g.lanes[0]}-${g.lanes[g.lanes.length - 1]}（` +
        (active ? `${active} 个活跃` : "无活跃 lane") + `）：${g.wavefronts} 个 wavefront`,
    merged: (m) => `成对合并：每个伙伴 t ^ ${m} 也活跃的活跃 lane t 读伙伴的地址，因此组数翻倍（仅限读）`,
    first: "请先填入你预测的 wavefront 数。", right: "正确。",
    wrong: (w, g) => `不对：是 ${w} 个 wavefront（你填的是 ${g}）。bank 图给出了原因。`,
    loading: "正在加载 bank 模型……",
  },
};

// Shows the page in language `to` ("en" or "zh"): every data-i18n element,
// the presets' names, and the numbers of the access shown.
function setLanguage(to) {
  lang = WORDS[to] ? to : "en";
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const e of document.querySelectorAll("[data-i18n]")) {
    const key = e.dataset.i18n;
    if (!(key in WORDS.en)) WORDS.en[key] = e.textContent;
    e.textContent = WORDS[lang][key] || WORDS.en[key];
  }
  for (const option of $("preset").options) {
    const p = PRESETS.find((x) => x.id === option.value);
    if (p) option.textContent = lang === "zh" ? p.zh : p.title;
  }
  $("lang").value = lang;
}

const DEFAULTS = {mode: "stride", w: 4, op: "ld", stride: 32, base: 0, lanes: "all", offsets: "",
                  rows: 32, cols: 32, pad: 0, swz: 0, read: "col", index: 0};
const $ = (id) => document.getElementById(id);

function parseLanes(text) {
  text = text.trim();
  if (text === "" || text === "all") return Array(32).fill(true);
  if (text === "even" || text === "odd") return Array.from({length: 32}, (_, l) => (l % 2 === 0) === (text === "even"));
  const on = Array(32).fill(false);
  for (const item of text.split(",")) {
    const m = item.trim().match(/^(\d+)(?:-(\d+))?$/);
    if (!m) throw new Error(`active lanes: "${item}" is not a lane (0-31) or a range like 0-15`);
    const first = Number(m[1]), last = m[2] === undefined ? first : Number(m[2]);
    if (first > last || last > 31) throw new Error(`active lanes: "${item}" is outside 0-31`);
    for (let l = first; l <= last; ++l) on[l] = true;
  }
  return on;
}

function readState() {
  return {mode: $("mode").value, w: Number($("width").value), op: $("op").value,
          stride: Number($("stride").value), base: Number($("base").value), lanes: $("lanes").value,
          offsets: $("offsets").value, rows: Number($("rows").value), cols: Number($("cols").value),
          pad: Number($("pad").value), swz: $("swizzle").checked ? 1 : 0, read: $("read").value,
          index: Number($("index").value)};
}

function writeState(s) {
  s = Object.assign({}, DEFAULTS, s);
  $("mode").value = s.mode; $("width").value = String(s.w); $("op").value = s.op;
  $("stride").value = s.stride; $("base").value = s.base; $("lanes").value = s.lanes;
  $("offsets").value = s.offsets; $("rows").value = s.rows; $("cols").value = s.cols; $("pad").value = s.pad;
  $("swizzle").checked = Number(s.swz) === 1; $("read").value = s.read; $("index").value = s.index;
}

function stateFromHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const preset = PRESETS.find((p) => p.id === params.get("preset"));
  if (preset) return Object.assign({}, preset.state, {preset: preset.id});
  const s = {};
  for (const [k, v] of params) {
    if (k === "lang") continue;
    s[k] = ["mode", "op", "lanes", "offsets", "read"].includes(k) ? v : Number(v);
  }
  return Object.keys(s).length ? s : Object.assign({}, PRESETS[0].state, {preset: PRESETS[0].id});
}

function hashOf(s) {
  const keys = {stride: ["w", "op", "mode", "stride", "base", "lanes"], offsets: ["w", "op", "mode", "offsets"],
                tile: ["w", "op", "mode", "rows", "cols", "pad", "swz", "read", "index"]}[s.mode];
  return "#" + keys.map((k) => `${k}=${encodeURIComponent(s[k])}`).join("&") + (lang === "en" ? "" : `&lang=${lang}`);
}

// The 32 lane offsets (null: inactive), the banksim command, and for a tile
// the cells the lanes read.
function accessOf(s) {
  const w = s.w;
  if (s.mode === "stride") {
    const on = parseLanes(s.lanes);
    const offsets = on.map((active, l) => (active ? s.base + l * s.stride * w : null));
    let command = `banksim --width ${w} --stride ${s.stride}`;
    if (s.base) command += ` --base ${s.base}`;
    if (s.lanes.trim() !== "" && s.lanes.trim() !== "all") command += ` --lanes ${s.lanes.trim()}`;
    return {offsets, command};
  }
  if (s.mode === "offsets") {
    const tokens = s.offsets.trim().split(/\s+/).filter((t) => t !== "");
    const offsets = tokens.map((t) => (t === "-" || t === "-1" ? null : Number(t)));
    return {offsets, command: `banksim --width ${w} --offsets "${tokens.join(" ")}"`, text: tokens.join(" ")};
  }
  const rows = s.rows, cols = s.cols, pitch = s.cols + s.pad;
  if (s.swz && (cols & (cols - 1)) !== 0) throw new Error("the XOR swizzle needs a power-of-two number of columns");
  const phys = (r, c) => (s.swz ? c ^ (r % cols) : c);
  const cells = [];
  const offsets = Array.from({length: 32}, (_, l) => {
    let r, c;
    if (s.read === "col") { r = l; c = s.index; } else if (s.read === "row") { r = s.index; c = l; } else { r = l; c = l; }
    if (r >= rows || c >= cols) return null;
    cells.push([r, c]);
    return (r * pitch + phys(r, c)) * w;
  });
  return {offsets, cells, pitch, phys};
}

function offsetsText(offsets) {
  return offsets.map((o) => (o === null ? "-" : String(o))).join(" ");
}

function bankColour(bank) {
  return `hsl(${(360 * bank) / 32}, 55%, 72%)`;
}

let model = null;

function drawTile(s, access) {
  const tile = $("tile");
  tile.textContent = "";
  const rows = Math.min(s.rows, 64), cols = Math.min(s.cols, 64);
  tile.style.gridTemplateColumns = `repeat(${cols}, minmax(0.9rem, 1fr))`;
  const read = new Set(access.cells.map(([r, c]) => `${r},${c}`));
  for (let r = 0; r < rows; ++r) {
    for (let c = 0; c < cols; ++c) {
      const bank = model.bankOf((r * access.pitch + access.phys(r, c)) * s.w);
      const cell = document.createElement("div");
      cell.style.background = bankColour(bank);
      cell.textContent = String(bank);
      cell.title = `element (${r}, ${c}) in bank ${bank}`;
      if (read.has(`${r},${c}`)) cell.className = "read";
      tile.appendChild(cell);
    }
  }
}

function show(s) {
  const predicting = $("predict-mode").checked && !show.revealed;
  let access, answer;
  try {
    access = accessOf(s);
    if (access.offsets.length !== 32) throw new Error(`need exactly 32 lane offsets, got ${access.offsets.length}`);
    answer = JSON.parse(model.explore(s.w, s.op === "st" ? 1 : 0, access.text || offsetsText(access.offsets)));
  } catch (e) {
    answer = {ok: false, error: e.message};
  }
  $("permalink").href = hashOf(s);
  if (!answer.ok) {
    $("numbers").innerHTML = `<span class="error">${answer.error.replace(/</g, "&lt;")}</span>`;
    for (const id of ["groups", "explanation", "bankmap", "command"]) $(id).textContent = "";
    show.last = null;
    return;
  }
  show.last = answer;
  $("command").textContent = (access.command || `banksim --width ${s.w} --offsets "${offsetsText(access.offsets)}"`) +
                             (s.op === "st" ? " --op st" : "");
  $("numbers").innerHTML = say[lang].numbers(answer);
  $("groups").textContent = "";
  answer.groups.forEach((g, i) => {
    const item = document.createElement("li");
    item.textContent = say[lang].group(i, g, g.active.length);
    $("groups").appendChild(item);
  });
  if (answer.merge > 0) {
    const item = document.createElement("li");
    item.textContent = say[lang].merged(answer.merge);
    $("groups").appendChild(item);
  }
  $("explanation").textContent = answer.explanation;
  $("bankmap").innerHTML = answer.svg;
  $("tile-panel").classList.toggle("hidden", s.mode !== "tile");
  if (s.mode === "tile") drawTile(s, access);
  for (const id of ["numbers", "answer", "bankmap-panel"]) $(id).classList.toggle("hidden", predicting);
}

function update() {
  for (const mode of ["stride", "offsets", "tile"]) $(`${mode}-fields`).classList.toggle("hidden", $("mode").value !== mode);
  show.revealed = false;
  $("verdict").textContent = "";
  const s = readState();
  show(s);
  if (!update.checking) history.replaceState(null, "", hashOf(s));
}

function runCheck(rows) {
  // Each access through the controls, as a reader would enter it; the
  // numbers read back from what the page shows.
  const out = ["name,wavefronts,bank_conflicts"];
  const shown = () => `${$("wf") ? $("wf").textContent : "error"},${$("conflicts") ? $("conflicts").textContent : "error"}`;
  update.checking = true;
  $("predict-mode").checked = false;
  for (const row of rows) {
    writeState({mode: "offsets", w: row.width, op: row.op, offsets: row.offsets});
    update();
    out.push(`${row.name},${shown()}`);
  }
  for (const p of PRESETS) {
    $("preset").value = p.id;
    $("preset").dispatchEvent(new Event("change"));
    out.push(`preset ${p.id},${shown()},${$("command").textContent}`);
  }
  const pre = document.createElement("pre");
  pre.id = "check-result";
  pre.textContent = out.join("\n");
  document.body.appendChild(pre);
}

function start(module) {
  model = {explore: module.cwrap("bank_explore", "string", ["number", "number", "string"]),
           bankOf: module.cwrap("bank_of_byte", "number", ["number"])};
  for (const p of PRESETS) {
    const option = document.createElement("option");
    option.value = p.id;
    option.textContent = p.title;
    $("preset").appendChild(option);
  }
  $("preset").addEventListener("change", () => {
    const p = PRESETS.find((x) => x.id === $("preset").value);
    if (p) writeState(p.state);
    update();
  });
  $("controls").addEventListener("input", (e) => { if (e.target.id !== "guess" && e.target.id !== "preset") update(); });
  $("controls").addEventListener("submit", (e) => e.preventDefault());
  $("predict-mode").addEventListener("change", update);
  $("check").addEventListener("click", () => {
    const guess = Number($("guess").value);
    if (!show.last || $("guess").value === "") { $("verdict").textContent = say[lang].first; return; }
    show.revealed = true;
    $("verdict").textContent = guess === show.last.wavefronts ? say[lang].right : say[lang].wrong(show.last.wavefronts, guess);
    show(readState());
  });
  $("lang").addEventListener("change", () => {
    setLanguage($("lang").value);
    update();
  });
  setLanguage(new URLSearchParams(location.hash.replace(/^#/, "")).get("lang") || "en");
  const initial = stateFromHash(location.hash);
  writeState(initial);
  if (initial.preset) $("preset").value = initial.preset;
  update();
  if (window.BANKLAB_CHECK) runCheck(window.BANKLAB_CHECK);
}

if (typeof BankModel === "undefined") {
  document.getElementById("numbers").innerHTML =
      '<span class="error">bank_model.js is missing: this page needs the kit\'s build ' +
      "(cmake --build --preset default --target docs, with Emscripten installed); open it from build/docs/html/explorer/</span>";
} else {
  // Built with synchronous compilation (the module is small): the factory
  // returns the ready module, so the page is complete when it has loaded
  // (a browser that gets a promise instead waits for it).
  const model = BankModel();
  if (typeof model.then === "function") model.then(start);
  else start(model);
}
