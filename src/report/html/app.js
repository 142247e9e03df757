// The HTML report's script (pstate report). It reads the JSON data element
// and draws each view when it is first opened (a state of 100,000
// resources opens in a few seconds: tables and trees draw in pages, the
// treemap groups small resources). Text from the state is only ever set
// with textContent or as SVG text, never parsed as HTML. Layout comes from
// the embedded libraries: dagre (graph) and d3-hierarchy (treemap).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('pstate-data').textContent);
  var rows = data.rows;
  var PAGE = 200;

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === 'text') e.textContent = attrs[k];
        else if (k === 'cls') e.className = attrs[k];
        else e.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function fmtBytes(n) {
    if (n < 1024) return n + ' B';
    var u = ['KiB', 'MiB', 'GiB'], i = -1;
    do { n /= 1024; i++; } while (n >= 1024 && i < u.length - 1);
    return n.toFixed(1) + ' ' + u[i];
  }
  // A URN's name: everything after its third "::" (state/urn.h).
  function nameOf(urn) {
    var at = -1;
    for (var i = 0; i < 3; i++) {
      at = urn.indexOf('::', at + 2);
      if (at < 0) return urn;
    }
    return urn.slice(at + 2);
  }
  function node(i) {
    if (i < rows.length) {
      var r = rows[i];
      return { id: i, urn: r[0], type: data.types[r[1]], name: nameOf(r[0]), missing: false };
    }
    var urn = data.missing[i - rows.length];
    var parts = urn.split('::');
    var t = parts.length > 2 ? parts[2].split('$').pop() : '';
    return { id: i, urn: urn, type: t, name: nameOf(urn), missing: true };
  }
  function flagsOf(bits) {
    var out = [];
    data.flagNames.forEach(function (f, i) { if (bits & (1 << i)) out.push(f); });
    return out;
  }

  // ---- tabs
  var drawn = {};
  var views = { summary: drawSummary, findings: drawFindings, resources: drawResources,
    tree: drawTree, sizes: drawSizes, diff: drawDiff };
  function show(name) {
    document.querySelectorAll('#tabs button').forEach(function (b) {
      b.classList.toggle('active', b.dataset.view === name);
    });
    Object.keys(views).forEach(function (v) {
      document.getElementById('view-' + v).hidden = v !== name;
    });
    if (!drawn[name]) { drawn[name] = true; views[name](); }
  }
  document.querySelectorAll('#tabs button').forEach(function (b) {
    b.addEventListener('click', function () { show(b.dataset.view); });
  });
  document.getElementById('file').textContent = data.file;
  // verify's JSON (docs/cli.md) and each code's explanation.
  var f = data.findings.report.summary, findingItems = data.findings.report.findings;
  document.getElementById('findings-count').textContent = String(f.errors + f.warnings + f.notes);
  if (data.diff) document.getElementById('diff-tab').hidden = false;

  // ---- summary
  function card(id, value, label) {
    return el('div', { cls: 'card', id: id }, [el('div', { cls: 'value', text: String(value) }),
      el('div', { cls: 'label', text: label })]);
  }
  function tallyTable(title, tallies) {
    var body = el('tbody');
    tallies.slice().sort(function (a, b) { return b[2] - a[2]; }).forEach(function (t) {
      body.appendChild(el('tr', null, [el('td', { text: t[0] || '(none)' }),
        el('td', { cls: 'num', text: String(t[1]) }), el('td', { cls: 'num', text: fmtBytes(t[2]) })]));
    });
    return [el('h2', { text: title }), el('table', null, [el('thead', null, [el('tr', null, [
      el('th', { text: title.replace('By ', '') }), el('th', { cls: 'num', text: 'Resources' }),
      el('th', { cls: 'num', text: 'Bytes' })])]), body])];
  }
  function drawSummary() {
    var s = data.summary, v = document.getElementById('view-summary');
    var pending = Object.keys(s.pending).reduce(function (n, k) { return n + s.pending[k]; }, 0);
    v.appendChild(el('div', { cls: 'cards' }, [
      card('sum-resources', s.resources, 'resources'),
      card('sum-types', s.types, 'types'),
      card('sum-providers', rows.filter(function (r) { return data.types[r[1]].indexOf('pulumi:providers:') === 0; }).length, 'providers'),
      card('sum-version', (s.envelope || '?') + (s.version !== undefined ? ' v' + s.version : ''), 'format'),
      card('sum-secrets-provider', s.secretsProvider || 'none', 'secrets provider'),
      card('sum-secrets', s.secrets, 'secret values'),
      card('sum-pending', pending, 'pending operations'),
      card('sum-errors', f.errors, 'errors'),
      card('sum-warnings', f.warnings, 'warnings'),
      card('sum-notes', f.notes, 'notes'),
      card('sum-bytes', fmtBytes(s.bytes), 'resource bytes')]));
    if (s.features.length) v.appendChild(el('p', { text: 'Features: ' + s.features.join(', ') }));
    var flags = Object.keys(s.flags).filter(function (k) { return s.flags[k] > 0; });
    if (flags.length) v.appendChild(el('p', { text: 'Flags: ' + flags.map(function (k) { return k + ' ' + s.flags[k]; }).join(', ') }));
    tallyTable('By package', s.byPackage).forEach(function (e) { v.appendChild(e); });
    tallyTable('By provider', s.byProvider).forEach(function (e) { v.appendChild(e); });
  }

  // ---- findings
  function drawFindings() {
    var v = document.getElementById('view-findings');
    v.appendChild(el('p', { text: f.errors + ' errors, ' + f.warnings + ' warnings, ' + f.notes + ' notes' +
      (f.omitted ? ' (' + f.omitted + ' more not kept)' : '') }));
    if (!findingItems.length) v.appendChild(el('p', { cls: 'muted', text: 'No findings.' }));
    findingItems.forEach(function (x) {
      var where = data.file + (x.line ? ':' + x.line + ':' + x.column : '') + (x.pointer ? ' (at ' + x.pointer + ')' : '');
      v.appendChild(el('div', { cls: 'finding ' + x.severity }, [
        el('div', null, [el('span', { cls: 'sev ' + x.severity, text: x.severity }), el('code', { text: x.code }), ' ', x.message]),
        el('div', { cls: 'where', text: where + (x.urn ? ' ' + x.urn : '') }),
        el('div', { cls: 'why', text: data.findings.explanations[x.code] || '' })]));
    });
  }

  // ---- resources: table, filters, details and neighbourhood
  var shownRows = [], shownCount = 0, selected = -1;
  function drawResources() {
    var typeSel = document.getElementById('filter-type');
    data.types.map(function (t, i) { return [t, i]; }).sort(function (a, b) { return a[0] < b[0] ? -1 : 1; })
      .forEach(function (t) { typeSel.appendChild(el('option', { value: String(t[1]), text: t[0] })); });
    var flagSel = document.getElementById('filter-flag');
    data.flagNames.forEach(function (name, i) { flagSel.appendChild(el('option', { value: String(i), text: name })); });
    ['search', 'filter-type', 'filter-flag'].forEach(function (id) {
      document.getElementById(id).addEventListener('input', filterRows);
    });
    document.getElementById('more-rows').addEventListener('click', function () { renderRows(shownCount + PAGE * 5); });
    filterRows();
  }
  function filterRows() {
    var q = document.getElementById('search').value.toLowerCase();
    var t = document.getElementById('filter-type').value;
    var fl = document.getElementById('filter-flag').value;
    var ti = t === '' ? -1 : Number(t), bit = fl === '' ? 0 : 1 << Number(fl);
    shownRows = [];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (ti >= 0 && r[1] !== ti) continue;
      if (bit && !(r[4] & bit)) continue;
      if (q && r[0].toLowerCase().indexOf(q) < 0 && r[2].toLowerCase().indexOf(q) < 0) continue;
      shownRows.push(i);
    }
    document.getElementById('row-count').textContent = shownRows.length + ' of ' + rows.length + ' resources';
    document.querySelector('#rows tbody').textContent = '';
    shownCount = 0;
    renderRows(PAGE);
  }
  function renderRows(upTo) {
    var body = document.querySelector('#rows tbody');
    var end = Math.min(upTo, shownRows.length);
    for (; shownCount < end; shownCount++) {
      var i = shownRows[shownCount], r = rows[i];
      var tr = el('tr', { 'data-row': String(i) }, [el('td', { text: nameOf(r[0]) }),
        el('td', { text: data.types[r[1]] }), el('td', { text: r[2] }),
        el('td', { text: flagsOf(r[4]).join(', ') }), el('td', { cls: 'num', text: String(r[5]) })]);
      tr.addEventListener('click', selectRow.bind(null, i));
      body.appendChild(tr);
    }
    document.getElementById('more-rows').hidden = shownCount >= shownRows.length;
  }
  var adjacency = null;
  function neighbours(i) {
    if (!adjacency) {
      adjacency = {};
      data.edges.forEach(function (e) {
        (adjacency[e[0]] = adjacency[e[0]] || []).push(e);
        (adjacency[e[1]] = adjacency[e[1]] || []).push(e);
      });
    }
    return adjacency[i] || [];
  }
  function selectRow(i) {
    selected = i;
    document.querySelectorAll('#rows tr.selected').forEach(function (tr) { tr.classList.remove('selected'); });
    var tr = document.querySelector('#rows tr[data-row="' + i + '"]');
    if (tr) tr.classList.add('selected');
    var n = node(i), r = rows[i], d = document.getElementById('details');
    d.textContent = '';
    var parent = r[3] >= 0 ? rows[r[3]][0] : '';
    var dl = el('dl');
    [['Name', n.name], ['Type', n.type], ['URN', n.urn], ['ID', r[2]], ['Custom', r[6] ? 'yes' : 'no'],
      ['Flags', flagsOf(r[4]).join(', ') || 'none'], ['Bytes', String(r[5])], ['Parent', parent || 'none']]
      .forEach(function (p) { dl.appendChild(el('dt', { text: p[0] })); dl.appendChild(el('dd', { text: p[1] })); });
    d.appendChild(el('h2', { text: n.name }));
    d.appendChild(dl);
    var edges = neighbours(i);
    d.appendChild(el('h2', { text: 'Neighbourhood (' + edges.length + ' references)' }));
    d.appendChild(drawNeighbourhood(i, edges));
    var list = el('ul', { id: 'neighbour-list' });
    edges.forEach(function (e) {
      var other = node(e[0] === i ? e[1] : e[0]);
      list.appendChild(el('li', { text: (e[0] === i ? '\u2192 ' : '\u2190 ') + data.edgeKinds[e[2]] + ': ' + other.urn }));
    });
    d.appendChild(list);
  }
  // The selected resource and what it references or is referenced by, laid
  // out by dagre (at most 80 neighbours drawn).
  function drawNeighbourhood(center, edges) {
    var g = new dagre.graphlib.Graph({ multigraph: true });
    g.setGraph({ rankdir: 'LR', nodesep: 12, ranksep: 40, marginx: 8, marginy: 8 });
    g.setDefaultEdgeLabel(function () { return {}; });
    var ids = {}, count = 0;
    function add(i) {
      if (ids[i]) return true;
      if (count >= 81) return false;
      count++;
      var n = node(i), label = n.name.length > 40 ? n.name.slice(0, 39) + '\u2026' : n.name;
      ids[i] = { n: n, label: label };
      g.setNode(String(i), { width: Math.max(90, 7 * Math.max(label.length, Math.min(n.type.length, 40))), height: 36 });
      return true;
    }
    add(center);
    edges.forEach(function (e, k) {
      if (add(e[0]) && add(e[1])) g.setEdge(String(e[0]), String(e[1]), { kind: data.edgeKinds[e[2]] }, String(k));
    });
    dagre.layout(g);
    var gi = g.graph();
    var root = svg('svg', { 'class': 'graph', width: String(Math.ceil(gi.width)), height: String(Math.ceil(gi.height)),
      viewBox: '0 0 ' + Math.ceil(gi.width) + ' ' + Math.ceil(gi.height), id: 'neighbourhood' });
    var defs = svg('defs');
    var marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto' });
    marker.appendChild(svg('path', { d: 'M0,0L10,5L0,10z', fill: '#9ca3af' }));
    defs.appendChild(marker);
    root.appendChild(defs);
    g.edges().forEach(function (e) {
      var ed = g.edge(e);
      var d = ed.points.map(function (p, k) { return (k ? 'L' : 'M') + p.x.toFixed(1) + ',' + p.y.toFixed(1); }).join('');
      root.appendChild(svg('path', { d: d, 'class': 'edge ' + ed.kind, 'marker-end': 'url(#arrow)' }));
    });
    g.nodes().forEach(function (id) {
      var nd = g.node(id), info = ids[id];
      var grp = svg('g', { 'class': 'node' + (Number(id) === center ? ' center' : '') + (info.n.missing ? ' missing' : ''),
        transform: 'translate(' + (nd.x - nd.width / 2).toFixed(1) + ',' + (nd.y - nd.height / 2).toFixed(1) + ')',
        'data-node': id });
      grp.appendChild(svg('rect', { width: String(nd.width), height: String(nd.height) }));
      var t1 = svg('text', { x: '6', y: '14' }); t1.textContent = info.label;
      var t2 = svg('text', { x: '6', y: '28', fill: '#6b7280' });
      t2.textContent = info.n.type.length > 40 ? info.n.type.slice(0, 39) + '\u2026' : info.n.type;
      var title = svg('title'); title.textContent = info.n.urn;
      grp.appendChild(title); grp.appendChild(t1); grp.appendChild(t2);
      if (!info.n.missing && Number(id) !== center) grp.addEventListener('click', selectRow.bind(null, Number(id)));
      root.appendChild(grp);
    });
    return root;
  }

  // ---- tree (inspect's): children drawn when their parent is opened
  var children = null;
  function drawTree() {
    children = {};
    var roots = [];
    rows.forEach(function (r, i) {
      if (r[3] < 0) roots.push(i); else (children[r[3]] = children[r[3]] || []).push(i);
    });
    var t = document.getElementById('tree');
    appendTreeNodes(t, roots);
  }
  function appendTreeNodes(container, list) {
    var shown = 0;
    function page() {
      var end = Math.min(shown + PAGE * 5, list.length);
      for (; shown < end; shown++) container.insertBefore(treeNode(list[shown]), more);
      more.hidden = shown >= list.length;
    }
    var more = el('button', { text: 'Show more', cls: 'tree-more' });
    more.addEventListener('click', page);
    container.appendChild(more);
    page();
  }
  function treeNode(i) {
    var n = node(i), kids = children[i] || [];
    var label = [el('span', { text: n.name }), el('span', { cls: 'type', text: n.type })];
    if (!kids.length) return el('div', { cls: 'leaf', 'data-row': String(i) }, label);
    var s = el('summary', null, label.concat([el('span', { cls: 'type', text: '(' + kids.length + ')' })]));
    var d = el('details', { 'data-row': String(i) }, [s]);
    d.addEventListener('toggle', function () {
      if (d.open && !d.dataset.filled) { d.dataset.filled = '1'; appendTreeNodes(d, kids); }
    });
    return d;
  }

  // ---- sizes: a treemap of resource bytes (d3-hierarchy)
  function drawSizes() {
    document.getElementById('treemap-by').addEventListener('input', renderTreemap);
    renderTreemap();
  }
  function renderTreemap() {
    var by = document.getElementById('treemap-by').value;
    var box = document.getElementById('treemap');
    box.textContent = '';
    var w = box.clientWidth || 900, h = box.clientHeight || 500;
    // The 1,500 largest resources are drawn; the rest of each type is one
    // "other" tile.
    var order = rows.map(function (r, i) { return i; }).sort(function (a, b) { return rows[b][5] - rows[a][5]; });
    var drawnSet = {};
    order.slice(0, 1500).forEach(function (i) { drawnSet[i] = true; });
    var groups = {};
    rows.forEach(function (r, i) {
      var type = data.types[r[1]], pkg = by === 'package' ? (type.split(':')[0] || type) : '';
      var g = groups[pkg] = groups[pkg] || {};
      var t = g[type] = g[type] || { leaves: [], other: 0 };
      if (drawnSet[i]) t.leaves.push({ name: nameOf(r[0]), value: r[5], row: i }); else t.other += r[5];
    });
    var rootData = { name: 'state', children: Object.keys(groups).map(function (pkg) {
      var types = Object.keys(groups[pkg]).map(function (type) {
        var t = groups[pkg][type];
        var leaves = t.leaves.slice();
        if (t.other > 0) leaves.push({ name: 'other', value: t.other, row: -1 });
        return { name: type, children: leaves };
      });
      return by === 'package' ? { name: pkg, children: types } : types;
    }) };
    if (by !== 'package') rootData.children = [].concat.apply([], rootData.children);
    if (by === 'section') {
      // Where the bytes go: each section of every resource (as `stats`
      // splits them), by type.
      var names = ['inputs', 'outputs', 'dependencies', 'propertyDependencies', 'other'];
      var byType = data.sectionsByType || {};
      rootData = { name: 'state', children: names.map(function (section, k) {
        return { name: section, children: Object.keys(byType).filter(function (type) {
          return byType[type][k] > 0;
        }).map(function (type) { return { name: type, value: byType[type][k], row: -1 }; }) };
      }).filter(function (s) { return s.children.length > 0; }) };
    }
    var root = d3.hierarchy(rootData).sum(function (d) { return d.value || 0; })
      .sort(function (a, b) { return b.value - a.value; });
    d3.treemap().size([w, h]).paddingTop(function (d) { return d.depth > 0 && d.children ? 14 : 0; })
      .paddingInner(1).round(true)(root);
    var palette = ['#c7d2fe', '#bbf7d0', '#fde68a', '#fecaca', '#bae6fd', '#e9d5ff', '#fed7aa', '#d9f99d'];
    var top = root.children || [];
    top.forEach(function (g, k) { g.each(function (d) { d.color = palette[k % palette.length]; }); });
    root.leaves().forEach(function (d) {
      var tile = el('div', { cls: 'tm', title: d.data.name + ' (' + fmtBytes(d.value) + ')' });
      tile.style.left = d.x0 + 'px'; tile.style.top = d.y0 + 'px';
      tile.style.width = Math.max(0, d.x1 - d.x0) + 'px'; tile.style.height = Math.max(0, d.y1 - d.y0) + 'px';
      tile.style.background = d.color;
      if (d.x1 - d.x0 > 40 && d.y1 - d.y0 > 12) tile.textContent = d.data.name;
      if (d.data.row >= 0) tile.addEventListener('click', function () { show('resources'); selectRow(d.data.row); });
      box.appendChild(tile);
    });
    root.descendants().forEach(function (d) {
      if (d.depth === 0 || !d.children || d.x1 - d.x0 < 30) return;
      var g = el('div', { cls: 'tm tm-group', text: d.data.name + ' ' + fmtBytes(d.value) });
      g.style.left = d.x0 + 'px'; g.style.top = d.y0 + 'px';
      g.style.width = (d.x1 - d.x0) + 'px'; g.style.height = (d.y1 - d.y0) + 'px';
      box.appendChild(g);
    });
    document.getElementById('treemap-caption').textContent = fmtBytes(root.value || 0) + ' in ' + rows.length + ' resources';
  }

  // ---- diff (diff's JSON: docs/inspect.md)
  function value(v) { return v === undefined ? '' : JSON.stringify(v); }
  function drawDiff() {
    var v = document.getElementById('view-diff'), d = data.diff, r = d;
    var s = r.summary;
    v.appendChild(el('p', { text: d.before + ' \u2192 ' + d.after }));
    v.appendChild(el('div', { cls: 'cards' }, [card('diff-added', s.added, 'added'), card('diff-removed', s.removed, 'removed'),
      card('diff-renamed', s.renamed, 'renamed'), card('diff-changed', s.changed, 'changed'),
      card('diff-unchanged', s.unchanged, 'unchanged')]));
    var list = el('div', { id: 'diff-list' });
    r.resources.forEach(function (c) {
      var head = el('div', null, [el('span', { cls: 'kind', text: c.change }), el('code', { text: c.urn })]);
      var box = el('div', { cls: 'change ' + c.change }, [head]);
      if (c.from) box.appendChild(el('div', { cls: 'muted', text: 'from ' + c.from }));
      var ul = el('ul');
      (c.properties || []).forEach(function (p) {
        ul.appendChild(el('li', { text: p.kind + ' ' + p.section + '.' + p.path + ': ' +
          (p.kind === 'add' ? value(p.after) : p.kind === 'delete' ? value(p.before) : value(p.before) + ' \u2192 ' + value(p.after)) }));
      });
      (c.field_changes || []).forEach(function (p) {
        ul.appendChild(el('li', { text: p.kind + ' ' + p.name + ': ' + value(p.before) + ' \u2192 ' + value(p.after) }));
      });
      if (ul.childNodes.length) box.appendChild(ul);
      list.appendChild(box);
    });
    if (r.envelope && r.envelope.length) {
      v.appendChild(el('h2', { text: 'Outside the resources' }));
      var ul = el('ul');
      r.envelope.forEach(function (e) { ul.appendChild(el('li', { text: e.kind + ' ' + e.field })); });
      v.appendChild(ul);
    }
    v.appendChild(el('h2', { text: 'Resources' }));
    v.appendChild(list);
  }

  show('summary');
  window.pstateReport = { show: show, selectRow: selectRow };
})();
