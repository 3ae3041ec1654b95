// The in-page half of browser.snapshot. It runs in the daemon's own isolated world, so the
// page can neither see nor change what it keeps: a serial number per node (a WeakMap, node ->
// serial, and serial -> WeakRef) that the daemon keys its per-session refs by.
//
// It walks the flat tree (open shadow roots, slots, frames this process renders), decides
// role, name, value, states and box per element, and returns one item per outline line:
//   {i: serial, d: depth, r: role, n: name, v: value (exact, its first VALUE characters),
//    vl: the value's whole length when cut, s: states, b: [x,y,w,h] in the top viewport,
//    clipped by scrolling boxes | nb: 1 (no box at all), c: control hint, h: hint,
//    cl: row cells, pw: password, k: "c" control | "t" text | "o" other,
//    x: 1 (a frame this process does not draw)}
// What the page listens to comes from the daemon (`G.heard`: element -> pointer events, from
// Chromium's own list of listeners, set just before the walk).
// Hidden content is left out: display:none, visibility:hidden, the closed part of a
// <details>, the inside of a zero-size box that clips; visually hidden labels still name.
// The daemon formats the lines; the role lists come from it (opts.interactive, .structural).
(opts) => {
  // Set up when the daemon made the world; a context without it is not the daemon's.
  const G = globalThis.__glovebox;
  if (!G) return {noworld: true};
  const idOf = (n) => {
    let i = G.ids.get(n);
    if (i === undefined) { i = G.next++; G.ids.set(n, i); G.els.set(i, new WeakRef(n)); }
    return i;
  };
  if (G.els.size > 50000) for (const [k, w] of G.els) if (!w.deref()) G.els.delete(k);

  const heard = G.heard || new WeakMap();
  const INTERACTIVE = new Set(opts.interactive);
  const STRUCTURAL = new Set(opts.structural);
  const MAX = opts.max || 20000;
  // Characters of a value a line carries; the daemon shows them exactly, then the cut marker.
  const VALUE = opts.value || 200;
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base']);
  const CONTAINER = new Set(['html', 'body', 'label']);
  const INLINE = new Set(['span', 'a', 'b', 'i', 'em', 'strong', 'code', 'small', 'label', 'abbr', 'sub', 'sup', 'mark', 'u', 's', 'kbd', 'q', 'cite', 'time', 'font']);
  const FROM_CONTENT = new Set(['button', 'link', 'heading', 'option', 'cell', 'gridcell', 'columnheader', 'rowheader', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'checkbox', 'radio', 'switch', 'tooltip', 'row']);
  const CELLS = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
  const GLYPHS = /^[\uE000-\uF8FF\s]+$/;
  const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'range', 'color']);
  // A cross-site frame is walked in its own process: the daemon gives the top viewport's
  // size and where the frame's content starts in it.
  const vw = opts.view ? opts.view[0] : window.innerWidth;
  const vh = opts.view ? opts.view[1] : window.innerHeight;
  const origin = opts.origin || [0, 0];
  const out = [];

  let active = document.activeElement;
  for (;;) {
    const n = active && ((active.shadowRoot && active.shadowRoot.activeElement) ||
      (active.contentDocument && active.contentDocument.activeElement));
    if (!n) break;
    active = n;
  }

  const styleOf = (el) => {
    const v = el.ownerDocument.defaultView;
    return v ? v.getComputedStyle(el) : null;
  };
  const squash = (t, n) => {
    t = t.replace(/\s+/g, ' ').trim();
    return t.length > n ? t.slice(0, n) : t;
  };
  // Changes inside a shadow root or a frame's document call for reading the listeners again,
  // as changes in the document do (`listeners.rs` watches the document).
  const watch = (root) => {
    if (G.lmo && !G.lobs.has(root)) { G.lobs.add(root); G.lmo.observe(root, {childList: true, subtree: true}); }
  };
  // The nodes the flat tree shows under n.
  const kids = (n) => {
    if (n.nodeType === 1) {
      if (n.shadowRoot) { watch(n.shadowRoot); return n.shadowRoot.childNodes; }
      if (n.localName === 'slot') {
        const a = n.assignedNodes({flatten: true});
        return a.length ? a : n.childNodes;
      }
    }
    return n.childNodes;
  };
  // The text a node reads as, bounded: embedded controls and hidden parts left out.
  const textOf = (root, skip) => {
    let s = '';
    const rec = (n) => {
      if (s.length > 400) return;
      if (n.nodeType === 3) { s += n.data; return; }
      if (n.nodeType === 1) {
        const t = n.localName;
        if (n === skip || SKIP.has(t) || t === 'select' || t === 'textarea' || t === 'input' || t === 'svg') return;
        if (n.hidden || n.getAttribute('aria-hidden') === 'true') return;
        // Hidden content does not name anything (sr-only text is shown, only clipped); the
        // root's own style is the caller's to judge.
        if (n !== root) {
          const cs = styleOf(n);
          if (cs && (cs.display === 'none' || cs.visibility === 'hidden')) return;
        }
        if (t === 'img') { s += ' ' + (n.getAttribute('alt') || '') + ' '; return; }
        if (t === 'br') { s += ' '; return; }
        const block = !INLINE.has(t);
        if (block) s += ' ';
        for (const c of kids(n)) rec(c);
        if (block) s += ' ';
        return;
      }
      if (n.nodeType === 11 || n.nodeType === 9) for (const c of n.childNodes) rec(c);
    };
    rec(root);
    return squash(s, 400);
  };
  const byId = (el, id) => {
    const root = el.getRootNode();
    return (root.getElementById ? root.getElementById(id) : null) || el.ownerDocument.getElementById(id);
  };

  // The labels of each control, from one pass over the labels of each tree the walk meets:
  // the first read of el.labels makes Blink search the whole tree for that one element
  // (240 ms for the 2,500 controls of a 5,000-element page).
  const labelled = new Map();
  const scanned = new Set();
  const labelsOf = (el) => {
    const root = el.getRootNode();
    if (!scanned.has(root)) {
      scanned.add(root);
      for (const l of root.querySelectorAll ? root.querySelectorAll('label') : []) {
        const c = l.control;
        if (!c) continue;
        const list = labelled.get(c);
        if (list) list.push(l); else labelled.set(c, [l]);
      }
    }
    return labelled.get(el) || [];
  };

  const roleOf = (el, tag) => {
    const given = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
    if (given === 'none' || given === 'presentation' || given === 'generic') return '';
    if (given) return given;
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'button': return 'button';
      case 'summary': return 'button';
      case 'input': {
        switch ((el.getAttribute('type') || 'text').toLowerCase()) {
          case 'hidden': return '#hidden';
          case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'range': return 'slider';
          case 'number': return 'spinbutton';
          case 'color': return 'colorwell';
          case 'search': return el.list ? 'combobox' : 'searchbox';
          case 'date': case 'datetime-local': case 'month': case 'week': return 'date';
          case 'time': return 'inputtime';
          default: return el.list ? 'combobox' : 'textbox';
        }
      }
      case 'textarea': return 'textbox';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'option': return 'option';
      case 'optgroup': return 'group';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'aside': return 'complementary';
      case 'header': return el.parentElement && el.parentElement.closest('article,aside,main,nav,section') ? '' : 'banner';
      case 'footer': return el.parentElement && el.parentElement.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
      case 'form': return 'form';
      case 'section': return 'region';
      case 'article': return 'article';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return el.closest('table') && el.closest('table').getAttribute('role') === 'grid' ? 'gridcell' : 'cell';
      case 'th': return el.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
      case 'img': return el.getAttribute('alt') === '' ? '' : 'image';
      case 'svg': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'image' : '';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'dialog': return 'dialog';
      case 'fieldset': case 'details': return 'group';
      case 'progress': return 'progressbar';
      case 'meter': return 'meter';
      case 'iframe': case 'frame': return 'iframe';
      case 'figure': return 'figure';
      case 'output': return 'status';
      case 'code': return 'code';
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return '';
  };

  const nameOf = (el, role, tag) => {
    const lb = el.getAttribute('aria-labelledby');
    if (lb) {
      const t = squash(lb.split(/\s+/).map((id) => { const e = byId(el, id); return e ? textOf(e, null) : ''; }).join(' '), 400);
      if (t) return t;
    }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return squash(al, 400);
    if (tag === 'input') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'button' || type === 'submit' || type === 'reset') return el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      if (type === 'image') return el.getAttribute('alt') || el.value || 'Submit';
    }
    const ls = labelsOf(el);
    if (ls.length) {
      const t = squash(ls.map((l) => textOf(l, el)).join(' '), 400);
      if (t) return t;
    }
    if (tag === 'img' || tag === 'area') { const a = el.getAttribute('alt'); if (a) return squash(a, 400); }
    if (tag === 'fieldset') { const g = el.querySelector(':scope > legend'); if (g) return textOf(g, null); }
    if (tag === 'table') { const c = el.querySelector(':scope > caption'); if (c) return textOf(c, null); }
    if (tag === 'figure') { const c = el.querySelector(':scope > figcaption'); if (c) return textOf(c, null); }
    if (tag === 'optgroup') return squash(el.getAttribute('label') || '', 400);
    if (tag === 'option' && el.label) return squash(el.label, 400);
    if (FROM_CONTENT.has(role)) { const t = textOf(el, null); if (t) return t; }
    const ti = el.getAttribute('title');
    if (ti && ti.trim()) return squash(ti, 400);
    if (tag === 'input' || tag === 'textarea') {
      const p = el.getAttribute('placeholder');
      if (p && p.trim()) return squash(p, 400);
    }
    return '';
  };

  // The value exactly as the control holds it (nothing trimmed or squashed).
  const rawValueOf = (el, tag) => {
    if (tag === 'input' || tag === 'textarea') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'file') return el.files && el.files.length ? [...el.files].map((f) => f.name).join(', ') : '';
      return NOT_TEXT.has(type) ? '' : el.value;
    }
    if (tag === 'select') return [...el.selectedOptions].map((o) => o.label || o.text).join(', ');
    // What select takes when it differs from the label the line names the option by.
    if (tag === 'option') return el.value !== (el.label || el.text) ? el.value : '';
    if (el.isContentEditable) return el.innerText;
    return el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || '';
  };
  const setValue = (item, el, tag) => {
    const v = rawValueOf(el, tag) || '';
    if (!v) return;
    if (v.length > VALUE) {
      // Cut by characters, not UTF-16 units, so a surrogate pair is never split.
      const cps = Array.from(v);
      if (cps.length > VALUE) { item.v = cps.slice(0, VALUE).join(''); item.vl = cps.length; return; }
    }
    item.v = v;
  };

  const statesOf = (el, role, tag) => {
    const s = [];
    const aria = (k) => el.getAttribute(k);
    if (el === active) s.push('focused');
    if (el.matches(':disabled') || aria('aria-disabled') === 'true') s.push('disabled');
    if (el.required || aria('aria-required') === 'true') s.push('required');
    if (((tag === 'input' || tag === 'textarea') && el.readOnly) || aria('aria-readonly') === 'true') s.push('readonly');
    if (tag === 'option' ? el.selected : aria('aria-selected') === 'true') s.push('selected');
    let checked = aria('aria-checked');
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) checked = el.indeterminate ? 'mixed' : String(el.checked);
    if (checked === 'true') s.push('checked'); else if (checked === 'mixed') s.push('checked=mixed');
    const pressed = aria('aria-pressed');
    if (pressed === 'true') s.push('pressed'); else if (pressed === 'mixed') s.push('pressed=mixed');
    const ex = aria('aria-expanded');
    if (ex === 'true') s.push('expanded');
    else if (ex === 'false') s.push('collapsed');
    else if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details') s.push(el.parentElement.open ? 'expanded' : 'collapsed');
    if (role === 'heading') s.push('level=' + (aria('aria-level') || (/^h[1-6]$/.test(tag) ? tag[1] : '2')));
    if (aria('aria-modal') === 'true' || (tag === 'dialog' && el.matches(':modal'))) s.push('modal');
    // A file input's click opens a file chooser; its files are set with upload.
    if (tag === 'input' && el.type === 'file') s.push('file');
    return s;
  };

  // Acts as a control without a control's role: a click handler (an attribute, or a pointer
  // listener of its own that Chromium lists), where the pointer cursor starts, draggable, or
  // focusable by Tab; or an icon among its siblings inside a clickable area (reply, like,
  // "more" in a post row that opens the post), which points too.
  const ON = ['onmousedown', 'onmouseup', 'onpointerdown', 'onpointerup', 'ontouchstart'];
  const controlOf = (el, tag, cs, parentCursor, inField) => {
    if (CONTAINER.has(tag)) return null;
    if (el.hasAttribute('onclick') || typeof el.onclick === 'function') return 'onclick';
    // A listener on a box the size of the page is the page's (a framework's root), as one
    // on the body is.
    if ((heard.has(el) || ON.some((a) => el.hasAttribute(a))) && !pageSized(el)) return 'listener';
    if (cs.cursor === 'pointer' && parentCursor !== 'pointer') return 'cursor:pointer';
    if (el.getAttribute('draggable') === 'true') return 'draggable';
    const ti = el.getAttribute('tabindex');
    if (ti !== null && parseInt(ti, 10) >= 0) return 'focusable';
    if (cs.cursor === 'pointer' && !inField && iconOnly(el, tag)) return 'icon';
    return null;
  };
  // A small element with no text of its own that shows an icon, beside other content.
  const iconOnly = (el, tag) => {
    if (tag === 'svg' || !el.parentElement || el.parentElement.childElementCount < 2) return false;
    if (!(tag === 'i' || el.querySelector('svg, img, i') || iconClass(el))) return false;
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0 && r.width <= 64 && r.height <= 64)) return false;
    return !textOf(el, null);
  };
  // What an icon says: its SVG <title>, or the alt, aria-label or title of what it holds.
  const iconText = (el) => {
    const t = el.querySelector('svg title, img[alt]:not([alt=""]), [aria-label], [title]');
    if (!t) return '';
    if (t.localName === 'title') return squash(t.textContent || '', 80);
    return squash(t.getAttribute('aria-label') || t.getAttribute('title') || t.getAttribute('alt') || '', 80);
  };
  // An icon class (`fa-reply`, `icon-like`, `bi-three-dots`) of the element or what it holds.
  const ICON = /^(fa|bi|mdi|icon|glyphicon|octicon|ti|ri|las?|ph|material-icons?)[-_]|[-_]icon$|^icon$/;
  const iconClass = (el) => {
    for (const e of [el, ...el.querySelectorAll('i, span, svg, use')].slice(0, 6)) {
      const c = (e.getAttribute('class') || '').trim().split(/\s+/).filter((k) => ICON.test(k) && k !== 'icon');
      if (c.length) return '.' + c.slice(0, 2).join('.');
      const ref = e.localName === 'use' && (e.getAttribute('href') || e.getAttribute('xlink:href'));
      if (ref) return ref;
    }
    return '';
  };
  const hintOf = (el, tag) => {
    for (const k of ['aria-label', 'title', 'alt']) {
      const v = el.getAttribute(k);
      if (v && v.trim()) return squash(v, 80);
    }
    // An icon's own words only when it has no text: a row holding a labelled button is
    // not named by that button.
    const own = textOf(el, null);
    if (!own || GLYPHS.test(own)) {
      const it = iconText(el);
      if (it) return it;
      const ic = iconClass(el);
      if (ic) return tag + ' ' + ic;
    }
    for (const k of ['placeholder', 'data-icon', 'name', 'id']) {
      const v = el.getAttribute(k);
      if (v && v.trim()) return tag + ' ' + squash(v, 80);
    }
    const c = (el.getAttribute('class') || '').trim();
    return c ? tag + ' .' + c.split(/\s+/).slice(0, 3).join('.') : tag;
  };

  // The element whose children are the items a listener on el handles for them (a list,
  // a menu, a row of days): past wrappers with one child, two or more children of one tag,
  // which is no tag of running text (a listener over paragraphs is the page's, not theirs).
  const TEXTUAL = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'br', 'hr', 'section', 'article', 'form']);
  const itemsOf = (el) => {
    let p = el;
    for (let hop = 0; hop < 3; hop++) {
      const c = [...kids(p)].filter((k) => k.nodeType === 1 && !SKIP.has(k.localName));
      if (c.length === 1) { p = c[0]; continue; }
      if (c.length < 2) return null;
      const tag = c[0].localName;
      return !TEXTUAL.has(tag) && c.every((k) => k.localName === tag) ? p : null;
    }
    return null;
  };
  // A box the size of the page: a listener there is the page's (a framework's root).
  const pageSized = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= vw * 0.9 && r.height >= vh * 0.5;
  };

  // A box in the top viewport: [x,y,w,h] when it shows there, 0 when it has none at all,
  // null when it lies outside the viewport or is scrolled out of a box that clips it
  // (`clip`: [left, top, right, bottom] in the top viewport).
  const ranges = new Map();
  const boxOf = (n, off, clip) => {
    let r;
    if (n.nodeType === 3) {
      const doc = n.ownerDocument;
      let rg = ranges.get(doc);
      if (!rg) { rg = doc.createRange(); ranges.set(doc, rg); }
      rg.selectNodeContents(n);
      r = rg.getBoundingClientRect();
    } else {
      r = n.getBoundingClientRect();
    }
    if (!(r.width > 0 && r.height > 0)) return 0;
    const x = r.left + off[0], y = r.top + off[1];
    const c = clip || VIEW;
    if (x < c[2] && y < c[3] && x + r.width > c[0] && y + r.height > c[1]) return [Math.round(x), Math.round(y), Math.round(r.width), Math.round(r.height)];
    return null;
  };
  const VIEW = [0, 0, vw, vh];
  // What is left of `clip` inside the box r (in el's document) for el's descendants.
  const clipTo = (r, off, clip) => {
    const x = r.left + off[0], y = r.top + off[1];
    return [Math.max(clip[0], x), Math.max(clip[1], y), Math.min(clip[2], x + r.width), Math.min(clip[3], y + r.height)];
  };
  // Where a frame's content starts, in the top viewport.
  const frameOffset = (frame, off) => {
    const r = frame.getBoundingClientRect();
    const cs = styleOf(frame);
    return [off[0] + r.left + frame.clientLeft + parseFloat(cs.paddingLeft || 0),
      off[1] + r.top + frame.clientTop + parseFloat(cs.paddingTop || 0)];
  };
  const docOffset = (doc) => {
    const chain = [];
    for (let w = doc.defaultView; w && w.frameElement; w = w.parent) chain.push(w.frameElement);
    let off = [0, 0];
    for (let k = chain.length - 1; k >= 0; k--) off = frameOffset(chain[k], off);
    return off;
  };
  const innerDoc = (frame) => { try { return frame.contentDocument; } catch (e) { return null; } };

  // Nothing below (or at) el acts: no interactive role, no control hint, no frame.
  const inert = (el, cursor) => {
    const tag = el.localName;
    if (tag === 'iframe' || tag === 'frame') return false;
    const cs = styleOf(el);
    if (!cs || cs.display === 'none') return true;
    if (INTERACTIVE.has(roleOf(el, tag)) || controlOf(el, tag, cs, cursor, false)) return false;
    for (const c of kids(el)) if (c.nodeType === 1 && !inert(c, cs.cursor)) return false;
    return true;
  };
  // `a | b | c` when every child of the row is a cell holding only text.
  const plainRow = (row, cursor) => {
    const cells = [];
    for (const c of kids(row)) {
      if (c.nodeType === 3 && !c.data.trim()) continue;
      if (c.nodeType !== 1) return null;
      const r = roleOf(c, c.localName);
      if (!CELLS.has(r) || !inert(c, cursor)) return null;
      cells.push(nameOf(c, r, c.localName));
    }
    return cells.length ? cells : null;
  };

  // `seen`: the parent is visible (a text node has no style of its own); `clip`: what the
  // scrolling boxes around n leave of the viewport.
  // `items`: the element whose children a listener above handles (they act as controls).
  const walk = (n, depth, pname, inField, off, cursor, seen, clip, items) => {
    if (out.length >= MAX) return;
    if (n.nodeType === 3) {
      if (!seen) return;
      const t = squash(n.data, 400);
      // An icon font's private-use glyphs read as nothing.
      if (!t || inField || pname.includes(t) || GLYPHS.test(t)) return;
      const b = boxOf(n, off, clip);
      const item = {i: idOf(n), d: depth, r: 'text', n: t, k: 't'};
      if (b) item.b = b;
      out.push(item);
      return;
    }
    if (n.nodeType === 9 || n.nodeType === 11) {
      for (const c of n.childNodes) walk(c, depth, pname, inField, off, cursor, seen, clip, items);
      return;
    }
    if (n.nodeType !== 1) return;
    const el = n, tag = el.localName;
    if (SKIP.has(tag) || el.getAttribute('aria-hidden') === 'true') return;
    const cs = styleOf(el);
    if (!cs || cs.display === 'none') return;
    // A fixed element escapes the scrolling boxes around it (the style is read only where
    // there is one: each read costs on a big page).
    if (clip !== VIEW && cs.position === 'fixed') clip = VIEW;
    // html and body pass their overflow to the viewport.
    const clips = (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') && tag !== 'html' && tag !== 'body';
    let role = roleOf(el, tag);
    if (role === '#hidden') return;
    const shown = cs.visibility === 'visible';
    const interactive = INTERACTIVE.has(role);
    let control = !interactive && shown ? controlOf(el, tag, cs, cursor, inField) : null;
    // A listener on a list handles its items: they act, the list is no control itself.
    let childItems = items;
    if (control === 'listener' || control === 'onclick') {
      const at = itemsOf(el);
      if (at) { childItems = at; control = null; }
    }
    if (!control && !interactive && shown && items && el.parentNode === items && !inField) control = 'delegated';
    let name = '';
    if (shown && (interactive || STRUCTURAL.has(role))) {
      name = nameOf(el, role, tag);
      if (role === 'region' && !name) role = '';
    }
    // A control without a role is named by its text when that is short; else by its hint
    // (so is one whose text is only an icon font's private-use glyphs).
    if (control && !STRUCTURAL.has(role)) {
      const t = textOf(el, null);
      if (t.length <= 80 && !GLYPHS.test(t)) name = t;
    }
    const include = shown && (interactive || STRUCTURAL.has(role)) || !!control;
    const start = out.length;
    let childDepth = depth, childName = pname, childField = inField;
    if (include) {
      const item = {i: idOf(el), d: depth, r: role, n: name, k: interactive ? 'c' : 'o'};
      if (control) { item.c = control; item.h = hintOf(el, tag); }
      // A control its own content does not name is named by its icon.
      else if (interactive && !name) { const h = hintOf(el, tag); if (h !== tag) item.h = h; }
      const b = boxOf(el, off, clip);
      if (b) item.b = b; else if (b === 0) item.nb = 1;
      if (interactive) {
        setValue(item, el, tag);
        if (tag === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'password') item.pw = 1;
      }
      const s = statesOf(el, role, tag);
      if (s.length) item.s = s;
      if (role === 'row' && !control) {
        const cells = plainRow(el, cs.cursor);
        if (cells) { item.cl = cells; out.push(item); return; }
      }
      out.push(item);
      childDepth = depth + 1;
      // What names this line names none of its children's lines.
      childName = name;
      if (interactive) childField = true;
    }
    if (tag === 'iframe' || tag === 'frame') {
      const doc = innerDoc(el);
      if (doc) watch(doc);
      if (doc && doc.documentElement) walk(doc.documentElement, childDepth, '', false, frameOffset(el, off), 'auto', true, clipTo(el.getBoundingClientRect(), off, clip), null);
      else if (include) out[start].x = 1;
      return;
    }
    if (tag === 'svg') return;
    // What a zero-size box clips is not shown; a closed <details> shows its summary only.
    let inner = clip;
    if (clips) {
      const r0 = el.getBoundingClientRect();
      if (r0.width === 0 || r0.height === 0) return;
      inner = clipTo(r0, off, clip);
    }
    const closed = tag === 'details' && !el.open;
    const walkKids = (cname) => {
      for (const c of kids(el)) {
        if (closed && !(c.nodeType === 1 && c.localName === 'summary')) continue;
        walk(c, childDepth, cname, childField, off, cs.cursor, shown, inner, childItems);
      }
    };
    walkKids(childName);
    // A control holding several controls is their group: a click on it lands on one of them
    // or between them. It stays a control of its own only when it listens itself (a post
    // row that opens the post), then named by its hint; its children keep their own text.
    if (control && include && !interactive) {
      let acting = 0;
      for (let k = start + 1; k < out.length && acting < 2; k++) if (out[k].k === 'c' || out[k].c) acting++;
      if (acting >= 2) {
        const own = control === 'onclick' || control === 'listener' || control === 'draggable';
        const item = out[start];
        if (!own) {
          delete item.c; delete item.h;
          if (!item.r) item.r = 'group';
        }
        // A name taken from its text was its children's words; a structural role's stays.
        if (!STRUCTURAL.has(role)) item.n = '';
        out.length = start + 1;
        walkKids('');
        return;
      }
    }
    // An element whose lines are all short plain text reads as one line of text (or names
    // itself when it is a nameless line of its own).
    const first = include ? start + 1 : start;
    if (out.length - first < (include ? 1 : 2)) return;
    const parts = [];
    for (let k = first; k < out.length; k++) {
      if (out[k].k !== 't' || out[k].d !== childDepth) return;
      parts.push(out[k].n);
    }
    const joined = parts.join(' ');
    if (joined.length > 120) return;
    if (include && !name && !interactive) {
      out.length = first;
      out[start].n = joined;
    } else if (!include) {
      out.length = first;
      const b = boxOf(el, off, clip);
      const item = {i: idOf(el), d: depth, r: 'text', n: joined, k: 't'};
      if (b) item.b = b;
      out.push(item);
    }
  };

  if (opts.scope) {
    const w = G.els.get(opts.scope);
    const root = w && w.deref();
    if (!root || !root.isConnected) return {gone: true};
    const off = docOffset(root.ownerDocument || document);
    walk(root, 0, '', false, [off[0] + origin[0], off[1] + origin[1]], 'auto', true, VIEW, null);
  } else if (document.documentElement) {
    walk(document.documentElement, 0, '', false, origin, 'auto', true, VIEW, null);
  }
  return {items: out, view: [vw, vh]};
}
