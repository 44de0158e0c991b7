// The viewer page: the table of episodes (rows drawn a page at a time from viewer/data/rows.js,
// filtered and sorted, the view kept in the URL hash) and the episode opened (its record loaded
// from its data file and rendered by episode.js, inlined before this script).
(function () {
  var keys = ['agent', 'setting', 'outcome', 'q'];
  var ctl = {};
  keys.forEach(function (k) { ctl[k] = document.getElementById('f-' + k); });
  var body = document.body;
  var table = document.getElementById('episodes');
  var tbody = table.querySelector('tbody');
  var listView = document.getElementById('list'), epView = document.getElementById('episode');
  var epBody = document.getElementById('episode-body');
  var back = document.getElementById('back'), prev = document.getElementById('prev');
  var next = document.getElementById('next'), position = document.getElementById('position');
  var pagePrev = document.getElementById('page-prev'), pageNext = document.getElementById('page-next');
  var pageInfo = document.getElementById('page-info');
  var PAGE = +table.dataset.page, CHIPS = JSON.parse(table.dataset.chips);
  var LAYERS = JSON.parse(table.dataset.layers);
  var FIELDS = JSON.parse(table.dataset.fields);
  var baseTitle = document.title;
  var rows = null;      // every episode's row (objects of FIELDS), in the table's order
  var list = [];        // the rows the filters let through, in the table's order
  var page = 1, sortCol = -1, sortAsc = true;
  var chunkOf = {};

  var esc = antrapEpisode.esc;

  // ---- the list: filters (kept in the URL hash), counts, sorting, a page of rows at a time
  function has(select, v) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === v; });
  }
  function readHash(p) {
    keys.forEach(function (k) {
      var v = p.get(k) || '';
      if (k !== 'q' && !has(ctl[k], v)) v = '';
      ctl[k].value = v;
    });
    page = Math.max(1, parseInt(p.get('page'), 10) || 1);
  }
  function current(pageNo) {  // the filters' hash, on page `pageNo` (none: the first)
    var p = new URLSearchParams();
    keys.forEach(function (k) { if (ctl[k].value) p.set(k, ctl[k].value); });
    if (pageNo > 1) p.set('page', pageNo);
    return p.toString();
  }
  function link(ep, at) {  // the hash of an episode (and a step of it) under the current filters
    var p = new URLSearchParams(current());
    p.set('ep', ep);
    if (at) p.set('at', at);
    return '#' + p.toString();
  }
  function writeHash() {
    var h = current(page);
    history.replaceState(null, '', h ? '#' + h : location.pathname + location.search);
  }
  var SORT = [
    function (r) { return r.agent; }, function (r) { return r.task + '|' + r.variant; },
    function (r) { return r.setting; }, function (r) { return r.run; },
    function (r) { return r.outcome; }, function (r) { return r.steps; },
    function (r) { return r.events; }, function (r) { return r.wall; },
    function (r) { return r.error; }];
  function ordered() {
    if (sortCol < 0) return rows;
    var key = SORT[sortCol];
    var out = rows.slice();
    out.sort(function (x, y) {  // stable: ties keep the table's order
      var u = key(x), v = key(y);
      var c = typeof u === 'number' ? u - v : String(u).localeCompare(String(v));
      return (sortAsc ? c : -c) || (x.i - y.i);
    });
    return out;
  }
  function rowHtml(r) {
    var extra = r.outcome === 'failure' && r.score > 0 && r.score < 1 ? ' (' + r.score + ')' : '';
    return '<tr data-agent="' + esc(r.agent) + '" data-setting="' + esc(r.setting) +
      '" data-outcome="' + r.outcome + '" data-events="' + r.events + '" data-ep="' + esc(r.ep) +
      '" data-chunk="' + r.chunk + '">' +
      '<td>' + esc(r.agent) + '</td>' +
      '<td><a class="open" href="#ep=' + esc(r.ep) + '">' + esc(r.task) + '</a> <span class="muted">#' +
      esc(r.variant) + '</span></td>' +
      '<td>' + CHIPS[r.setting] + '</td>' +
      '<td class="num">' + r.run + '</td>' +
      '<td><span class="badge o-' + r.outcome + '">' + r.outcome + extra + '</span></td>' +
      '<td class="num">' + r.steps + ' / ' + r.budget + '</td>' +
      '<td class="num">' + (r.events ? r.events : '\u2013') + '</td>' +
      '<td class="num">' + r.wall.toFixed(2) + '</td>' +
      '<td class="err" title="' + esc(r.error) + '">' + esc(r.error) + '</td></tr>';
  }
  function pages() { return Math.max(1, Math.ceil(list.length / PAGE)); }
  function render() {
    page = Math.min(page, pages());
    var from = (page - 1) * PAGE, to = Math.min(list.length, from + PAGE);
    tbody.innerHTML = list.slice(from, to).map(rowHtml).join('');
    pageInfo.textContent = list.length ? 'rows ' + (from + 1) + '\u2013' + to + ' of ' + list.length +
      ' (page ' + page + ' of ' + pages() + ')' : 'no rows';
    pagePrev.hidden = page <= 1;
    pageNext.hidden = page >= pages();
    if (!pagePrev.hidden) pagePrev.setAttribute('href', '#' + current(page - 1));
    if (!pageNext.hidden) pageNext.setAttribute('href', '#' + current(page + 1));
    body.setAttribute('data-page', page);
    if (body.getAttribute('data-rows-state') !== 'ready') {  // the page is usable from here
      body.setAttribute('data-rows-ms', Math.round(performance.now()));
      body.setAttribute('data-rows-state', 'ready');
    }
  }
  function apply() {
    var a = ctl.agent.value, s = ctl.setting.value, o = ctl.outcome.value;
    var q = ctl.q.value.trim().toLowerCase();
    var n = {shown: 0, success: 0, failure: 0, error: 0};
    list = ordered().filter(function (d) {
      var ok = (!a || d.agent === a) && (!o || d.outcome === o) &&
        (!s || (s === '*trap' ? d.setting !== 'clean' :
                s === '*fired' ? d.events !== 0 : d.setting === s)) &&
        (!q || d.search.indexOf(q) >= 0);
      if (ok) { n.shown += 1; n[d.outcome] += 1; }
      return ok;
    });
    Object.keys(n).forEach(function (k) { document.getElementById('n-' + k).textContent = n[k]; });
    body.setAttribute('data-shown', n.shown);
    body.setAttribute('data-filter', current());
    render();
  }
  keys.forEach(function (k) {
    ctl[k].addEventListener(k === 'q' ? 'input' : 'change', function () {
      page = 1; writeHash(); apply();
    });
  });
  document.getElementById('f-reset').addEventListener('click', function (e) {
    e.preventDefault();
    keys.forEach(function (k) { ctl[k].value = ''; });
    page = 1; writeHash(); apply();
  });
  var ths = table.querySelectorAll('thead th');
  Array.prototype.forEach.call(ths, function (th, col) {
    th.addEventListener('click', function () {
      if (!rows) return;
      sortAsc = !(sortCol === col && sortAsc);
      sortCol = col;
      Array.prototype.forEach.call(ths, function (t) { t.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', sortAsc ? 'ascending' : 'descending');
      page = 1; writeHash(); apply();
    });
  });
  tbody.addEventListener('click', function (e) {  // open an episode, keeping the filters
    var a = e.target.closest && e.target.closest('a.open');
    if (!a || e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    location.hash = link(a.closest('tr').dataset.ep);
  });

  // ---- episode data: one script per chunk of episodes, loaded when first needed
  var loaded = {}, done = {}, waiting = {};
  function finish(n, err) {
    var cbs = waiting[n] || [];
    waiting[n] = null;
    if (!err) done[n] = true;
    cbs.forEach(function (cb) { cb(err); });
  }
  function inflate(b64) {
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).text();
  }
  window.antrapChunk = function (n, b64) {
    if (!window.DecompressionStream) {
      finish(n, 'this browser cannot inflate the viewer\u2019s data (it needs DecompressionStream)');
      return;
    }
    inflate(b64).then(function (text) {
      JSON.parse(text).forEach(function (e) { loaded[e[0]] = e[1]; });
      finish(n, null);
    }, function (err) { finish(n, 'data chunk ' + n + ' is damaged: ' + err); });
  };
  function need(n, cb) {
    if (done[n]) { cb(null); return; }
    if (waiting[n]) { waiting[n].push(cb); return; }
    waiting[n] = [cb];
    var s = document.createElement('script');
    s.src = 'data/' + String(n).padStart(3, '0') + '.js';
    s.onerror = function () { s.remove(); finish(n, 'could not read viewer/' + s.getAttribute('src')); };
    document.head.appendChild(s);
  }

  // ---- the episode view
  var shown = null, rendered = null, listScroll = 0;
  function state(s) { body.setAttribute('data-episode-state', s); }
  function message(cls, text) {
    epBody.innerHTML = '';
    var p = document.createElement('p');
    p.className = cls;
    p.textContent = text;
    epBody.appendChild(p);
    rendered = null;
  }
  function watchImages() {
    var imgs = epBody.querySelectorAll('.frame img');
    function mark() {
      var ok = 0, bad = 0, pending = 0;
      Array.prototype.forEach.call(imgs, function (img) {
        if (!img.complete) { pending += 1; return; }
        var good = img.naturalWidth > 0;
        img.parentNode.classList.toggle('broken', !good);
        if (good) ok += 1; else bad += 1;
      });
      body.setAttribute('data-images-loaded', ok);
      body.setAttribute('data-images-broken', bad);
      body.setAttribute('data-images-pending', pending);
    }
    Array.prototype.forEach.call(imgs, function (img) {
      img.addEventListener('load', mark);
      img.addEventListener('error', mark);
    });
    mark();
  }
  function focus(el) {
    Array.prototype.forEach.call(epBody.querySelectorAll('.focus'), function (x) {
      x.classList.remove('focus');
    });
    el.classList.add('focus');
    el.scrollIntoView();
  }
  function neighbours(key) {
    var within = list, at = list.findIndex(function (r) { return r.ep === key; });
    if (at < 0) { within = rows; at = rows.findIndex(function (r) { return r.ep === key; }); }
    [[prev, within[at - 1]], [next, within[at + 1]]].forEach(function (x) {
      x[0].hidden = !x[1];
      if (x[1]) x[0].setAttribute('href', link(x[1].ep));
    });
    position.textContent = at >= 0 ? 'episode ' + (at + 1) + ' of ' + within.length : '';
    if (within === list && at >= 0) page = Math.floor(at / PAGE) + 1;  // back to the page it is on
    back.setAttribute('href', '#' + current(page));
  }
  function openEpisode(key, at) {
    if (epView.hidden) listScroll = window.scrollY;
    listView.hidden = true;
    epView.hidden = false;
    shown = key;
    body.setAttribute('data-episode', key);
    neighbours(key);
    var n = chunkOf[key];
    if (n === undefined) {
      message('error-box', 'There is no episode ' + key + ' in this run.');
      document.title = baseTitle;
      state('missing');
      return;
    }
    if (rendered !== key) { message('loading', 'loading the episode\u2026'); state('loading'); }
    need(n, function (err) {
      if (shown !== key) return;
      if (err) { message('error-box', 'Could not load this episode: ' + err); state('error'); return; }
      var record = loaded[key];
      if (rendered !== key) {
        epBody.innerHTML = antrapEpisode.html(record, {chips: CHIPS, layers: LAYERS});
        rendered = key;
        watchImages();
      }
      document.title = antrapEpisode.title(record);
      var target = at && document.getElementById(at);
      if (target && epBody.contains(target)) focus(target); else window.scrollTo(0, 0);
      state('ready');
    });
  }
  function showList() {
    shown = null;
    body.removeAttribute('data-episode');
    body.removeAttribute('data-episode-state');
    if (!epView.hidden) {
      epView.hidden = true;
      listView.hidden = false;
      window.scrollTo(0, listScroll);
    }
    document.title = baseTitle;
  }
  epBody.addEventListener('click', function (e) {  // links within the episode: scroll, keep the view
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    if (!a) return;
    var id = a.getAttribute('href').slice(1), el = document.getElementById(id);
    if (!el || !epBody.contains(el)) return;
    e.preventDefault();
    focus(el);
    history.replaceState(null, '', link(shown, id));
  });
  document.addEventListener('keydown', function (e) {  // j / k: next / previous step
    if (epView.hidden || (e.target.closest && e.target.closest('input, textarea, select'))) return;
    if (e.key !== 'j' && e.key !== 'k') return;
    var steps = Array.prototype.slice.call(epBody.querySelectorAll('article.step'));
    var y = window.scrollY + 20, i;
    if (e.key === 'j') {
      for (i = 0; i < steps.length; i++) if (steps[i].offsetTop > y) { steps[i].scrollIntoView(); break; }
    } else {
      for (i = steps.length - 1; i >= 0; i--) {
        if (steps[i].offsetTop < y - 30) { steps[i].scrollIntoView(); break; }
      }
    }
  });

  function route() {
    if (!rows) return;
    var p = new URLSearchParams(location.hash.replace(/^#/, ''));
    readHash(p);
    apply();
    if (p.get('ep')) openEpisode(p.get('ep'), p.get('at') || ''); else showList();
  }
  window.addEventListener('hashchange', route);

  // ---- the rows: one data file, read when the page opens
  body.setAttribute('data-rows-state', 'loading');
  function rowsFailed(why) {
    body.setAttribute('data-rows-state', 'error');
    tbody.innerHTML = '<tr><td colspan="9" class="error-box"></td></tr>';
    tbody.querySelector('td').textContent = 'Could not load the episodes’ rows: ' + why;
  }
  window.antrapRows = function (b64) {
    if (!window.DecompressionStream) {
      rowsFailed('this browser cannot inflate the viewer’s data (it needs DecompressionStream)');
      return;
    }
    inflate(b64).then(function (text) {
      rows = JSON.parse(text).map(function (values, i) {
        var r = {i: i};
        FIELDS.forEach(function (f, j) { r[f] = values[j]; });
        chunkOf[r.ep] = r.chunk;
        return r;
      });
      route();
    }, function (err) { rowsFailed('viewer/data/rows.js is damaged: ' + err); });
  };
  var rowsScript = document.createElement('script');
  rowsScript.src = 'data/rows.js';
  rowsScript.onerror = function () { rowsFailed('could not read viewer/data/rows.js'); };
  document.head.appendChild(rowsScript);
})();
