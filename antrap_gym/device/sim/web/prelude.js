// The page's DOM, as a JavaScript stand-in: nodes, selectors, events, form controls,
// canvas 2D and the few window APIs a task page uses. The DOM lives here; Python asks
// for it as one JSON tree after each task (`__dump`) and sends the user's actions in
// (`__user`). QuickJS refuses calls into Python while a time limit is set, so nothing the
// page can call needs Python: innerHTML is parsed and canvases are rasterised here. Only
// `__dump` (run without a limit, by Python) calls __py_css(JSON texts) -> the selectors of
// each sheet's rules. Globals handed in: __NOW_MS, __SEED, __URL, __VIEWPORT_W/H, __DPR.
"use strict";
(function () {
  const G = globalThis;
  let nextNid = 1;
  const byNid = new Map();
  let dirty = true;
  const errors = [];
  const touch = () => { dirty = true; };
  const report = (e) => { if (errors.length < 50) errors.push(String(e && e.stack ? e + "\n" + e.stack : e)); };

  // --- deterministic time and randomness ------------------------------------------------
  // `read` turns true once the page has read the clock or drawn a random number: until then
  // its state is a function of its source, URL and the user's actions alone (__read_clock)
  let read = false;
  G.__read_clock = () => read;
  let seed = (G.__SEED >>> 0) || 1;
  Math.random = function () {
    read = true;
    seed = (seed + 0x6D2B79F5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const RealDate = Date;
  const NOW = G.__NOW_MS;
  class PageDate extends RealDate {
    constructor(...a) { if (a.length === 0) { read = true; super(NOW); } else super(...a); }
    static now() { read = true; return NOW; }
  }
  G.Date = PageDate;
  let perfNow = 0;
  G.performance = { now: () => (perfNow += 1) };

  // --- selectors ------------------------------------------------------------------------
  const selCache = new Map();
  function parseSelector(text) {
    let hit = selCache.get(text);
    if (hit) return hit;
    const groups = [];
    for (const part of splitGroups(text)) groups.push(parseComplex(part.trim(), text));
    if (!groups.length) throw new SyntaxError("'" + text + "' is not a valid selector");
    selCache.set(text, groups);
    return groups;
  }
  function splitGroups(text) {
    const out = []; let depth = 0, cur = "", quote = null;
    for (const ch of text) {
      if (quote) { cur += ch; if (ch === quote) quote = null; continue; }
      if (ch === '"' || ch === "'") { quote = ch; cur += ch; continue; }
      if (ch === "(" || ch === "[") depth++;
      if (ch === ")" || ch === "]") depth--;
      if (ch === "," && depth === 0) { out.push(cur); cur = ""; continue; }
      cur += ch;
    }
    out.push(cur);
    return out;
  }
  const IDENT = /^-?[_a-zA-Z\u00a0-\uffff][_a-zA-Z0-9\u00a0-\uffff-]*/;
  // a complex selector: compounds right to left, each with the combinator to its left
  function parseComplex(s, whole) {
    const bad = () => { throw new SyntaxError("'" + whole + "' is not a valid selector"); };
    const steps = []; let i = 0, comb = null;
    while (i < s.length) {
      let ws = false;
      while (i < s.length && /\s/.test(s[i])) { i++; ws = true; }
      if (i >= s.length) break;
      if (s[i] === ">" || s[i] === "+" || s[i] === "~") {
        if (!steps.length || comb) bad();
        comb = s[i++]; continue;
      }
      if (steps.length && !comb) comb = ws ? " " : bad();
      const c = { tag: null, id: null, classes: [], attrs: [], pseudos: [], comb: comb };
      comb = null;
      let any = false;
      while (i < s.length && !/[\s>+~]/.test(s[i])) {
        const ch = s[i];
        if (ch === "*") { i++; any = true; continue; }
        if (ch === "#" || ch === ".") {
          const m = IDENT.exec(s.slice(i + 1)); if (!m) bad();
          if (ch === "#") c.id = m[0]; else c.classes.push(m[0]);
          i += 1 + m[0].length; any = true; continue;
        }
        if (ch === "[") {
          const end = s.indexOf("]", i); if (end < 0) bad();
          const m = /^\s*([\w-]+)\s*(?:([~^$*|]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\s\]]+)))?\s*$/.exec(s.slice(i + 1, end));
          if (!m) bad();
          c.attrs.push([m[1].toLowerCase(), m[2] || null, m[3] ?? m[4] ?? m[5] ?? null]);
          i = end + 1; any = true; continue;
        }
        if (ch === ":") {
          let j = i + 1; if (s[j] === ":") j++;
          const m = IDENT.exec(s.slice(j)); if (!m) bad();
          let arg = null; j += m[0].length;
          if (s[j] === "(") {
            let depth = 1, k = j + 1;
            while (k < s.length && depth) { if (s[k] === "(") depth++; else if (s[k] === ")") depth--; k++; }
            arg = s.slice(j + 1, k - 1); j = k;
          }
          c.pseudos.push([s[i + 1] === ":" ? "::" + m[0] : m[0].toLowerCase(), arg]);
          i = j; any = true; continue;
        }
        const m = IDENT.exec(s.slice(i)); if (!m) bad();
        c.tag = m[0].toLowerCase(); i += m[0].length; any = true;
      }
      if (!any) bad();
      steps.push(c);
    }
    if (!steps.length || comb) bad();
    let spec = 0;
    for (const c of steps) {
      spec += (c.id ? 10000 : 0) + 100 * (c.classes.length + c.attrs.length) + (c.tag ? 1 : 0);
      for (const [p, arg] of c.pseudos) {
        if (p === "not" && arg) { const inner = parseSelector(arg); spec += inner[0].spec; c.not = inner; }
        else spec += p.startsWith("::") ? 1 : 100;
      }
    }
    return { steps: steps.reverse(), spec: spec };
  }
  function elementIndex(el, fromEnd) {
    const sibs = el.parentNode ? el.parentNode.children : [el];
    const i = sibs.indexOf(el);
    return fromEnd ? sibs.length - i : i + 1;
  }
  function nth(arg, n) {
    arg = (arg || "").replace(/\s+/g, "").toLowerCase();
    if (arg === "odd") return n % 2 === 1;
    if (arg === "even") return n % 2 === 0;
    const m = /^([+-]?\d*)n([+-]\d+)?$/.exec(arg);
    if (!m) return String(n) === arg;
    const a = m[1] === "" || m[1] === "+" ? 1 : m[1] === "-" ? -1 : parseInt(m[1]);
    const b = m[2] ? parseInt(m[2]) : 0;
    if (a === 0) return n === b;
    return (n - b) / a >= 0 && (n - b) % a === 0;
  }
  function matchCompound(el, c) {
    if (el.nodeType !== 1) return false;
    if (c.tag && el.localName !== c.tag) return false;
    if (c.id && el.getAttribute("id") !== c.id) return false;
    if (c.classes.length) {
      const cls = el._classes();
      for (const k of c.classes) if (!cls.includes(k)) return false;
    }
    for (const [name, op, val] of c.attrs) {
      const v = el.getAttribute(name);
      if (v === null) return false;
      if (op === "=" && v !== val) return false;
      if (op === "~=" && !v.split(/\s+/).includes(val)) return false;
      if (op === "^=" && !v.startsWith(val)) return false;
      if (op === "$=" && !v.endsWith(val)) return false;
      if (op === "*=" && !v.includes(val)) return false;
      if (op === "|=" && v !== val && !v.startsWith(val + "-")) return false;
    }
    for (const [p, arg] of c.pseudos) {
      switch (p) {
        case "first-child": if (elementIndex(el, false) !== 1) return false; break;
        case "last-child": if (elementIndex(el, true) !== 1) return false; break;
        case "only-child": if (!el.parentNode || el.parentNode.children.length !== 1) return false; break;
        case "nth-child": if (!nth(arg, elementIndex(el, false))) return false; break;
        case "nth-last-child": if (!nth(arg, elementIndex(el, true))) return false; break;
        case "checked": if (!(el._checkedState && el._checkedState())) return false; break;
        case "disabled": if (!el._isDisabled()) return false; break;
        case "enabled": if (!("disabled" in el) || el._isDisabled()) return false; break;
        case "focus": if (G.document.activeElement !== el) return false; break;
        case "empty": if (el.childNodes.length) return false; break;
        case "root": if (el !== G.document.documentElement) return false; break;
        case "not": if (c.not.some((sel) => matchSteps(el, sel.steps, 0))) return false; break;
        default: return false; // :hover, ::before and the rest never match on a touch screen
      }
    }
    return true;
  }
  function matchSteps(el, steps, i) {
    if (!matchCompound(el, steps[i])) return false;
    if (i === steps.length - 1) return true;
    const comb = steps[i].comb;
    if (comb === ">") return !!el.parentNode && matchSteps(el.parentNode, steps, i + 1);
    if (comb === " ") {
      for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) if (matchSteps(p, steps, i + 1)) return true;
      return false;
    }
    if (comb === "+") { const p = el.previousElementSibling; return !!p && matchSteps(p, steps, i + 1); }
    for (let p = el.previousElementSibling; p; p = p.previousElementSibling) if (matchSteps(p, steps, i + 1)) return true;
    return false;
  }
  function matches(el, groups) { for (const g of groups) if (matchSteps(el, g.steps, 0)) return true; return false; }
  function* descendants(root) {
    const stack = root.childNodes.slice().reverse();
    while (stack.length) {
      const n = stack.pop();
      if (n.nodeType !== 1) continue;
      yield n;
      for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i]);
    }
  }
  function queryAll(root, sel) {
    const groups = parseSelector(String(sel)); const out = [];
    for (const el of descendants(root)) if (matches(el, groups)) out.push(el);
    return out;
  }
  function queryOne(root, sel) {
    const groups = parseSelector(String(sel));
    for (const el of descendants(root)) if (matches(el, groups)) return el;
    return null;
  }

  // --- events -----------------------------------------------------------------------------
  class Event {
    constructor(type, init) {
      init = init || {};
      this.type = String(type); this.bubbles = !!init.bubbles; this.cancelable = !!init.cancelable;
      this.defaultPrevented = false; this.target = null; this.currentTarget = null; this.eventPhase = 0;
      this.isTrusted = false; this._stop = false; this._stopNow = false;
      for (const k of ["key", "code", "offsetX", "offsetY", "clientX", "clientY", "pageX", "pageY", "button", "buttons", "pointerId", "pointerType", "detail", "data", "isPrimary", "shiftKey", "ctrlKey", "altKey", "metaKey", "keyCode", "which", "inputType"]) {
        if (k in init) this[k] = init[k];
      }
    }
    get timeStamp() { read = true; return NOW; }
    preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
    stopPropagation() { this._stop = true; }
    stopImmediatePropagation() { this._stop = true; this._stopNow = true; }
    get srcElement() { return this.target; }
    get returnValue() { return !this.defaultPrevented; }
    composedPath() { return this._path || []; }
  }
  for (const name of ["UIEvent", "MouseEvent", "PointerEvent", "KeyboardEvent", "InputEvent", "FocusEvent", "TouchEvent", "CustomEvent", "SubmitEvent"]) {
    G[name] = class extends Event { constructor(t, i) { super(t, i); if (i && "detail" in i) this.detail = i.detail; } };
  }
  G.Event = Event;

  class EventTarget {
    addEventListener(type, fn, opts) {
      if (!fn) return;
      const capture = typeof opts === "boolean" ? opts : !!(opts && opts.capture);
      const once = !!(opts && typeof opts === "object" && opts.once);
      const list = this._listeners || (this._listeners = []);
      for (const l of list) if (l.type === type && l.fn === fn && l.capture === capture) return;
      list.push({ type: String(type), fn: fn, capture: capture, once: once });
      touch();
    }
    removeEventListener(type, fn, opts) {
      const capture = typeof opts === "boolean" ? opts : !!(opts && opts.capture);
      const list = this._listeners; if (!list) return;
      const i = list.findIndex((l) => l.type === type && l.fn === fn && l.capture === capture);
      if (i >= 0) { list[i].removed = true; list.splice(i, 1); touch(); }
    }
    dispatchEvent(ev) { return dispatch(this, ev); }
    _hasListener(types) {
      if (this._listeners) for (const l of this._listeners) if (types.includes(l.type)) return true;
      if (this._handlers) for (const t of types) if (this._handlers[t]) return true;
      return false;
    }
  }
  function invoke(node, ev, capture) {
    const list = node._listeners; if (!list) return;
    for (const l of list.slice()) {
      if (l.removed || l.type !== ev.type || l.capture !== capture) continue;
      if (capture === false && ev.eventPhase === 1) continue;
      if (l.once) node.removeEventListener(l.type, l.fn, l.capture);
      ev.currentTarget = node;
      try {
        const fn = l.fn === HANDLER ? handlerOf(node, ev.type) : l.fn;
        if (typeof fn === "function") {
          const r = fn.call(node, ev);
          if (l.fn === HANDLER && r === false) ev.preventDefault();
        } else if (fn && typeof fn.handleEvent === "function") fn.handleEvent(ev);
      } catch (e) { report(e); }
      if (ev._stopNow) return;
    }
  }
  function dispatch(target, ev) {
    ev.target = target;
    const path = [];
    for (let n = target; n; n = n.parentNode) path.push(n);
    if (path[path.length - 1] === G.document) path.push(G);
    ev._path = path;
    ev.eventPhase = 1;
    for (let i = path.length - 1; i > 0 && !ev._stop; i--) invoke(path[i], ev, true);
    ev.eventPhase = 2;
    if (!ev._stop) invoke(target, ev, true);
    if (!ev._stop) invoke(target, ev, false);
    if (ev.bubbles) {
      ev.eventPhase = 3;
      for (let i = 1; i < path.length && !ev._stop; i++) invoke(path[i], ev, false);
    }
    ev.eventPhase = 0; ev.currentTarget = null;
    return !ev.defaultPrevented;
  }
  // on<event> handlers (properties and attributes) are one listener each, in the place
  // of their first assignment
  const HANDLER = function () {};
  const HANDLER_EVENTS = ["click", "dblclick", "input", "change", "submit", "keydown", "keyup", "keypress", "focus", "blur",
    "pointerdown", "pointermove", "pointerup", "pointercancel", "mousedown", "mousemove", "mouseup",
    "touchstart", "touchmove", "touchend", "load", "DOMContentLoaded", "contextmenu"];
  function handlerOf(node, type) {
    const h = node._handlers && node._handlers[type];
    if (typeof h === "string") {
      try { return (node._handlers[type] = new Function("event", h)); } catch (e) { report(e); node._handlers[type] = null; }
      return null;
    }
    return h;
  }
  function setHandler(node, type, value) {
    const hs = node._handlers || (node._handlers = {});
    const had = type in hs;
    hs[type] = typeof value === "function" || typeof value === "string" ? value : null;
    if (!had) { const list = node._listeners || (node._listeners = []); list.push({ type: type, fn: HANDLER, capture: false, once: false }); }
    touch();
  }
  function defineHandlers(proto) {
    for (const t of HANDLER_EVENTS) {
      Object.defineProperty(proto, "on" + t.toLowerCase(), {
        get() { return (this._handlers && typeof this._handlers[t] === "function") ? this._handlers[t] : handlerOf(this, t) || null; },
        set(v) { setHandler(this, t, v); },
        configurable: true,
      });
    }
  }

  // --- nodes ------------------------------------------------------------------------------
  class Node extends EventTarget {
    constructor(type) {
      super();
      this.nodeType = type; this.parentNode = null; this.childNodes = [];
      this._nid = nextNid++; byNid.set(this._nid, this);
    }
    get ownerDocument() { return G.document; }
    get parentElement() { return this.parentNode && this.parentNode.nodeType === 1 ? this.parentNode : null; }
    get firstChild() { return this.childNodes[0] || null; }
    get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
    get nextSibling() { const p = this.parentNode; if (!p) return null; return p.childNodes[p.childNodes.indexOf(this) + 1] || null; }
    get previousSibling() { const p = this.parentNode; if (!p) return null; return p.childNodes[p.childNodes.indexOf(this) - 1] || null; }
    get isConnected() { let n = this; while (n.parentNode) n = n.parentNode; return n === G.document; }
    hasChildNodes() { return this.childNodes.length > 0; }
    contains(other) { for (let n = other; n; n = n.parentNode) if (n === this) return true; return false; }
    getRootNode() { let n = this; while (n.parentNode) n = n.parentNode; return n; }
    _adopt(child) {
      if (!(child instanceof Node)) throw new TypeError("Failed to execute on 'Node': parameter 1 is not of type 'Node'.");
      if (child.contains(this)) throw new Error("HierarchyRequestError: The new child element contains the parent.");
      if (child.nodeType === 11) { const kids = child.childNodes.slice(); for (const k of kids) k.parentNode = null; child.childNodes = []; return kids; }
      if (child.parentNode) child.parentNode.removeChild(child);
      return [child];
    }
    appendChild(child) { return this.insertBefore(child, null); }
    insertBefore(child, ref) {
      if (ref && ref.parentNode !== this) throw new Error("NotFoundError: The node before which the new node is to be inserted is not a child of this node.");
      const kids = this._adopt(child);
      let i = ref ? this.childNodes.indexOf(ref) : this.childNodes.length;
      for (const k of kids) { k.parentNode = this; this.childNodes.splice(i++, 0, k); }
      touch();
      return child;
    }
    removeChild(child) {
      const i = this.childNodes.indexOf(child);
      if (i < 0) throw new Error("NotFoundError: The node to be removed is not a child of this node.");
      this.childNodes.splice(i, 1); child.parentNode = null;
      if (G.document && G.document._active && child.contains(G.document._active)) G.document._active = null;
      touch();
      return child;
    }
    replaceChild(child, old) { this.insertBefore(child, old); return this.removeChild(old); }
    remove() { if (this.parentNode) this.parentNode.removeChild(this); }
    before(...nodes) { const p = this.parentNode; if (p) for (const n of nodes) p.insertBefore(toNode(n), this); }
    after(...nodes) { const p = this.parentNode; if (!p) return; const ref = this.nextSibling; for (const n of nodes) p.insertBefore(toNode(n), ref); }
    replaceWith(...nodes) { const p = this.parentNode; if (!p) return; for (const n of nodes) p.insertBefore(toNode(n), this); this.remove(); }
    get textContent() {
      if (this.nodeType === 3) return this.data;
      let s = ""; for (const c of this.childNodes) if (c.nodeType !== 8) s += c.textContent; return s;
    }
    set textContent(v) {
      for (const c of this.childNodes) c.parentNode = null;
      this.childNodes = [];
      const s = v === null || v === undefined ? "" : String(v);
      if (s) this.appendChild(new Text(s));
      touch();
    }
    cloneNode(deep) {
      let copy;
      if (this.nodeType === 3) copy = new Text(this.data);
      else if (this.nodeType === 11) copy = new DocumentFragment();
      else { copy = createElement(this.localName); for (const [k, v] of this._attrs) copy.setAttribute(k, v); }
      if (deep) for (const c of this.childNodes) copy.appendChild(c.cloneNode(true));
      return copy;
    }
  }
  Node.ELEMENT_NODE = 1; Node.TEXT_NODE = 3; Node.DOCUMENT_NODE = 9;
  function toNode(n) { return n instanceof Node ? n : new Text(String(n)); }
  function serializeText(s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;"); }

  class Text extends Node {
    constructor(data) { super(3); this._data = String(data); }
    get data() { return this._data; }
    set data(v) { this._data = String(v); touch(); }
    get nodeValue() { return this._data; }
    set nodeValue(v) { this.data = v; }
    get nodeName() { return "#text"; }
    get length() { return this._data.length; }
    get wholeText() { return this._data; }
  }
  class Comment extends Node { constructor(d) { super(8); this.data = String(d); } get textContent() { return ""; } }
  class DocumentFragment extends Node {
    constructor() { super(11); }
    get children() { return this.childNodes.filter((c) => c.nodeType === 1); }
    querySelector(s) { return queryOne(this, s); }
    querySelectorAll(s) { return queryAll(this, s); }
    getElementById(id) { for (const el of descendants(this)) if (el.id === id) return el; return null; }
    append(...nodes) { for (const n of nodes) this.appendChild(toNode(n)); }
  }

  // camelCase <-> kebab-case for style and dataset
  const kebab = (s) => s.replace(/[A-Z]/g, (m) => "-" + m.toLowerCase());
  const camel = (s) => s.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

  class StyleDecl {
    constructor(el) { this._el = el; this._map = new Map(); }
    _parse(text) {
      this._map = new Map();
      for (const part of String(text || "").split(";")) {
        const i = part.indexOf(":");
        if (i < 0) continue;
        const k = part.slice(0, i).trim().toLowerCase(), v = part.slice(i + 1).trim();
        if (k && v) this._map.set(k, v);
      }
    }
    get cssText() { let s = ""; for (const [k, v] of this._map) s += (s ? " " : "") + k + ": " + v + ";"; return s; }
    set cssText(v) { this._parse(v); this._sync(); }
    _sync() { this._el._attrs.set("style", this.cssText); if (!this._map.size) this._el._attrs.delete("style"); touch(); }
    setProperty(k, v) { k = String(k).toLowerCase(); if (v === null || v === "" || v === undefined) this._map.delete(k); else this._map.set(k, String(v)); this._sync(); }
    getPropertyValue(k) { return this._map.get(String(k).toLowerCase()) || ""; }
    removeProperty(k) { const old = this.getPropertyValue(k); this._map.delete(String(k).toLowerCase()); this._sync(); return old; }
    get length() { return this._map.size; }
    item(i) { return Array.from(this._map.keys())[i] || ""; }
  }
  function styleProxy(decl) {
    return new Proxy(decl, {
      get(t, k) {
        if (typeof k !== "string" || k in t) { const v = t[k]; return typeof v === "function" ? v.bind(t) : v; }
        return t.getPropertyValue(k === "cssFloat" ? "float" : kebab(k));
      },
      set(t, k, v) {
        if (typeof k !== "string") return true;
        if (k === "cssText") { t.cssText = v; return true; }
        if (k.startsWith("_")) { t[k] = v; return true; }
        t.setProperty(k.startsWith("--") ? k : kebab(k), v === null || v === undefined ? "" : String(v));
        return true;
      },
    });
  }

  class TokenList {
    constructor(el) { this._el = el; }
    _list() { return this._el._classes(); }
    _set(list) { this._el.setAttribute("class", list.join(" ")); }
    get length() { return this._list().length; }
    get value() { return this._el.getAttribute("class") || ""; }
    item(i) { return this._list()[i] ?? null; }
    contains(c) { return this._list().includes(String(c)); }
    add(...cs) { const l = this._list(); for (const c of cs) if (!l.includes(String(c))) l.push(String(c)); this._set(l); }
    remove(...cs) { const l = this._list().filter((x) => !cs.map(String).includes(x)); this._set(l); }
    toggle(c, force) {
      c = String(c); const has = this.contains(c);
      const want = force === undefined ? !has : !!force;
      if (want && !has) this.add(c); else if (!want && has) this.remove(c);
      return want;
    }
    replace(a, b) { const l = this._list(); const i = l.indexOf(a); if (i < 0) return false; l[i] = b; this._set(l); return true; }
    forEach(fn) { this._list().forEach(fn); }
    [Symbol.iterator]() { return this._list()[Symbol.iterator](); }
    toString() { return this.value; }
  }
  function datasetProxy(el) {
    return new Proxy({}, {
      get(_, k) { if (typeof k !== "string") return undefined; const v = el.getAttribute("data-" + kebab(k)); return v === null ? undefined : v; },
      set(_, k, v) { el.setAttribute("data-" + kebab(String(k)), String(v)); return true; },
      deleteProperty(_, k) { el.removeAttribute("data-" + kebab(String(k))); return true; },
      has(_, k) { return el.hasAttribute("data-" + kebab(String(k))); },
      ownKeys() { return Array.from(el._attrs.keys()).filter((a) => a.startsWith("data-")).map((a) => camel(a.slice(5))); },
      getOwnPropertyDescriptor(_, k) { const v = el.getAttribute("data-" + kebab(String(k))); return v === null ? undefined : { value: v, enumerable: true, configurable: true, writable: true }; },
    });
  }

  const BOOL_ATTRS = ["hidden", "disabled", "required", "readonly", "multiple", "autofocus"];
  const STR_ATTRS = { id: "id", className: "class", name: "name", title: "title", placeholder: "placeholder", htmlFor: "for", href: "href", min: "min", max: "max", step: "step", lang: "lang", role: "role", ariaLabel: "aria-label", alt: "alt", src: "src", tabIndex: "tabindex" };
  class Element extends Node {
    constructor(tag) {
      super(1);
      this.localName = tag; this._attrs = new Map(); this._styleDecl = null; this._style = null;
    }
    get tagName() { return this.localName.toUpperCase(); }
    get nodeName() { return this.tagName; }
    _classes() { const c = this._attrs.get("class"); return c ? c.split(/\s+/).filter(Boolean) : []; }
    get attributes() { return Array.from(this._attrs, ([name, value]) => ({ name, value })); }
    getAttribute(k) { const v = this._attrs.get(String(k).toLowerCase()); return v === undefined ? null : v; }
    hasAttribute(k) { return this._attrs.has(String(k).toLowerCase()); }
    getAttributeNames() { return Array.from(this._attrs.keys()); }
    setAttribute(k, v) {
      k = String(k).toLowerCase(); v = String(v);
      this._attrs.set(k, v);
      if (k === "style") { this._decl()._parse(v); }
      else if (k.startsWith("on") && HANDLER_EVENTS.some((t) => t.toLowerCase() === k.slice(2))) setHandler(this, HANDLER_EVENTS.find((t) => t.toLowerCase() === k.slice(2)), v);
      this._attrChanged(k);
      touch();
    }
    removeAttribute(k) { k = String(k).toLowerCase(); this._attrs.delete(k); if (k === "style" && this._styleDecl) this._styleDecl._map = new Map(); this._attrChanged(k); touch(); }
    toggleAttribute(k, force) { const has = this.hasAttribute(k); const want = force === undefined ? !has : !!force; if (want && !has) this.setAttribute(k, ""); else if (!want && has) this.removeAttribute(k); return want; }
    _attrChanged() {}
    _decl() { if (!this._styleDecl) { this._styleDecl = new StyleDecl(this); this._styleDecl._parse(this._attrs.get("style")); } return this._styleDecl; }
    get style() { if (!this._style) this._style = styleProxy(this._decl()); return this._style; }
    set style(v) { this.setAttribute("style", v); }
    get classList() { return new TokenList(this); }
    get dataset() { return datasetProxy(this); }
    get children() { return this.childNodes.filter((c) => c.nodeType === 1); }
    get childElementCount() { return this.children.length; }
    get firstElementChild() { return this.children[0] || null; }
    get lastElementChild() { const c = this.children; return c[c.length - 1] || null; }
    get nextElementSibling() { let n = this.nextSibling; while (n && n.nodeType !== 1) n = n.nextSibling; return n; }
    get previousElementSibling() { let n = this.previousSibling; while (n && n.nodeType !== 1) n = n.previousSibling; return n; }
    querySelector(s) { return queryOne(this, s); }
    querySelectorAll(s) { return queryAll(this, s); }
    getElementsByTagName(t) { t = String(t).toLowerCase(); return Array.from(descendants(this)).filter((e) => t === "*" || e.localName === t); }
    getElementsByClassName(c) { const want = String(c).split(/\s+/).filter(Boolean); return Array.from(descendants(this)).filter((e) => want.every((w) => e._classes().includes(w))); }
    matches(s) { return matches(this, parseSelector(String(s))); }
    closest(s) { const g = parseSelector(String(s)); for (let n = this; n && n.nodeType === 1; n = n.parentNode) if (matches(n, g)) return n; return null; }
    append(...nodes) { for (const n of nodes) this.appendChild(toNode(n)); }
    prepend(...nodes) { const ref = this.firstChild; for (const n of nodes) this.insertBefore(toNode(n), ref); }
    replaceChildren(...nodes) { for (const c of this.childNodes) c.parentNode = null; this.childNodes = []; touch(); this.append(...nodes); }
    insertAdjacentElement(where, el) { return insertAdjacent(this, where, el); }
    insertAdjacentText(where, s) { insertAdjacent(this, where, new Text(s)); }
    insertAdjacentHTML(where, html) { for (const n of fragment(html)) insertAdjacent(this, where, n); }
    get innerHTML() { return this.childNodes.map(serialize).join(""); }
    set innerHTML(v) { this.replaceChildren(...fragment(String(v))); }
    get outerHTML() { return serialize(this); }
    get innerText() { return this.textContent; }
    set innerText(v) { this.textContent = v; }
    get hidden() { return this.hasAttribute("hidden"); }
    set hidden(v) { this.toggleAttribute("hidden", !!v); }
    focus() { if (!this._isDisabled()) { G.document._active = this; touch(); } }
    blur() { if (G.document._active === this) { G.document._active = null; touch(); } }
    click() { if (!this._isDisabled()) activate(this, { offsetX: 0, offsetY: 0 }); }
    _isDisabled() { return false; }
    getBoundingClientRect() { return { x: 0, y: 0, left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0 }; }
    getClientRects() { return []; }
    scrollIntoView() {}
    get offsetWidth() { return 0; }
    get offsetHeight() { return 0; }
    get clientWidth() { return 0; }
    get clientHeight() { return 0; }
    get scrollTop() { return 0; }
    set scrollTop(v) {}
  }
  for (const a of BOOL_ATTRS) {
    Object.defineProperty(Element.prototype, a === "readonly" ? "readOnly" : a, {
      get() { return this.hasAttribute(a); }, set(v) { this.toggleAttribute(a, !!v); }, configurable: true,
    });
  }
  for (const [prop, attr] of Object.entries(STR_ATTRS)) {
    Object.defineProperty(Element.prototype, prop, {
      get() { return this.getAttribute(attr) ?? ""; }, set(v) { this.setAttribute(attr, v); }, configurable: true,
    });
  }
  defineHandlers(Element.prototype);
  function insertAdjacent(el, where, node) {
    where = String(where).toLowerCase();
    if (where === "beforebegin") el.parentNode && el.parentNode.insertBefore(node, el);
    else if (where === "afterbegin") el.insertBefore(node, el.firstChild);
    else if (where === "beforeend") el.appendChild(node);
    else if (where === "afterend") el.parentNode && el.parentNode.insertBefore(node, el.nextSibling);
    return node;
  }
  const VOID = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];
  function serialize(n) {
    if (n.nodeType === 3) return serializeText(n.data);
    if (n.nodeType !== 1) return "";
    let s = "<" + n.localName;
    for (const [k, v] of n._attrs) s += " " + k + '="' + v.replace(/&/g, "&amp;").replace(/"/g, "&quot;") + '"';
    s += ">";
    if (VOID.includes(n.localName)) return s;
    if (n.localName === "script" || n.localName === "style") s += n.textContent;
    else s += n.childNodes.map(serialize).join("");
    return s + "</" + n.localName + ">";
  }
  function build(json) {
    if (typeof json === "string") return new Text(json);
    const el = createElement(json[0]);
    for (const k in json[1]) el.setAttribute(k, json[1][k]);
    for (const c of json[2]) el.appendChild(build(c));
    el._parsed();
    return el;
  }
  // innerHTML's markup: the same tree-building rules as the document's parser
  // (web/html.py), for the subset a page writes
  const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", times: "\u00d7", copy: "\u00a9", middot: "\u00b7", hellip: "\u2026", mdash: "\u2014", ndash: "\u2013", larr: "\u2190", rarr: "\u2192", uarr: "\u2191", darr: "\u2193", check: "\u2713", bull: "\u2022", deg: "\u00b0", divide: "\u00f7", plusmn: "\u00b1" };
  function decode(s) {
    return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);?/g, (m, e) => {
      if (e[0] === "#") { const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10); return n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m; }
      return ENTITIES[e] ?? m;
    });
  }
  const CLOSES_P = ["address", "article", "aside", "blockquote", "div", "dl", "fieldset", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol", "p", "pre", "section", "table", "ul"];
  function fragment(markup) {
    const root = new DocumentFragment();
    const stack = [root];
    const top = () => stack[stack.length - 1];
    const re = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][\w-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|<|[^<]+/g;
    let m;
    while ((m = re.exec(markup)) !== null) {
      const tok = m[0];
      if (tok.startsWith("<!--")) continue;
      if (m[2] === undefined) { top().appendChild(new Text(decode(tok))); continue; }
      const tag = m[2].toLowerCase();
      if (m[1]) {
        for (let i = stack.length - 1; i > 0; i--) if (stack[i].localName === tag) { stack.length = i; break; }
        continue;
      }
      if ((tag === "p" || CLOSES_P.includes(tag)) && top().localName === "p") stack.pop();
      if ((tag === "li" || tag === "option") && top().localName === tag) stack.pop();
      const el = createElement(tag);
      const are = /([^\s=\/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
      let a;
      while ((a = are.exec(m[3])) !== null) { const k = a[1].toLowerCase(); if (!el.hasAttribute(k)) el.setAttribute(k, decode(a[2] ?? a[3] ?? a[4] ?? "")); }
      top().appendChild(el);
      if (tag === "script" || tag === "style" || tag === "textarea" || tag === "title") {
        const end = markup.toLowerCase().indexOf("</" + tag, re.lastIndex);
        const text = markup.slice(re.lastIndex, end < 0 ? markup.length : end);
        if (text) el.appendChild(new Text(tag === "textarea" || tag === "title" ? decode(text) : text));
        re.lastIndex = end < 0 ? markup.length : markup.indexOf(">", end) + 1 || markup.length;
        el._parsed();
        continue;
      }
      if (!VOID.includes(tag) && !/\/\s*$/.test(m[3])) stack.push(el); else el._parsed();
    }
    for (let i = stack.length - 1; i > 0; i--) stack[i]._parsed();
    const kids = root.childNodes.slice();
    for (const k of kids) k.parentNode = null;
    root.childNodes = [];
    return kids;
  }

  // --- form controls ------------------------------------------------------------------------
  function clampStep(el, v) {
    const min = parseFloat(el.getAttribute("min")), max = parseFloat(el.getAttribute("max"));
    const lo = isNaN(min) ? 0 : min, hi = isNaN(max) ? 100 : Math.max(max, lo);
    let x = parseFloat(v);
    if (isNaN(x)) x = lo + (hi - lo) / 2;
    x = Math.min(hi, Math.max(lo, x));
    const stepAttr = el.getAttribute("step");
    if (stepAttr !== "any") {
      const st = parseFloat(stepAttr); const step = isNaN(st) || st <= 0 ? 1 : st;
      x = lo + Math.round((x - lo) / step) * step;
      if (x > hi) x -= step;
      x = parseFloat(x.toFixed(10));
    }
    return String(x);
  }
  class FormControl extends Element {
    _isDisabled() {
      if (this.hasAttribute("disabled")) return true;
      for (let p = this.parentNode; p && p.nodeType === 1; p = p.parentNode) if (p.localName === "fieldset" && p.hasAttribute("disabled")) return true;
      return false;
    }
    get form() { return this.closest("form"); }
    get labels() { return Array.from(descendants(G.document)).filter((l) => l.localName === "label" && l.control === this); }
  }
  class InputElement extends FormControl {
    constructor(tag) { super(tag); this._value = null; this._checked = null; this._lastChange = null; }
    get type() { const t = (this.getAttribute("type") || "text").toLowerCase(); return ["text", "number", "password", "checkbox", "radio", "range", "email", "tel", "search", "url", "button", "submit", "reset", "hidden", "color", "date", "time"].includes(t) ? t : "text"; }
    set type(v) { this.setAttribute("type", v); }
    get value() {
      const t = this.type;
      if (t === "checkbox" || t === "radio") return this.getAttribute("value") ?? "on";
      if (t === "range") return clampStep(this, this._value ?? this.getAttribute("value"));
      const v = this._value ?? this.getAttribute("value") ?? "";
      if (t === "number") return v.trim() !== "" && !isNaN(Number(v)) ? v.trim() : "";
      return t === "text" || t === "password" || t === "search" ? v.replace(/[\r\n]/g, "") : v;
    }
    set value(v) {
      const t = this.type;
      if (t === "checkbox" || t === "radio") { this.setAttribute("value", v); return; }
      this._value = v === null || v === undefined ? "" : String(v);
      if (t === "range") this._value = clampStep(this, this._value);
      touch();
    }
    get valueAsNumber() { const n = parseFloat(this.value); return isNaN(n) ? NaN : n; }
    set valueAsNumber(n) { this.value = String(n); }
    get defaultValue() { return this.getAttribute("value") ?? ""; }
    set defaultValue(v) { this.setAttribute("value", v); }
    get checked() { return this._checked ?? this.hasAttribute("checked"); }
    set checked(v) {
      this._checked = !!v;
      if (this._checked && this.type === "radio") uncheckGroup(this);
      touch();
    }
    get defaultChecked() { return this.hasAttribute("checked"); }
    set defaultChecked(v) { this.toggleAttribute("checked", !!v); }
    _checkedState() { return (this.type === "checkbox" || this.type === "radio") && this.checked; }
    _attrChanged(k) { if (k === "checked" && this._checked === null && this.hasAttribute("checked") && this.type === "radio") uncheckGroup(this); }
    _parsed() { if (this.hasAttribute("checked") && this.type === "radio") uncheckGroup(this); }
    select() {}
    setSelectionRange() {}
  }
  function uncheckGroup(el) {
    const name = el.getAttribute("name");
    if (!name) return;
    const root = el.getRootNode();
    for (const other of descendants(root)) {
      if (other !== el && other.localName === "input" && other.type === "radio" && other.getAttribute("name") === name && other.checked) {
        other._checked = false;
      }
    }
  }
  class TextAreaElement extends FormControl {
    constructor(tag) { super(tag); this._value = null; this._lastChange = null; }
    get value() { return this._value ?? this.textContent; }
    set value(v) { this._value = v === null || v === undefined ? "" : String(v); touch(); }
    get defaultValue() { return this.textContent; }
    set defaultValue(v) { this.textContent = v; }
    get type() { return "textarea"; }
    select() {}
  }
  class SelectElement extends FormControl {
    get options() { return Array.from(descendants(this)).filter((e) => e.localName === "option"); }
    get length() { return this.options.length; }
    get type() { return this.hasAttribute("multiple") ? "select-multiple" : "select-one"; }
    get selectedIndex() {
      const opts = this.options;
      let last = -1;
      for (let i = 0; i < opts.length; i++) if (opts[i].selected) last = i;
      if (last >= 0) return last;
      return opts.findIndex((o) => !o._isDisabled());
    }
    set selectedIndex(i) {
      const opts = this.options;
      for (let k = 0; k < opts.length; k++) opts[k]._selected = k === Number(i);
      touch();
    }
    get selectedOptions() { const i = this.selectedIndex; return i >= 0 ? [this.options[i]] : []; }
    get value() { const i = this.selectedIndex; return i >= 0 ? this.options[i].value : ""; }
    set value(v) { const opts = this.options; const i = opts.findIndex((o) => o.value === String(v)); this.selectedIndex = i; }
    item(i) { return this.options[i] || null; }
    add(opt, before) { this.insertBefore(opt, typeof before === "number" ? this.options[before] || null : before || null); }
  }
  class OptionElement extends Element {
    constructor(tag) { super(tag); this._selected = null; }
    get value() { return this.getAttribute("value") ?? this.text; }
    set value(v) { this.setAttribute("value", v); }
    get text() { return this.textContent.replace(/\s+/g, " ").trim(); }
    set text(v) { this.textContent = v; }
    get label() { return this.getAttribute("label") ?? this.text; }
    get select() { for (let p = this.parentNode; p; p = p.parentNode) if (p.localName === "select") return p; return null; }
    get selected() {
      if (this._selected !== null) return this._selected;
      if (!this.hasAttribute("selected")) return false;
      const sel = this.select;  // the last option marked selected wins
      if (sel) for (const o of sel.options.slice(sel.options.indexOf(this) + 1)) if (o._selected === null && o.hasAttribute("selected")) return false;
      return true;
    }
    set selected(v) {
      const sel = this.select;
      if (v && sel) for (const o of sel.options) o._selected = o === this;
      else this._selected = !!v;
      touch();
    }
    get defaultSelected() { return this.hasAttribute("selected"); }
    get index() { const s = this.select; return s ? s.options.indexOf(this) : 0; }
    _isDisabled() { return this.hasAttribute("disabled"); }
  }
  G.Option = function (text, value, defSel, sel) { const o = createElement("option"); if (text !== undefined) o.text = text; if (value !== undefined) o.value = value; if (defSel) o.setAttribute("selected", ""); if (sel) o.selected = true; return o; };
  class ButtonElement extends FormControl {
    get type() { return (this.getAttribute("type") || "submit").toLowerCase(); }
    set type(v) { this.setAttribute("type", v); }
    get value() { return this.getAttribute("value") ?? ""; }
    set value(v) { this.setAttribute("value", v); }
  }
  class LabelElement extends Element {
    get control() {
      const f = this.getAttribute("for");
      if (f !== null) { const el = G.document.getElementById(f); return el && isLabelable(el) ? el : null; }
      for (const el of descendants(this)) if (isLabelable(el)) return el;
      return null;
    }
  }
  const isLabelable = (el) => ["input", "select", "textarea", "button"].includes(el.localName) && !(el.localName === "input" && el.type === "hidden");

  // --- canvas -------------------------------------------------------------------------------
  // The 2D context rasterises into its own RGBA buffer (no anti-aliasing: a colour drawn
  // is exactly that colour), so getImageData never leaves the page; Python reads the
  // pixels for the screen with __canvas_pixels.
  const MAX_CANVAS_PIXELS = 4096 * 4096;
  const colorCache = new Map();
  let colorProbe = null;
  function parseColor(c) {
    c = String(c).trim().toLowerCase();
    let hit = colorCache.get(c);
    if (hit !== undefined) return hit;
    hit = null;
    let m;
    if ((m = /^#([0-9a-f]{3,8})$/.exec(c))) {
      let h = m[1];
      if (h.length === 3 || h.length === 4) h = h.split("").map((x) => x + x).join("");
      if (h.length === 6 || h.length === 8) hit = [0, 2, 4, 6].map((i) => (i < h.length ? parseInt(h.slice(i, i + 2), 16) : 255));
    } else if ((m = /^rgba?\(([^)]*)\)$/.exec(c))) {
      const p = m[1].split(/[\s,\/]+/).filter(Boolean);
      if (p.length >= 3) {
        const ch = (x) => Math.max(0, Math.min(255, Math.round(x.endsWith("%") ? parseFloat(x) * 2.55 : parseFloat(x))));
        const a = p.length > 3 ? (p[3].endsWith("%") ? parseFloat(p[3]) / 100 : parseFloat(p[3])) : 1;
        hit = [ch(p[0]), ch(p[1]), ch(p[2]), Math.round(255 * Math.max(0, Math.min(1, isNaN(a) ? 1 : a)))];
      }
    } else if (c === "transparent") hit = [0, 0, 0, 0];
    else if (NAMED_COLORS[c]) hit = parseColor(NAMED_COLORS[c]);
    colorCache.set(c, hit);
    return hit;
  }
  const NAMED_COLORS = {"aliceblue":"#f0f8ff","antiquewhite":"#faebd7","aqua":"#00ffff","aquamarine":"#7fffd4","azure":"#f0ffff","beige":"#f5f5dc","bisque":"#ffe4c4","black":"#000000","blanchedalmond":"#ffebcd","blue":"#0000ff","blueviolet":"#8a2be2","brown":"#a52a2a","burlywood":"#deb887","cadetblue":"#5f9ea0","chartreuse":"#7fff00","chocolate":"#d2691e","coral":"#ff7f50","cornflowerblue":"#6495ed","cornsilk":"#fff8dc","crimson":"#dc143c","cyan":"#00ffff","darkblue":"#00008b","darkcyan":"#008b8b","darkgoldenrod":"#b8860b","darkgray":"#a9a9a9","darkgrey":"#a9a9a9","darkgreen":"#006400","darkkhaki":"#bdb76b","darkmagenta":"#8b008b","darkolivegreen":"#556b2f","darkorange":"#ff8c00","darkorchid":"#9932cc","darkred":"#8b0000","darksalmon":"#e9967a","darkseagreen":"#8fbc8f","darkslateblue":"#483d8b","darkslategray":"#2f4f4f","darkslategrey":"#2f4f4f","darkturquoise":"#00ced1","darkviolet":"#9400d3","deeppink":"#ff1493","deepskyblue":"#00bfff","dimgray":"#696969","dimgrey":"#696969","dodgerblue":"#1e90ff","firebrick":"#b22222","floralwhite":"#fffaf0","forestgreen":"#228b22","fuchsia":"#ff00ff","gainsboro":"#dcdcdc","ghostwhite":"#f8f8ff","gold":"#ffd700","goldenrod":"#daa520","gray":"#808080","grey":"#808080","green":"#008000","greenyellow":"#adff2f","honeydew":"#f0fff0","hotpink":"#ff69b4","indianred":"#cd5c5c","indigo":"#4b0082","ivory":"#fffff0","khaki":"#f0e68c","lavender":"#e6e6fa","lavenderblush":"#fff0f5","lawngreen":"#7cfc00","lemonchiffon":"#fffacd","lightblue":"#add8e6","lightcoral":"#f08080","lightcyan":"#e0ffff","lightgoldenrodyellow":"#fafad2","lightgreen":"#90ee90","lightgray":"#d3d3d3","lightgrey":"#d3d3d3","lightpink":"#ffb6c1","lightsalmon":"#ffa07a","lightseagreen":"#20b2aa","lightskyblue":"#87cefa","lightslategray":"#778899","lightslategrey":"#778899","lightsteelblue":"#b0c4de","lightyellow":"#ffffe0","lime":"#00ff00","limegreen":"#32cd32","linen":"#faf0e6","magenta":"#ff00ff","maroon":"#800000","mediumaquamarine":"#66cdaa","mediumblue":"#0000cd","mediumorchid":"#ba55d3","mediumpurple":"#9370db","mediumseagreen":"#3cb371","mediumslateblue":"#7b68ee","mediumspringgreen":"#00fa9a","mediumturquoise":"#48d1cc","mediumvioletred":"#c71585","midnightblue":"#191970","mintcream":"#f5fffa","mistyrose":"#ffe4e1","moccasin":"#ffe4b5","navajowhite":"#ffdead","navy":"#000080","oldlace":"#fdf5e6","olive":"#808000","olivedrab":"#6b8e23","orange":"#ffa500","orangered":"#ff4500","orchid":"#da70d6","palegoldenrod":"#eee8aa","palegreen":"#98fb98","paleturquoise":"#afeeee","palevioletred":"#db7093","papayawhip":"#ffefd5","peachpuff":"#ffdab9","peru":"#cd853f","pink":"#ffc0cb","plum":"#dda0dd","powderblue":"#b0e0e6","purple":"#800080","rebeccapurple":"#663399","red":"#ff0000","rosybrown":"#bc8f8f","royalblue":"#4169e1","saddlebrown":"#8b4513","salmon":"#fa8072","sandybrown":"#f4a460","seagreen":"#2e8b57","seashell":"#fff5ee","sienna":"#a0522d","silver":"#c0c0c0","skyblue":"#87ceeb","slateblue":"#6a5acd","slategray":"#708090","slategrey":"#708090","snow":"#fffafa","springgreen":"#00ff7f","steelblue":"#4682b4","tan":"#d2b48c","teal":"#008080","thistle":"#d8bfd8","tomato":"#ff6347","turquoise":"#40e0d0","violet":"#ee82ee","wheat":"#f5deb3","white":"#ffffff","whitesmoke":"#f5f5f5","yellow":"#ffff00","yellowgreen":"#9acd32"};
  class CanvasElement extends Element {
    constructor(tag) { super(tag); this._ctx = null; this._version = 0; this._buf = null; }
    get width() { const w = parseInt(this.getAttribute("width")); return isNaN(w) || w < 0 ? 300 : w; }
    set width(v) { this.setAttribute("width", String(Math.max(0, parseInt(v) || 0))); }
    get height() { const h = parseInt(this.getAttribute("height")); return isNaN(h) || h < 0 ? 150 : h; }
    set height(v) { this.setAttribute("height", String(Math.max(0, parseInt(v) || 0))); }
    _attrChanged(k) { if (k === "width" || k === "height") { this._buf = null; if (this._ctx) this._ctx._reset(); this._drawn(); } }
    _drawn() { this._version++; touch(); }
    _pixels() {
      if (!this._buf) {
        const w = this.width, h = this.height;
        this._buf = new Uint8ClampedArray(w * h <= MAX_CANVAS_PIXELS ? w * h * 4 : 0);
      }
      return this._buf;
    }
    getContext(kind) { if (kind !== "2d") return null; if (!this._ctx) this._ctx = new Context2D(this); return this._ctx; }
    toDataURL() { return "data:,"; }
  }
  G.__canvas_pixels = function (nid) {
    const c = byNid.get(nid);
    if (!c || !(c instanceof CanvasElement)) return "";
    const d = c._pixels();
    // runs of equal pixels, each six bytes: its length (big-endian 16 bits) and its RGBA;
    // one character per byte, offset by 256 (the binding cuts a string at a NUL character).
    // A canvas is mostly runs: a few thousand characters instead of four per pixel.
    const px = new Uint32Array(d.buffer, d.byteOffset, d.length >> 2);
    const out = [];
    let s = "";
    const n = px.length;
    let i = 0;
    while (i < n) {
      const v = px[i];
      let j = i + 1;
      while (j < n && j - i < 65535 && px[j] === v) j++;
      const len = j - i, k = i * 4;
      out.push(256 + (len >> 8), 256 + (len & 255), 256 + d[k], 256 + d[k + 1], 256 + d[k + 2], 256 + d[k + 3]);
      if (out.length >= 8184) { s += String.fromCharCode.apply(null, out); out.length = 0; }
      i = j;
    }
    return s + String.fromCharCode.apply(null, out);
  };
  function orient(poly) {
    let a = 0;
    for (let i = 0, n = poly.length; i < n; i += 2) { const j = (i + 2) % n; a += poly[i] * poly[j + 1] - poly[j] * poly[i + 1]; }
    if (a >= 0) return poly;
    const out = [];
    for (let i = poly.length - 2; i >= 0; i -= 2) out.push(poly[i], poly[i + 1]);
    return out;
  }
  // fill polygons (flat x,y lists, closed) under the non-zero rule; rgba null clears
  function fillPolys(canvas, polys, rgba) {
    const w = canvas.width, h = canvas.height, d = canvas._pixels();
    if (!d.length) return;
    const edges = [];
    let y0 = Infinity, y1 = -Infinity;
    for (const p of polys) {
      const n = p.length;
      if (n < 6) continue;
      for (let i = 0; i < n; i += 2) {
        const ax = p[i], ay = p[i + 1], bx = p[(i + 2) % n], by = p[(i + 3) % n];
        if (ay === by || !isFinite(ax + ay + bx + by)) continue;
        const dir = by > ay ? 1 : -1;
        const lo = Math.min(ay, by), hi = Math.max(ay, by);
        edges.push([lo, hi, ax, ay, (bx - ax) / (by - ay), dir]);
        y0 = Math.min(y0, lo); y1 = Math.max(y1, hi);
      }
    }
    if (!edges.length) return;
    const ys = Math.max(0, Math.ceil(y0 - 0.5)), ye = Math.min(h - 1, Math.floor(y1 - 0.5));
    const sa = rgba ? rgba[3] / 255 : 0;
    for (let y = ys; y <= ye; y++) {
      const yc = y + 0.5, xs = [];
      for (const e of edges) if (yc >= e[0] && yc < e[1]) xs.push([e[2] + (yc - e[3]) * e[4], e[5]]);
      if (xs.length < 2) continue;
      xs.sort((a, b) => a[0] - b[0]);
      let wind = 0;
      for (let k = 0; k < xs.length - 1; k++) {
        wind += xs[k][1];
        if (!wind) continue;
        const xa = Math.max(0, Math.ceil(xs[k][0] - 0.5)), xb = Math.min(w, Math.ceil(xs[k + 1][0] - 0.5));
        for (let x = xa, o = (y * w + xa) * 4; x < xb; x++, o += 4) {
          if (!rgba) { d[o] = d[o + 1] = d[o + 2] = d[o + 3] = 0; }
          else if (sa >= 1) { d[o] = rgba[0]; d[o + 1] = rgba[1]; d[o + 2] = rgba[2]; d[o + 3] = 255; }
          else if (sa > 0) {
            const da = d[o + 3] / 255, oa = sa + da * (1 - sa);
            for (let c = 0; c < 3; c++) d[o + c] = (rgba[c] * sa + d[o + c] * da * (1 - sa)) / oa;
            d[o + 3] = oa * 255;
          }
        }
      }
    }
  }
  function circlePoly(x, y, r) {
    const n = Math.max(8, Math.min(64, Math.ceil(r * 2))), out = [];
    for (let i = 0; i < n; i++) { const a = 2 * Math.PI * i / n; out.push(x + r * Math.cos(a), y + r * Math.sin(a)); }
    return out;
  }
  function strokePolys(path, width, cap) {
    const r = Math.max(0.5, width / 2), polys = [];
    for (const sub of path) {
      const pts = [];
      for (let i = 1; i + 1 < sub.length; i += 2) {
        const n = pts.length;
        if (!n || pts[n - 2] !== sub[i] || pts[n - 1] !== sub[i + 1]) pts.push(sub[i], sub[i + 1]);
      }
      if (sub[0] && pts.length > 4) pts.push(pts[0], pts[1]);
      const n = pts.length / 2;
      if (n === 1) { if (cap === "round") polys.push(circlePoly(pts[0], pts[1], r)); else if (cap === "square") polys.push(orient([pts[0] - r, pts[1] - r, pts[0] + r, pts[1] - r, pts[0] + r, pts[1] + r, pts[0] - r, pts[1] + r])); continue; }
      for (let i = 0; i < n - 1; i++) {
        let ax = pts[2 * i], ay = pts[2 * i + 1], bx = pts[2 * i + 2], by = pts[2 * i + 3];
        const len = Math.hypot(bx - ax, by - ay), ux = (bx - ax) / len, uy = (by - ay) / len;
        if (cap === "square" && !sub[0]) {
          if (i === 0) { ax -= ux * r; ay -= uy * r; }
          if (i === n - 2) { bx += ux * r; by += uy * r; }
        }
        const nx = -uy * r, ny = ux * r;
        polys.push(orient([ax + nx, ay + ny, bx + nx, by + ny, bx - nx, by - ny, ax - nx, ay - ny]));
        if (i > 0 || sub[0]) polys.push(circlePoly(ax, ay, r));  // joins: round
      }
      if (cap === "round" && !sub[0]) { polys.push(circlePoly(pts[0], pts[1], r)); polys.push(circlePoly(pts[2 * n - 2], pts[2 * n - 1], r)); }
    }
    return polys;
  }
  class Context2D {
    constructor(canvas) { this.canvas = canvas; this._reset(); }
    _reset() {
      this.fillStyle = "#000000"; this.strokeStyle = "#000000"; this.lineWidth = 1; this.lineCap = "butt";
      this.lineJoin = "miter"; this.globalAlpha = 1; this.font = "10px sans-serif"; this.textAlign = "start";
      this.textBaseline = "alphabetic"; this.globalCompositeOperation = "source-over";
      this._m = [1, 0, 0, 1, 0, 0]; this._stack = []; this._path = []; this._cur = null;
    }
    _rgba(style) {
      const c = typeof style === "string" ? parseColor(style) : null;
      if (!c) return null;
      const a = Math.max(0, Math.min(1, +this.globalAlpha));
      return [c[0], c[1], c[2], Math.round(c[3] * (isNaN(a) ? 1 : a))];
    }
    _paint(polys, style, clear) {
      const rgba = clear ? null : this._rgba(style);
      if (!clear && (!rgba || rgba[3] === 0)) return;
      if (!clear && rgba[3] === 255) for (const p of polys) fillPolys(this.canvas, [p], rgba);
      else fillPolys(this.canvas, polys.map(orient), rgba);
      this.canvas._drawn();
    }
    _pt(x, y) { const m = this._m; return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]; }
    save() { this._stack.push([this.fillStyle, this.strokeStyle, this.lineWidth, this.lineCap, this.lineJoin, this.globalAlpha, this.font, this.textAlign, this.textBaseline, this._m.slice()]); }
    restore() { const s = this._stack.pop(); if (s) [this.fillStyle, this.strokeStyle, this.lineWidth, this.lineCap, this.lineJoin, this.globalAlpha, this.font, this.textAlign, this.textBaseline, this._m] = s; }
    setTransform(a, b, c, d, e, f) { this._m = typeof a === "object" ? [a.a, a.b, a.c, a.d, a.e, a.f] : [a, b, c, d, e, f].map(Number); }
    resetTransform() { this._m = [1, 0, 0, 1, 0, 0]; }
    transform(a, b, c, d, e, f) { const m = this._m; this._m = [m[0] * a + m[2] * b, m[1] * a + m[3] * b, m[0] * c + m[2] * d, m[1] * c + m[3] * d, m[0] * e + m[2] * f + m[4], m[1] * e + m[3] * f + m[5]]; }
    translate(x, y) { this.transform(1, 0, 0, 1, +x, +y); }
    scale(x, y) { this.transform(+x, 0, 0, +y, 0, 0); }
    rotate(a) { const c = Math.cos(a), s = Math.sin(a); this.transform(c, s, -s, c, 0, 0); }
    beginPath() { this._path = []; this._cur = null; }
    moveTo(x, y) { if (!isFinite(x) || !isFinite(y)) return; this._cur = this._pt(+x, +y); this._path.push([false, this._cur[0], this._cur[1]]); }
    lineTo(x, y) {
      if (!isFinite(x) || !isFinite(y)) return;
      const p = this._pt(+x, +y);
      if (!this._path.length) this._path.push([false, p[0], p[1]]);
      else this._path[this._path.length - 1].push(p[0], p[1]);
      this._cur = p;
    }
    closePath() { const sp = this._path[this._path.length - 1]; if (sp) { sp[0] = true; this._cur = [sp[1], sp[2]]; this._path.push([false, sp[1], sp[2]]); } }
    rect(x, y, w, h) { this.moveTo(x, y); this.lineTo(+x + +w, y); this.lineTo(+x + +w, +y + +h); this.lineTo(x, +y + +h); this.closePath(); }
    arc(x, y, r, a0, a1, ccw) {
      x = +x; y = +y; r = +r; a0 = +a0; a1 = +a1;
      if (![x, y, r, a0, a1].every(isFinite)) return;
      if (r < 0) throw new RangeError("Failed to execute 'arc': The radius provided (" + r + ") is negative.");
      const full = 2 * Math.PI;
      let sweep = a1 - a0;
      if (!ccw) sweep = sweep >= full ? full : sweep < 0 ? ((sweep % full) + full) % full : sweep;
      else sweep = sweep <= -full ? -full : sweep > 0 ? ((sweep % full) - full) % full : sweep;
      const n = Math.max(8, Math.min(256, Math.ceil(Math.abs(sweep) * Math.max(r, 1) / 2)));
      for (let i = 0; i <= n; i++) {
        const a = a0 + sweep * i / n;
        const px = x + r * Math.cos(a), py = y + r * Math.sin(a);
        if (i === 0 && this._cur === null) this.moveTo(px, py); else this.lineTo(px, py);
      }
    }
    ellipse(x, y, rx, ry, rot, a0, a1, ccw) { const m = this._m.slice(); this.translate(x, y); this.rotate(rot || 0); this.scale(rx, ry); this.arc(0, 0, 1, a0, a1, ccw); this._m = m; }
    quadraticCurveTo(cx, cy, x, y) { this.lineTo(x, y); }
    bezierCurveTo(a, b, c, d, x, y) { this.lineTo(x, y); }
    arcTo(x1, y1, x2, y2) { this.lineTo(x1, y1); }
    fill() { this._paint(this._path.map((s) => s.slice(1)), this.fillStyle, false); }
    stroke() {
      const m = this._m, scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
      this._paint(strokePolys(this._path, Math.max(0, +this.lineWidth || 1) * scale, this.lineCap), this.strokeStyle, false);
    }
    _quad(x, y, w, h) { return [this._pt(x, y), this._pt(x + w, y), this._pt(x + w, y + h), this._pt(x, y + h)].flat(); }
    fillRect(x, y, w, h) { if ([x, y, w, h].every(isFinite)) this._paint([this._quad(+x, +y, +w, +h)], this.fillStyle, false); }
    strokeRect(x, y, w, h) {
      if (![x, y, w, h].every(isFinite)) return;
      const p = this._quad(+x, +y, +w, +h);
      this._paint(strokePolys([[true, ...p]], Math.max(0, +this.lineWidth || 1), "butt"), this.strokeStyle, false);
    }
    clearRect(x, y, w, h) { if ([x, y, w, h].every(isFinite)) this._paint([this._quad(+x, +y, +w, +h)], null, true); }
    fillText() {}
    strokeText() {}
    measureText(s) { const m = /(\d+(?:\.\d+)?)px/.exec(this.font); return { width: String(s).length * (m ? parseFloat(m[1]) : 10) * 0.55 }; }
    setLineDash() {}
    getLineDash() { return []; }
    createLinearGradient() { return { addColorStop() {} }; }
    createRadialGradient() { return { addColorStop() {} }; }
    isPointInPath() { return false; }
    drawImage() {}
    createImageData(w, h) { if (typeof w === "object") { h = w.height; w = w.width; } return { width: w, height: h, data: new Uint8ClampedArray(Math.max(0, w * h * 4)) }; }
    putImageData(img, dx, dy) {
      const c = this.canvas, d = c._pixels(), W = c.width, H = c.height;
      for (let y = 0; y < img.height; y++) {
        const ty = y + Math.floor(dy); if (ty < 0 || ty >= H) continue;
        for (let x = 0; x < img.width; x++) {
          const tx = x + Math.floor(dx); if (tx < 0 || tx >= W) continue;
          const s = (y * img.width + x) * 4, o = (ty * W + tx) * 4;
          for (let k = 0; k < 4; k++) d[o + k] = img.data[s + k];
        }
      }
      c._drawn();
    }
    getImageData(x, y, w, h) {
      x = Math.floor(+x); y = Math.floor(+y); w = Math.floor(+w); h = Math.floor(+h);
      if (!(w > 0 && h > 0)) throw new RangeError("Failed to execute 'getImageData' on 'CanvasRenderingContext2D': The source width is 0.");
      const c = this.canvas, src = c._pixels(), W = c.width, H = c.height;
      const data = new Uint8ClampedArray(w * h * 4);
      for (let yy = 0; yy < h; yy++) {
        const sy = y + yy; if (sy < 0 || sy >= H) continue;
        const x0 = Math.max(0, x), x1 = Math.min(W, x + w);
        if (x1 > x0) data.set(src.subarray((sy * W + x0) * 4, (sy * W + x1) * 4), (yy * w + (x0 - x)) * 4);
      }
      return { width: w, height: h, data: data, colorSpace: "srgb" };
    }
  }
  G.CanvasRenderingContext2D = Context2D;
  G.ImageData = function (w, h) { this.width = w; this.height = h; this.data = new Uint8ClampedArray(w * h * 4); };

  // --- elements by tag ------------------------------------------------------------------------
  const CLASSES = { input: InputElement, textarea: TextAreaElement, select: SelectElement, option: OptionElement, button: ButtonElement, label: LabelElement, canvas: CanvasElement };
  function createElement(tag) {
    tag = String(tag).toLowerCase();
    const C = CLASSES[tag] || Element;
    const el = new C(tag);
    return el;
  }
  Element.prototype._parsed = function () {};
  G.Node = Node; G.Element = Element; G.HTMLElement = Element; G.Text = Text; G.DocumentFragment = DocumentFragment;
  G.HTMLInputElement = InputElement; G.HTMLSelectElement = SelectElement; G.HTMLButtonElement = ButtonElement;
  G.HTMLCanvasElement = CanvasElement; G.HTMLTextAreaElement = TextAreaElement; G.HTMLOptionElement = OptionElement;
  G.HTMLLabelElement = LabelElement; G.EventTarget = EventTarget;

  class Document extends Node {
    constructor() { super(9); this._active = null; this.readyState = "loading"; }
    get documentElement() { return this.children[0] || null; }
    get children() { return this.childNodes.filter((c) => c.nodeType === 1); }
    get head() { const h = this.documentElement; return h ? h.children.find((c) => c.localName === "head") || null : null; }
    get body() { const h = this.documentElement; return h ? h.children.find((c) => c.localName === "body") || null : null; }
    get title() { const t = queryOne(this, "title"); return t ? t.textContent.replace(/\s+/g, " ").trim() : ""; }
    set title(v) { let t = queryOne(this, "title"); if (!t && this.head) { t = createElement("title"); this.head.appendChild(t); } if (t) t.textContent = v; }
    get activeElement() { return this._active && this._active.isConnected ? this._active : this.body; }
    get defaultView() { return G; }
    get nodeName() { return "#document"; }
    get location() { return G.location; }
    get cookie() { return ""; }
    set cookie(v) {}
    createElement(tag) { return createElement(tag); }
    createElementNS(ns, tag) { return createElement(tag); }
    createTextNode(s) { return new Text(s); }
    createComment(s) { return new Comment(s); }
    createDocumentFragment() { return new DocumentFragment(); }
    createEvent() { return new Event(""); }
    getElementById(id) { id = String(id); for (const el of descendants(this)) if (el._attrs.get("id") === id) return el; return null; }
    getElementsByTagName(t) { return Element.prototype.getElementsByTagName.call(this, t); }
    getElementsByClassName(c) { return Element.prototype.getElementsByClassName.call(this, c); }
    getElementsByName(n) { return Array.from(descendants(this)).filter((e) => e.getAttribute("name") === n); }
    querySelector(s) { return queryOne(this, s); }
    querySelectorAll(s) { return queryAll(this, s); }
    hasFocus() { return true; }
  }
  defineHandlers(Document.prototype);
  const document = new Document();
  G.document = document;
  G.window = G; G.self = G; G.top = G; G.parent = G;
  G.addEventListener = EventTarget.prototype.addEventListener;
  G.removeEventListener = EventTarget.prototype.removeEventListener;
  G.dispatchEvent = function (ev) { return dispatch(G, ev); };
  defineHandlers(G);
  G.innerWidth = G.__VIEWPORT_W; G.innerHeight = G.__VIEWPORT_H; G.devicePixelRatio = G.__DPR;
  G.outerWidth = G.innerWidth; G.outerHeight = G.innerHeight; G.scrollX = 0; G.scrollY = 0; G.pageYOffset = 0;
  G.screen = { width: G.innerWidth, height: G.innerHeight, availWidth: G.innerWidth, availHeight: G.innerHeight };
  G.scrollTo = G.scroll = G.scrollBy = function () {};
  G.location = { href: G.__URL, protocol: G.__URL.split(":")[0] + ":", host: "", hostname: "", pathname: G.__URL.replace(/^file:\/\//, ""), search: "", hash: "", origin: "null", reload() {}, assign() {}, replace() {}, toString() { return this.href; } };
  G.navigator = { userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.230 Mobile Safari/537.36", language: "en-US", languages: ["en-US"], platform: "Linux armv8l", maxTouchPoints: 5, onLine: false, clipboard: { writeText() { return Promise.resolve(); }, readText() { return Promise.resolve(""); } } };
  const logs = [];
  const log = (...a) => { if (logs.length < 200) logs.push(a.map(String).join(" ")); };
  G.console = { log: log, info: log, warn: log, debug: log, error: log, table: log, trace: log, assert() {}, group() {}, groupEnd() {}, time() {}, timeEnd() {} };
  G.alert = function () {}; G.confirm = function () { return false; }; G.prompt = function () { return null; };
  class Storage { constructor() { this._m = new Map(); } getItem(k) { return this._m.has(String(k)) ? this._m.get(String(k)) : null; } setItem(k, v) { this._m.set(String(k), String(v)); } removeItem(k) { this._m.delete(String(k)); } clear() { this._m.clear(); } key(i) { return Array.from(this._m.keys())[i] ?? null; } get length() { return this._m.size; } }
  G.localStorage = new Storage(); G.sessionStorage = new Storage();
  G.getComputedStyle = function (el) { return el.style; };
  G.matchMedia = function (q) { return { matches: false, media: q, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {} }; };
  G.fetch = function () { return Promise.reject(new TypeError("Failed to fetch")); };
  G.XMLHttpRequest = function () { this.open = () => {}; this.send = () => { if (this.onerror) this.onerror(new Event("error")); }; this.setRequestHeader = () => {}; };

  // timers: a timeout runs once the task that set it has finished (in order of its delay,
  // then of setting), which keeps runs replayable; intervals and animation frames never fire
  let timerId = 1;
  const timers = [];
  G.setTimeout = function (fn, delay, ...args) { const id = timerId++; timers.push({ id: id, fn: fn, args: args, delay: Math.max(0, +delay || 0), order: id }); return id; };
  G.clearTimeout = function (id) { const i = timers.findIndex((t) => t.id === id); if (i >= 0) timers.splice(i, 1); };
  G.setInterval = function () { return timerId++; };
  G.clearInterval = function () {};
  G.requestAnimationFrame = function () { return timerId++; };
  G.cancelAnimationFrame = function () {};
  G.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
  function runTimers() {
    for (let n = 0; timers.length && n < 100; n++) {
      timers.sort((a, b) => a.delay - b.delay || a.order - b.order);
      const t = timers.shift();
      try { if (typeof t.fn === "function") t.fn(...t.args); else (0, eval)(String(t.fn)); } catch (e) { report(e); }
    }
    timers.length = 0;
  }

  // --- user actions (from Python) ---------------------------------------------------------------
  function pointer(el, type, x, y, extra) {
    return dispatch(el, new G.PointerEvent(type, Object.assign({ bubbles: true, cancelable: true, offsetX: x, offsetY: y, clientX: x, clientY: y, pageX: x, pageY: y, pointerId: 1, pointerType: "touch", isPrimary: true, button: type === "pointermove" ? -1 : 0, buttons: type === "pointerup" ? 0 : 1 }, extra || {})));
  }
  const INTERACTIVE = ["input", "select", "textarea", "button", "a"];
  function activate(el, init) {
    // a click with its activation behaviour: checkboxes and radios change first and are
    // put back when the click is cancelled; a label passes the click to its control
    let undo = null;
    if (el.localName === "input" && (el.type === "checkbox" || el.type === "radio")) {
      if (el.type === "checkbox") { const old = el._checked; const was = el.checked; el._checked = !was; touch(); undo = () => { el._checked = old; }; }
      else if (!el.checked) {
        const name = el.getAttribute("name");
        const prev = name ? Array.from(descendants(el.getRootNode())).find((o) => o.localName === "input" && o.type === "radio" && o.getAttribute("name") === name && o.checked) : null;
        el.checked = true; undo = () => { el._checked = false; if (prev) prev._checked = true; };
      }
    }
    const ok = dispatch(el, new G.MouseEvent("click", Object.assign({ bubbles: true, cancelable: true, detail: 1, button: 0 }, init)));
    if (undo) {
      if (!ok) { undo(); touch(); }
      else { dispatch(el, new Event("input", { bubbles: true })); dispatch(el, new Event("change", { bubbles: true })); }
      return;
    }
    if (!ok) return;
    for (let n = el; n && n.nodeType === 1; n = n.parentNode) {
      if (n !== el && INTERACTIVE.includes(n.localName)) return;
      if (n.localName === "label") {
        const c = n.control;
        if (c && !c.contains(el) && !c._isDisabled()) {
          if (["input", "textarea"].includes(c.localName) && !["checkbox", "radio", "range", "button", "submit"].includes(c.type)) G.document._active = c;
          else activate(c, { offsetX: 0, offsetY: 0 });
        }
        return;
      }
    }
  }
  function commit(el) {
    if (el._lastChange !== el.value) { el._lastChange = el.value; dispatch(el, new Event("change", { bubbles: true })); }
  }
  const actions = {
    tap(el, x, y) {
      if (el._isDisabled()) return;
      pointer(el, "pointerdown", x, y);
      dispatch(el, new G.MouseEvent("mousedown", { bubbles: true, cancelable: true, offsetX: x, offsetY: y, clientX: x, clientY: y }));
      let f = el; while (f && f.nodeType === 1 && !["input", "select", "textarea", "button", "a"].includes(f.localName) && !f.hasAttribute("tabindex")) f = f.parentNode;
      if (f && f.nodeType === 1 && f !== document._active) { const old = document._active; document._active = f; if (old && old.nodeType === 1) dispatch(old, new G.FocusEvent("blur")); dispatch(f, new G.FocusEvent("focus")); }
      pointer(el, "pointerup", x, y);
      dispatch(el, new G.MouseEvent("mouseup", { bubbles: true, cancelable: true, offsetX: x, offsetY: y, clientX: x, clientY: y }));
      activate(el, { offsetX: x, offsetY: y, clientX: x, clientY: y, pageX: x, pageY: y });
    },
    pointer(el, type, x, y) { pointer(el, type, x, y); },
    stroke(el, points) {
      // a swipe: pointerdown where it starts, a pointermove at each point on the way,
      // pointerup where it ends (no click)
      const pts = JSON.parse(points);
      if (!pts.length) return;
      pointer(el, "pointerdown", pts[0][0], pts[0][1]);
      dispatch(el, new G.MouseEvent("mousedown", { bubbles: true, cancelable: true, offsetX: pts[0][0], offsetY: pts[0][1] }));
      for (const p of pts.slice(1)) {
        pointer(el, "pointermove", p[0], p[1]);
        dispatch(el, new G.MouseEvent("mousemove", { bubbles: true, cancelable: true, offsetX: p[0], offsetY: p[1] }));
      }
      const last = pts[pts.length - 1];
      pointer(el, "pointerup", last[0], last[1]);
      dispatch(el, new G.MouseEvent("mouseup", { bubbles: true, cancelable: true, offsetX: last[0], offsetY: last[1] }));
    },
    input(el, value) {
      if (el._lastChange === null) el._lastChange = el.value;
      el.value = value; document._active = el;
      dispatch(el, new G.InputEvent("input", { bubbles: true, inputType: "insertText", data: null }));
    },
    key(el, key) {
      const code = key === "Enter" ? 13 : 0;
      const ok = dispatch(el, new G.KeyboardEvent("keydown", { bubbles: true, cancelable: true, key: key, code: key, keyCode: code, which: code }));
      if (ok && key === "Enter") dispatch(el, new G.KeyboardEvent("keypress", { bubbles: true, cancelable: true, key: key, code: key, keyCode: code, which: code }));
      dispatch(el, new G.KeyboardEvent("keyup", { bubbles: true, cancelable: true, key: key, code: key, keyCode: code, which: code }));
      if (ok && key === "Enter" && el.localName === "input") commit(el);
    },
    commit(el) { if (el.localName === "input" || el.localName === "textarea") commit(el); },
    select(el, index) {
      if (el.selectedIndex === index) return;
      el.selectedIndex = index;
      dispatch(el, new Event("input", { bubbles: true })); dispatch(el, new Event("change", { bubbles: true }));
    },
    range(el, value, final) {
      const v = clampStep(el, value);
      if (v !== el.value) { el.value = v; dispatch(el, new Event("input", { bubbles: true })); }
      if (final) commit(el);
    },
  };
  G.__user = function (kind, nid, a, b, c) {
    const el = byNid.get(nid);
    if (!el || !el.isConnected || !actions[kind]) return false;
    try { actions[kind](el, a, b, c); } finally { runTimers(); }
    return true;
  };

  // --- loading --------------------------------------------------------------------------------
  // the document is built node by node; at each <script> the builder stops and hands its
  // text to Python, which runs it and calls back for the rest
  function* builder(json) {
    const html = createElement(json[0]);
    for (const k in json[1]) html.setAttribute(k, json[1][k]);
    document.appendChild(html);
    const stack = [[html, json[2], 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [parent, kids, i] = top;
      if (i >= kids.length) { stack.pop(); parent._parsed(); continue; }
      top[2]++;
      const k = kids[i];
      if (typeof k === "string") { parent.appendChild(new Text(k)); continue; }
      const el = createElement(k[0]);
      for (const a in k[1]) el.setAttribute(a, k[1][a]);
      parent.appendChild(el);
      if (k[0] === "script") {
        for (const c of k[2]) if (typeof c === "string") el.appendChild(new Text(c));
        const type = (el.getAttribute("type") || "").toLowerCase();
        if (!el.hasAttribute("src") && ["", "text/javascript", "application/javascript", "module"].includes(type)) yield el.textContent;
        continue;
      }
      stack.push([el, k[2], 0]);
    }
  }
  let loading = null;
  G.__begin = function (json) { loading = builder(JSON.parse(json)); };
  G.__next_script = function () {
    const r = loading.next();
    if (r.done) { loading = null; return null; }
    return r.value;
  };
  G.__finish_load = function () {
    try {
      document.readyState = "interactive";
      dispatch(document, new Event("DOMContentLoaded", { bubbles: true }));
      document.readyState = "complete";
      dispatch(G, new Event("load"));
    } finally { runTimers(); }
  };
  G.__errors = function () { return JSON.stringify(errors.concat(logs.length ? [] : [])); };
  G.__logs = function () { return JSON.stringify(logs); };

  // --- the tree for layout -------------------------------------------------------------------
  let rules = [];  // {groups, index}
  const buckets = new Map();
  let sheetKey = null;
  function bucketKeys(steps) {
    const c = steps[0];
    if (c.id) return "#" + c.id;
    if (c.classes.length) return "." + c.classes[0];
    if (c.tag) return c.tag;
    return "*";
  }
  function loadSheets(texts) {
    const key = JSON.stringify(texts);
    if (key === sheetKey) return;
    sheetKey = key;
    let sels = [];
    try { sels = JSON.parse(G.__py_css(key)); } catch (e) { report(e); }
    rules = []; buckets.clear();
    let index = 0;
    for (const sheet of sels) {
      for (const text of sheet) {
        const i = index++;
        let groups;
        try { groups = parseSelector(text); } catch (e) { continue; }  // a bad selector drops its rule
        for (const g of groups) {
          const k = bucketKeys(g.steps);
          if (!buckets.has(k)) buckets.set(k, []);
          buckets.get(k).push([g, i]);
        }
      }
    }
  }
  function matched(el) {
    const cands = [];
    const add = (k) => { const b = buckets.get(k); if (b) for (const x of b) cands.push(x); };
    const id = el._attrs.get("id");
    if (id) add("#" + id);
    for (const c of el._classes()) add("." + c);
    add(el.localName); add("*");
    if (!cands.length) return null;
    const best = new Map();
    for (const [g, i] of cands) {
      if ((best.get(i) ?? -1) >= g.spec) continue;
      if (matchSteps(el, g.steps, 0)) best.set(i, g.spec);
    }
    if (!best.size) return null;
    return Array.from(best).sort((a, b) => a[1] - b[1] || a[0] - b[0]).map((x) => x[0]);
  }
  const LAYOUT_ATTRS = ["id", "type", "placeholder", "disabled", "hidden", "aria-label", "title", "for", "min", "max", "step", "width", "height", "href", "aria-hidden", "role", "multiple", "readonly", "tabindex", "size", "rows", "cols", "colspan"];
  const CLICK_EVENTS = ["click", "pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend", "dblclick"];
  const MAX_DEPTH = 96;  // deeper elements are not laid out (a guard against runaway pages)
  function dumpNode(n, depth) {
    depth = depth || 0;
    if (n.nodeType === 3) return n._data;
    if (depth > MAX_DEPTH) return null;
    if (n.nodeType !== 1) return null;
    const tag = n.localName;
    if (tag === "script" || tag === "template" || tag === "head") return null;
    const attrs = {};
    for (const a of LAYOUT_ATTRS) { const v = n._attrs.get(a); if (v !== undefined) attrs[a] = v; }
    const props = {};
    if (n._hasListener(CLICK_EVENTS)) props.click = 1;
    if (n._hasListener(["pointermove", "mousemove", "touchmove"])) props.move = 1;
    if (tag === "input") {
      const t = n.type; props.type = t;
      if (t === "checkbox" || t === "radio") props.checked = n.checked ? 1 : 0;
      else props.value = n.value;
      if (t !== "hidden") props.label = labelOf(n);
    } else if (tag === "textarea") { props.value = n.value; props.label = labelOf(n); }
    else if (tag === "select") {
      props.options = n.options.map((o) => o.text);
      props.index = n.selectedIndex;
      props.label = labelOf(n);
    } else if (tag === "canvas") { props.version = n._version; props.cw = n.width; props.ch = n.height; }
    else if (tag === "label") { const c = n.control; if (c) props.control = c._nid; }
    if (n._isDisabled()) props.disabled = 1;
    const kids = [];
    if (tag !== "select" && tag !== "textarea" && tag !== "style") {
      for (const c of n.childNodes) { const d = dumpNode(c, depth + 1); if (d !== null) kids.push(d); }
    }
    return [n._nid, tag, attrs, matched(n), n._attrs.get("style") || "", kids, props];
  }
  function labelOf(el) {
    const ls = el.labels;
    if (ls.length) return ls.map((l) => l.textContent).join(" ").replace(/\s+/g, " ").trim();
    return "";
  }
  G.__dump = function (force) {
    if (!dirty && !force) return "";
    dirty = false;
    const sheets = [];
    for (const el of descendants(document)) if (el.localName === "style") sheets.push(el.textContent);
    loadSheets(sheets);
    const root = document.documentElement;
    const body = document.body;
    return JSON.stringify({
      title: document.title,
      sheets: sheets,
      focus: document._active && document._active.isConnected ? document._active._nid : 0,
      html: root ? [root._nid, matched(root), root._attrs.get("style") || ""] : null,
      body: body ? dumpNode(body) : null,
      docClick: document._hasListener(CLICK_EVENTS) || EventTarget.prototype._hasListener.call(G, CLICK_EVENTS) ? 1 : 0,
    });
  };
})();
