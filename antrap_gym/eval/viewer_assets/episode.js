// One episode's view, rendered in the browser from its record (the run's episode record,
// as viewer/data/NNN.js holds it): header, trap events, and every step with the screen the
// agent saw, its action drawn over it (SVG in device pixels, scaled by its viewBox), the
// action, the agent's reasoning, the env's error, and a marker where a trap acted.
//
// Records are untrusted (goals, thoughts, raw model output): every value is escaped.
// antrapEpisode.html(record, {chips, layers}) -> HTML; antrapEpisode.title(record) -> text.
var antrapEpisode = (function () {
  'use strict';
  var FRAME_WIDTH = 300;        // CSS pixels of a screenshot on an episode view
  var ACTION_COLOUR = '#1e88e5';
  var TRAP_COLOUR = '#f76707';
  var LABEL_DY = 11.0;          // label distance from a target point, in hundredths of the screen width

  // ---- values as Python wrote them
  function isObj(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function truthy(x) {          // Python's truth: empty lists and dicts are false
    if (Array.isArray(x)) return x.length > 0;
    if (isObj(x)) return Object.keys(x).length > 0;
    return !!x;
  }
  function given(x) { return x !== null && x !== undefined; }
  function num(x, d) {          // a finite number, else `d` (0)
    if (d === undefined) d = 0;
    var v;
    if (typeof x === 'number') v = x;
    else if (typeof x === 'boolean') v = x ? 1 : 0;
    else if (typeof x === 'string' && x.trim() !== '') v = Number(x.trim());
    else return d;
    return isFinite(v) ? v : d;
  }
  function isInt(x) { return typeof x === 'number' && Number.isInteger(x); }
  function g(x) {               // Python's format(x, 'g'): six significant digits
    if (!isFinite(x)) return isNaN(x) ? 'nan' : (x > 0 ? 'inf' : '-inf');
    if (x === 0) return '0';
    var p = Number(x.toPrecision(6));
    var e = Math.floor(Math.log10(Math.abs(p)));
    if (e < -4 || e >= 6) {
      var m = p.toExponential(5).match(/^(-?[\d.]+)e([+-])(\d+)$/);
      var mant = m[1].indexOf('.') >= 0 ? m[1].replace(/\.?0+$/, '') : m[1];
      return mant + 'e' + m[2] + (m[3].length < 2 ? '0' : '') + m[3];
    }
    return String(p);
  }
  function str(x) {             // Python's str() of a JSON value
    if (x === null || x === undefined) return 'None';
    if (typeof x === 'boolean') return x ? 'True' : 'False';
    if (typeof x === 'object') return pyJson(x);
    return String(x);
  }
  function pyJson(x) {          // json.dumps(x, ensure_ascii=False): ", " and ": " between items
    if (Array.isArray(x)) return '[' + x.map(pyJson).join(', ') + ']';
    if (isObj(x)) {
      return '{' + Object.keys(x).map(function (k) {
        return JSON.stringify(k) + ': ' + pyJson(x[k]);
      }).join(', ') + '}';
    }
    if (x === undefined) return 'null';
    return JSON.stringify(x);
  }
  function pretty(x) { return JSON.stringify(x === undefined ? null : x, null, 1); }
  function esc(x) {
    return (x === null || x === undefined ? '' : str(x)).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;'}[c];
    });
  }
  function chars(s) { return Array.from(s); }
  function clip(s, limit) {
    var c = chars(s);
    return c.length <= limit ? s : c.slice(0, limit - 1).join('') + '\u2026';
  }
  function title(setting) {     // Python's setting.replace("_", " ").capitalize()
    var s = String(setting).replace(/_/g, ' ');
    return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  }
  function outcome(r) {
    if (truthy(r.error)) return 'error';
    return num(r.success) >= 1.0 ? 'success' : 'failure';
  }
  function badge(r) {
    var o = outcome(r), score = num(r.success);
    var extra = o === 'failure' && score > 0 && score < 1 ? ' (' + g(score) + ')' : '';
    return '<span class="badge o-' + o + '">' + o + extra + '</span>';
  }
  function stepNo(s, i) { return isInt(s.step) ? s.step : i + 1; }

  // ---- actions
  function actionSummary(a) {
    if (!isObj(a)) return str(a);
    var t = str(given(a.action_type) ? a.action_type : given(a.action) ? a.action : '?');
    var at = '';
    if (given(a.x) && given(a.y)) at = ' at (' + g(num(a.x)) + ', ' + g(num(a.y)) + ')';
    else if (given(a.index)) at = ' on element #' + str(a.index);
    var text = given(a.text) ? str(a.text) : '';
    if (t === 'click' || t === 'double_tap' || t === 'long_press') return t.replace(/_/g, ' ') + at;
    if (t === 'scroll') return 'scroll ' + (given(a.direction) ? str(a.direction) : '') + at;
    if (t === 'swipe') {
      if (given(a.x2)) {
        return 'swipe (' + g(num(a.x)) + ', ' + g(num(a.y)) + ') \u2192 (' + g(num(a.x2)) + ', ' +
          g(num(a.y2)) + ')';
      }
      return 'swipe ' + (given(a.direction) ? str(a.direction) : '') + at;
    }
    if (t === 'input_text') return 'type \u201c' + text + '\u201d' + at + (truthy(a.clear_text) ? ' (clearing)' : '');
    if (t === 'open_app') return 'open app \u201c' + (given(a.app_name) ? str(a.app_name) : '') + '\u201d';
    if (t === 'answer') return 'answer \u201c' + text + '\u201d';
    if (t === 'status') return 'status: ' + (given(a.goal_status) ? str(a.goal_status) : '');
    if (t === 'wait') return typeof a.seconds === 'number' ? 'wait ' + g(a.seconds) + 's' : 'wait';
    return {navigate_back: '\u25c0 back', navigate_home: '\u25cf home',
            keyboard_enter: '\u23ce enter'}[t] || t.replace(/_/g, ' ');
  }

  function f1(x) { return x.toFixed(1); }

  function Svg(w, h) {          // SVG primitives in device pixels; sizes relative to the screen width
    this.w = w; this.h = h; this.u = w / 100; this.parts = [];
  }
  Svg.prototype.circle = function (x, y, r, colour, fill, width, dash) {
    if (fill === undefined) fill = 0.25;
    if (width === undefined) width = 0.7;
    var u = this.u, d = dash ? ' stroke-dasharray="' + f1(u * 1.5) + ' ' + f1(u) + '"' : '';
    if (width >= 0.7) {         // a white halo keeps the ring visible on any background
      this.parts.push('<circle cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + f1(r * u) + '" fill="none" ' +
        'stroke="#fff" stroke-opacity="0.9" stroke-width="' + f1((width + 0.8) * u) + '"/>');
    }
    this.parts.push('<circle cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + f1(r * u) + '" fill="' + colour +
      '" fill-opacity="' + fill + (Number.isInteger(fill) ? '.0' : '') + '" stroke="' + colour + '" stroke-width="' + f1(width * u) + '"' + d + '/>');
  };
  Svg.prototype.dot = function (x, y, colour) {
    this.parts.push('<circle cx="' + f1(x) + '" cy="' + f1(y) + '" r="' + f1(0.9 * this.u) + '" fill="' +
      colour + '" stroke="#fff" stroke-width="' + f1(0.3 * this.u) + '"/>');
  };
  Svg.prototype.arrow = function (x0, y0, x1, y1, colour, dash) {
    var u = this.u, dx = x1 - x0, dy = y1 - y0;
    var length = Math.hypot(dx, dy) || 1.0;
    var ux = dx / length, uy = dy / length;
    var head = Math.min(5 * u, length * 0.5);
    var bx = x1 - ux * head, by = y1 - uy * head;
    var px = -uy * head * 0.55, py = ux * head * 0.55;
    var d = dash ? ' stroke-dasharray="' + f1(u * 2) + ' ' + f1(u) + '"' : '';
    var self = this;
    [['#fff', 0.6], [colour, 0.0]].forEach(function (se) {  // a white halo keeps it visible
      self.parts.push('<line x1="' + f1(x0) + '" y1="' + f1(y0) + '" x2="' + f1(bx) + '" y2="' + f1(by) +
        '" stroke="' + se[0] + '" stroke-width="' + f1((1.3 + se[1]) * u) + '" stroke-linecap="round"' +
        (se[1] ? '' : d) + '/>');
    });
    this.parts.push('<polygon points="' + f1(x1) + ',' + f1(y1) + ' ' + f1(bx + px) + ',' + f1(by + py) + ' ' +
      f1(bx - px) + ',' + f1(by - py) + '" fill="' + colour + '" stroke="#fff" stroke-width="' +
      f1(0.3 * u) + '"/>');
    this.dot(x0, y0, colour);
  };
  Svg.prototype.label = function (x, y, text, colour) {  // a rounded box centred at (x, y), kept on screen
    var u = this.u, fs = 4.2 * u;
    var maxChars = Math.max(4, Math.trunc((this.w * 0.9 - 4 * u) / (0.6 * fs)));
    var c = chars(text);
    if (c.length > maxChars) { text = c.slice(0, maxChars - 1).join('') + '\u2026'; c = chars(text); }
    var tw = c.length * 0.6 * fs + 4 * u, th = fs * 1.5;
    var left = Math.min(Math.max(x - tw / 2, u), this.w - tw - u);
    var top = Math.min(Math.max(y - th / 2, u), this.h - th - u);
    this.parts.push('<rect x="' + f1(left) + '" y="' + f1(top) + '" width="' + f1(tw) + '" height="' + f1(th) +
      '" rx="' + f1(th / 2.5) + '" fill="' + colour + '" fill-opacity="0.92" stroke="#fff" stroke-width="' +
      f1(0.3 * u) + '"/>');
    this.parts.push('<text x="' + f1(left + tw / 2) + '" y="' + f1(top + th * 0.7) + '" text-anchor="middle" ' +
      'font-size="' + f1(fs) + '" font-family="system-ui,sans-serif" font-weight="600" fill="#fff">' +
      esc(text) + '</text>');
  };
  Svg.prototype.rect = function (x0, y0, x1, y1, colour) {
    var u = this.u;
    this.parts.push('<rect x="' + f1(x0) + '" y="' + f1(y0) + '" width="' + f1(x1 - x0) + '" height="' +
      f1(y1 - y0) + '" fill="none" stroke="' + colour + '" stroke-width="' + f1(0.8 * u) +
      '" stroke-dasharray="' + f1(2 * u) + ' ' + f1(u) + '"/>');
  };
  Svg.prototype.render = function (kind) {
    return '<svg class="overlay" data-kind="' + esc(kind) + '" viewBox="0 0 ' + g(this.w) + ' ' + g(this.h) +
      '" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">' +
      this.parts.join('') + '</svg>';
  };

  function labelDy(dy, y, h) {  // the offset asked, else below unless near the bottom
    if (dy !== null && dy !== undefined) return dy;
    return y > 0.85 * h ? -LABEL_DY : LABEL_DY;
  }
  // Label offsets for the agent's action at p and the executed one at q, so that the two
  // labels do not overlap: on opposite sides, or stacked on one side near an edge.
  function labelOffsets(p, q, h) {
    if (!p || !q) return [null, null];
    var mine = q[1] > p[1] + 1 ? -LABEL_DY : LABEL_DY, theirs = -mine;
    if ((mine < 0 && p[1] < 0.12 * h) || (theirs < 0 && q[1] < 0.12 * h)) {
      mine = LABEL_DY; theirs = LABEL_DY + 6.5;
    } else if ((mine > 0 && p[1] > 0.85 * h) || (theirs > 0 && q[1] > 0.85 * h)) {
      mine = -LABEL_DY; theirs = -LABEL_DY - 6.5;
    }
    return [mine, theirs];
  }
  function point(a) {
    var x = a.x, y = a.y;
    return typeof x === 'number' && typeof y === 'number' && isFinite(x) && isFinite(y) ? [x, y] : null;
  }

  // Draw one action; returns the kind drawn (point, arrow, text, caption). `dy`: where its
  // label goes relative to a target point, in hundredths of the screen width (negative: above).
  function drawAction(svg, a, colour, tag, dash, dy) {
    if (!isObj(a)) return 'none';
    colour = colour || ACTION_COLOUR;
    var t = given(a.action_type) ? str(a.action_type) : '';
    var w = svg.w, h = svg.h, p = point(a), prefix = tag ? tag + ': ' : '';
    var x, y;
    if ((t === 'click' || t === 'double_tap' || t === 'long_press') && p) {
      x = p[0]; y = p[1];
      svg.circle(x, y, 5.0, colour, undefined, undefined, dash);
      if (t === 'double_tap') svg.circle(x, y, 7.5, colour, 0.0, 0.7, dash);
      if (t === 'long_press') svg.circle(x, y, 7.5, colour, 0.12, 1.2, dash);
      svg.dot(x, y, colour);
      if (tag || t !== 'click') svg.label(x, y + labelDy(dy, y, h) * svg.u, prefix + t.replace(/_/g, ' '), colour);
      return 'point';
    }
    if (t === 'scroll' || t === 'swipe') {
      var direction = truthy(a.direction) ? str(a.direction) : '';
      var x0, y0, x1, y1, d;
      if (t === 'swipe' && given(a.x2) && p) {
        x0 = p[0]; y0 = p[1]; x1 = num(a.x2); y1 = num(a.y2);
      } else {
        x0 = p ? p[0] : w / 2; y0 = p ? p[1] : h / 2;
        if (t === 'scroll') {   // the direction the agent scrolls the content towards
          d = {up: [0, -0.25 * h], down: [0, 0.25 * h], left: [-0.35 * w, 0],
               right: [0.35 * w, 0]}[direction] || [0, 0.25 * h];
          x0 -= d[0] / 2; y0 -= d[1] / 2;
        } else {                // the finger's path, as the env performs it
          d = {up: [0, -0.3 * h], down: [0, 0.3 * h], left: [-0.4 * w, 0],
               right: [0.4 * w, 0]}[direction] || [0, -0.3 * h];
        }
        x1 = x0 + d[0]; y1 = y0 + d[1];
      }
      svg.arrow(x0, y0, x1, y1, colour, dash);
      svg.label((x0 + x1) / 2 + (x0 === x1 ? 12 * svg.u : 0), (y0 + y1) / 2 + (x0 === x1 ? 0 : -8 * svg.u),
                prefix + (t + ' ' + direction).trim(), colour);
      return 'arrow';
    }
    if (t === 'input_text') {
      var text = '\u2328 \u201c' + (given(a.text) ? str(a.text) : '') + '\u201d';
      if (p) {
        x = p[0]; y = p[1];
        svg.circle(x, y, 3.0, colour, undefined, undefined, dash);
        svg.dot(x, y, colour);
        svg.label(x, y + labelDy(dy, y, h) * svg.u, prefix + text, colour);
      } else {
        svg.label(w / 2, h * ((dy || 0) < 0 ? 0.79 : 0.86), prefix + text, colour);
      }
      return 'text';
    }
    svg.label(w / 2, h * ((dy || 0) < 0 ? 0.79 : 0.86), prefix + actionSummary(a), colour);
    return 'caption';
  }

  // ---- trap events
  function eventsByStep(events) {  // step -> events acting at it, and those still active
    var at = {}, active = {};
    events.forEach(function (ev, i) {
      if (!isInt(ev.step)) return;
      (at[ev.step] = at[ev.step] || []).push(i);
      var end = ev.step + Math.max(1, Math.trunc(num(ev.duration, 1)));
      for (var s = ev.step + 1; s < end; s++) (active[s] = active[s] || []).push(i);
    });
    return [at, active];
  }
  // One trap event; `result` (the episode's outcome) completes a recovery: recovering from
  // the trap and then failing the task are both said.
  function eventItem(i, ev, nSteps, result, layers) {
    var kind = given(ev.type) ? str(ev.type) : '?';
    var layer = truthy(ev.layer) ? ev.layer : (layers[kind] || '');
    var step = ev.step;
    var where = isInt(step) && step >= 1 && step <= nSteps ?
      '<a href="#step-' + esc(step) + '">step ' + esc(step) + '</a>' : 'step ' + esc(step);
    var dur = Math.trunc(num(ev.duration, 1));
    var rec;
    if (truthy(ev.recovered)) {
      rec = '<span class="ok">recovered from the trap</span> after ' + esc(ev.recovery_steps) + ' step(s), ' +
        esc(ev.extra_steps) + ' extra';
      if (result === 'failure') rec += ', <span class="no">then failed the task</span>';
      else if (result === 'error') rec += ', <span class="no">then the episode ended in an error</span>';
    } else {
      rec = '<span class="no">not recovered</span>';
    }
    var bits = ['<span class="what">\u26a0 ' + esc(title(kind)) + '</span> <span class="chip">' + esc(layer) +
                ' layer</span>', 'at ' + where, dur > 1 ? 'lasting ' + dur + ' steps' : '', rec];
    if (truthy(ev.budget_added)) bits.push('budget +' + esc(ev.budget_added));
    if (ev.solvable === false) bits.push('<span class="no">unsolvable</span>');
    var detail = '';
    if (truthy(ev.params) || truthy(ev.substituted)) {
      detail = '<details><summary>trap parameters and what it changed</summary><pre>' +
        esc(pretty({params: given(ev.params) ? ev.params : null,
                    substituted: given(ev.substituted) ? ev.substituted : null})) + '</pre></details>';
    }
    return '<li class="trap-event" id="trap-' + i + '" data-step="' + esc(step) + '" data-type="' + esc(kind) +
      '">' + bits.filter(function (b) { return b; }).join(' \u00b7 ') + detail + '</li>';
  }
  function brief(ev, limit) {   // the trap's parameters and effect on one line (key=value; ...)
    var parts = [];
    [ev.params, ev.substituted].forEach(function (block) {
      if (!isObj(block)) return;
      Object.keys(block).forEach(function (k) {
        var v = block[k];
        if (k === 'intended' || k === 'executed' || !given(v)) return;
        parts.push(k + '=' + (typeof v === 'string' ? v : pyJson(v)));
      });
    });
    return clip(parts.join('; '), limit || 220);
  }
  function timeline(traj, at, active) {  // a row of links to every step, trap steps highlighted
    return '<nav class="timeline">' + traj.map(function (s, i) {
      s = isObj(s) ? s : {action: s};
      var n = stepNo(s, i), a = isObj(s.action) ? s.action : {};
      var cls = 'tl' + (at[n] ? ' trap' : active[n] ? ' active' : '') + (truthy(s.error) ? ' err' : '');
      return '<a class="' + cls + '" href="#step-' + n + '" title="' + esc(actionSummary(a)) + '">' + n +
        '<small>' + esc(str(given(a.action_type) ? a.action_type : '?').replace(/_/g, ' ')) + '</small></a>';
    }).join('') + '</nav>';
  }
  // What a trap changed, drawn over the step's screen: an executed action that is not the
  // agent's, a covered region.
  function trapOverlay(svg, ev, dy) {
    var sub = isObj(ev.substituted) ? ev.substituted : {};
    if (isObj(sub.executed) && pyJson(sub.executed) !== pyJson(sub.intended)) {
      drawAction(svg, sub.executed, TRAP_COLOUR, 'executed', true, dy);
    }
    var rect = isObj(ev.params) ? ev.params.rect : null;
    if (Array.isArray(rect) && rect.length === 4 && rect.every(function (v) { return typeof v === 'number'; })) {
      svg.rect(rect[0], rect[1], rect[2], rect[3], TRAP_COLOUR);
    }
  }
  function frame(src, alt, thumb, svg, kind) {
    return '<div class="frame"><img src="' + esc(src) + '" alt="' + esc(alt) + '" width="' + thumb[0] +
      '" height="' + thumb[1] + '">' + (svg ? svg.render(kind || 'none') : '') + '</div>';
  }
  function imgSrc(path) {       // relative to viewer/, each segment percent-encoded
    return '../' + encodeURIComponent(str(path).replace(/\\/g, '/')).replace(/[!'()*]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    }).replace(/%2F/g, '/');
  }
  // (intended, executed) when a trap acting at this step ran another action than the agent's
  function substitution(events, here) {
    for (var k = 0; k < here.length; k++) {
      var sub = events[here[k]].substituted;
      if (isObj(sub) && isObj(sub.executed) && isObj(sub.intended) &&
          pyJson(sub.executed) !== pyJson(sub.intended)) return [sub.intended, sub.executed];
    }
    return [null, null];
  }
  function marker(ev, active) {
    var kind = esc(ev.type);
    if (active) {
      return '<span class="trap-marker active" data-trap="' + kind + '">trap still active: ' +
        esc(title(str(ev.type))) + '</span>';
    }
    return '<span class="trap-marker" data-trap="' + kind + '">\u26a0 trap: ' + esc(title(str(ev.type))) + '</span>';
  }

  // One step's block: screen with the action drawn, action, reasoning, error, trap markers.
  // The trajectory holds the action the env executed; where an action-layer trap swapped
  // it, the agent's own action (substituted.intended) is drawn and named as the step's
  // action and the executed one is drawn dashed in the trap's colour.
  function step(i, s, events, at, active, src, device, thumb) {
    s = isObj(s) ? s : {action: s};
    var n = stepNo(s, i);
    var a = isObj(s.action) ? s.action : {action_type: str(s.action)};
    var here = at[n] || [];
    var still = (active[n] || []).filter(function (j) { return here.indexOf(j) < 0; });
    var sub = substitution(events, here), intended = sub[0], executed = sub[1];
    var agentAction = intended || a;
    var classes = ['step'].concat(here.length ? ['trap-at'] : [], still.length ? ['trap-active'] : []);
    var markers = here.map(function (j) { return marker(events[j]); }).join('') +
      still.map(function (j) { return marker(events[j], true); }).join('');
    var notes = here.map(function (j) {
      return '<div class="trap-note"><a href="#trap-' + j + '">' + esc(title(str(events[j].type))) + '</a>: ' +
        esc(brief(events[j])) + '</div>';
    }).join('');
    if (executed) {
      notes += '<div class="trap-note">the agent chose <b>' + esc(actionSummary(intended)) + '</b>; the trap ' +
        'executed <b>' + esc(actionSummary(executed)) + '</b> instead (dashed orange)</div>';
    }
    var shot = '';
    if (src !== null) {
      var svg = device ? new Svg(device[0], device[1]) : null, kind = 'none';
      if (svg) {
        var offs = labelOffsets(point(agentAction), point(executed || {}), svg.h);
        here.forEach(function (j) { trapOverlay(svg, events[j], offs[1]); });
        kind = drawAction(svg, agentAction, ACTION_COLOUR, executed ? 'agent' : '', false, offs[0]);
      }
      shot = '<div class="shot">' + frame(src, 'screen before step ' + n, thumb, svg, kind) +
        '<div class="caption">screen the agent saw before step ' + n + '</div></div>';
    } else {
      classes.push('noshot');
    }
    var body = ['<div class="step-head"><span class="num">Step ' + n + '</span><span class="act">' +
                esc(actionSummary(agentAction)) + '</span>' + markers + '</div>', notes];
    if (executed) {
      body.push('<div class="label">agent\'s action</div><pre class="action-json">' + esc(pretty(intended)) +
                '</pre><div class="label">executed (trap)</div><pre class="action-json">' + esc(pretty(a)) + '</pre>');
    } else {
      body.push('<div class="label">action</div><pre class="action-json">' + esc(pretty(a)) + '</pre>');
    }
    if (truthy(s.thought)) body.push('<div class="label">thought</div><div class="thought">' + esc(s.thought) + '</div>');
    if (truthy(s.raw)) {
      var raw = str(s.raw);
      body.push('<details class="raw"><summary>raw model output (' + chars(raw).length + ' chars)</summary><pre>' +
                esc(raw) + '</pre></details>');
    }
    if (truthy(s.error)) body.push('<div class="env-error"><b>env error:</b> ' + esc(s.error) + '</div>');
    var trapAttr = here.length ? ' data-trap="' + esc(here.map(function (j) {
      return str(events[j].type);
    }).join(',')) + '"' : '';
    return '<article class="' + classes.join(' ') + '" id="step-' + n + '" data-step="' + n + '"' + trapAttr +
      '>' + shot + '<div class="info">' + body.join('') + '</div></article>';
  }

  function settingChip(setting, chips) {
    if (chips && Object.prototype.hasOwnProperty.call(chips, setting)) return chips[setting];
    return '<span class="chip">' + esc(setting) + '</span>';
  }

  function episodeTitle(r) {    // the page title while an episode is open
    return str(r.task) + ' \u00b7 ' + str(r.agent) + ' \u00b7 ' + str(r.setting) + ' \u00b7 ' + outcome(r);
  }

  function episodeHtml(r, opts) {
    opts = opts || {};
    var traj = Array.isArray(r.trajectory) ? r.trajectory : [];
    var events = (Array.isArray(r.traps) ? r.traps : []).filter(isObj);
    var screens = isObj(r.screens) ? r.screens : {};
    var files = Array.isArray(screens.files) ? screens.files : [];
    var size = r.screen_size;
    var hasSize = Array.isArray(size) && size.length === 2 && num(size[0]) > 0 && num(size[1]) > 0;
    var dw = hasSize ? num(size[0]) : 1080.0, dh = hasSize ? num(size[1]) : 2400.0;
    var tw = Math.trunc(num(screens.width, FRAME_WIDTH)) || FRAME_WIDTH;
    var th = Math.trunc(num(screens.height, Math.round(tw * dh / dw))) || Math.round(tw * dh / dw);
    var byStep = eventsByStep(events), at = byStep[0], active = byStep[1];
    var setting = str(r.setting), o = outcome(r);

    var meta = [
      ['Agent', esc(r.agent)],
      ['Task', esc(r.task) + " <span class='muted'>variant " + esc(r.variant) + ' \u00b7 run ' + esc(r.run) +
               ' \u00b7 seed ' + esc(r.seed) + '</span>'],
      ['Setting', settingChip(setting, opts.chips) + (given(r.trap_seed) ?
        " <span class='muted'>trap seed " + esc(r.trap_seed) + ', ' + esc(r.trap_attempts) +
        ' attempt(s)</span>' : '')],
      ['Verdict', badge(r) + " <span class='muted'>score " + g(num(r.success)) + '</span>'],
      ['Steps', Math.trunc(num(r.steps)) + ' of a budget of ' + Math.trunc(num(r.budget)) +
        (truthy(r.terminated) ? ' \u00b7 terminated' : '') + (truthy(r.truncated) ? ' \u00b7 truncated' : '')],
      ['Wall time', num(r.wall_s).toFixed(2) + ' s']];
    if (given(r.answer)) meta.splice(4, 0, ['Answer', '<b>' + esc(r.answer) + '</b>']);
    if (truthy(r.params)) meta.splice(2, 0, ['Params', '<code>' + esc(pyJson(r.params)) + '</code>']);
    meta.push(['Episode id', '<code>' + esc(r.id) + '</code>']);
    var dl = meta.map(function (m) { return '<dt>' + m[0] + '</dt><dd>' + m[1] + '</dd>'; }).join('');

    var error = '';
    if (truthy(r.error)) {
      var tb = truthy(r.traceback) ?
        '<details><summary>traceback</summary><pre>' + esc(r.traceback) + '</pre></details>' : '';
      error = '<div class="error-box"><b>Error:</b> ' + esc(r.error) + tb + '</div>';
    }

    var trapHtml = '';
    if (events.length) {
      trapHtml = '<h2>Trap events (' + events.length + ')</h2><ol class="trap-events" id="trap-events">' +
        events.map(function (ev, i) {
          return eventItem(i, ev, traj.length, o, opts.layers || {});
        }).join('') + '</ol>';
    } else if (setting !== 'clean' && traj.length) {
      trapHtml = '<h2>Trap events (0)</h2><p class="muted">No trap fired in this episode.</p>';
    }

    var steps = traj.map(function (s, i) {
      return step(i, s, events, at, active, i < files.length ? imgSrc(files[i]) : null,
                  hasSize ? [dw, dh] : null, [tw, th]);
    });
    var final = '';
    if (files.length > traj.length) {
      var here = at[traj.length + 1] || [];
      var marks = here.map(function (j) {
        return '<span class="trap-marker" data-trap="' + esc(events[j].type) + '">\u26a0 trap: ' +
          esc(title(str(events[j].type))) + '</span>';
      }).join('');
      final = '<article class="step final' + (here.length ? ' trap-at' : '') + '" id="final">' +
        '<div class="shot">' + frame(imgSrc(files[files.length - 1]), 'final screen', [tw, th]) +
        '<div class="caption">final screen</div></div><div class="info"><div class="step-head">' +
        '<span class="num">End</span>' + badge(r) + marks + '</div>' +
        (given(r.answer) ? '<p>answer: <b>' + esc(r.answer) + '</b></p>' : '') + '</div></article>';
    }
    var noScreens = files.length || !traj.length ? '' :
      '<p class="muted">No screenshots were kept for this episode (the run\'s <code>screens</code> ' +
      'setting keeps them, by default, for failed episodes and a sample of the others).</p>';
    var stepsSection = traj.length ?
      '<h2>Steps (' + traj.length + ')</h2>' + timeline(traj, at, active) + noScreens +
      '<div class="steps">' + steps.join('') + final + '</div>' :
      '<h2>Steps (0)</h2><p class="muted">No steps were taken.</p>';

    return '\n<article class="episode" data-id="' + esc(r.id) + '" data-outcome="' + o + '">\n' +
      '<h1>' + esc(r.task) + ' ' + badge(r) + '</h1>\n' +
      '<div class="goal">' + (esc(r.goal) || '<span class="muted">(no goal)</span>') + '</div>\n' +
      '<div class="card"><dl class="meta">' + dl + '</dl></div>\n' + error + '\n' + trapHtml + '\n' +
      stepsSection + '\n</article>\n';
  }

  return {html: episodeHtml, title: episodeTitle, esc: esc};
})();
