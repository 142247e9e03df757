// Browser tests of `pstate report` and `pstate graph --format mermaid`
// (issue 26 §3), run by tests/browser/run.sh:
//   - each report opens in headless Chromium with no network request (the
//     page itself excepted) and no console error or uncaught exception;
//   - the DOM shows what the data says: summary counts, a search that
//     filters the table, a click on a resource that draws its
//     neighbourhood, the tree, the treemap, the diff's changes; a resource
//     named "<script>..." stays text;
//   - no report contains a secret of its input (plaintext or ciphertext);
//   - every Mermaid graph is accepted by Mermaid's parser (mermaid.parse),
//     and a broken one is refused (the parser really runs);
//   - a 100,000-resource state's report opens (its load time is printed,
//     not asserted: timings on shared machines are not test results).
// Screenshots are written to the artifacts directory.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [pstate, root, artifacts, chromium] = process.argv.slice(2);
const require = createRequire(path.join(root, 'package.json'));
const puppeteer = require('puppeteer-core');
const fixtures = path.join(root, 'fixtures');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pstate-browser-'));
let failures = 0;

function check(ok, what) {
  if (ok) {
    console.log('ok   ' + what);
  } else {
    failures++;
    console.log('FAIL ' + what);
  }
}

function run(args) {
  return execFileSync(pstate, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
}

function report(name, args) {
  const out = path.join(work, name + '.html');
  run(['report', ...args, '-o', out]);
  return out;
}

// Every secret of a state: the ciphertexts of its secret objects, the
// plaintexts (of the `-plain` twin, or base64 of the b64 provider), and the
// values of metadata.integrity_error.env_vars.
const kSig = '4dabf18193072939515e22adb298388d';
function secretsOf(file) {
  const out = new Set();
  const state = JSON.parse(fs.readFileSync(file, 'utf8'));
  const b64 = JSON.stringify(state).includes('"type":"b64"');
  (function walk(v, key) {
    if (Array.isArray(v)) { v.forEach((e) => walk(e)); return; }
    if (v === null || typeof v !== 'object') return;
    if (key === 'env_vars') Object.values(v).forEach((s) => typeof s === 'string' && out.add(s));
    if (v[kSig] === '1b47061264138c4ac30d75fd1eb44270') {
      if (typeof v.ciphertext === 'string') {
        out.add(v.ciphertext);
        if (b64) {
          const plain = JSON.parse(Buffer.from(v.ciphertext, 'base64').toString('utf8'));
          if (typeof plain === 'string') out.add(plain);
        }
      }
      if (v.plaintext !== undefined) {
        const p = typeof v.plaintext === 'string' ? JSON.parse(v.plaintext) : v.plaintext;
        (function leaves(x) {
          if (typeof x === 'string' && x.length >= 4) out.add(x);
          else if (x && typeof x === 'object') Object.values(x).forEach(leaves);
        })(p);
      }
    }
    for (const [k, e] of Object.entries(v)) walk(e, k);
  })(state);
  return [...out].filter((s) => s.length >= 4);
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});

async function open(file, shot) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  const url = 'file://' + file;
  const requests = [], errors = [];
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load', timeout: 90000 });
  const ms = Date.now() - started;
  page.finish = async (name) => {
    await page.screenshot({ path: path.join(artifacts, (shot || name) + '.png') });
    check(requests.length === 0, name + ': no network request' + (requests.length ? ' (' + requests.join(', ') + ')' : ''));
    check(errors.length === 0, name + ': no console error' + (errors.length ? ' (' + errors.join('; ') + ')' : ''));
    await page.close();
  };
  page.loadMs = ms;
  return page;
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent);
const count = (page, sel) => page.$$eval(sel, (es) => es.length);
const tab = async (page, view) => page.click('#tabs button[data-view="' + view + '"]');

// ---- one state: web.json (components, every edge kind, a hostile name)
{
  const file = report('web', [path.join(fixtures, 'graph/web.json')]);
  const page = await open(file);
  check(await text(page, '#sum-resources .value') === '7', 'web: summary counts 7 resources');
  check(await text(page, '#sum-providers .value') === '1', 'web: summary counts 1 provider');
  check(/^\d+$/.test(await text(page, '#sum-errors .value')), 'web: summary shows findings by severity');
  await page.screenshot({ path: path.join(artifacts, 'web-summary.png') });
  await tab(page, 'findings');
  const findings = Number(await text(page, '#findings-count'));
  check(await count(page, '.finding') === findings, 'web: every finding is listed (' + findings + ')');
  await tab(page, 'resources');
  check(await count(page, '#rows tbody tr') === 7, 'web: the table lists 7 resources');
  await page.type('#search', 'policy');
  check(await count(page, '#rows tbody tr') === 1, 'web: searching "policy" leaves 1 row');
  await page.$eval('#search', (e) => { e.value = ''; e.dispatchEvent(new Event('input')); });
  await page.select('#filter-flag', '0'); // protect
  check(await count(page, '#rows tbody tr') === 1, 'web: the protect filter leaves 1 row');
  await page.select('#filter-flag', '');
  const typeValue = await page.$$eval('#filter-type option', (os) => os.find((o) => o.textContent === 'aws:s3/bucket:Bucket').value);
  await page.select('#filter-type', typeValue);
  check(await count(page, '#rows tbody tr') === 1, 'web: the type filter leaves 1 row');
  await page.select('#filter-type', '');
  const evil = await page.$$eval('#rows tbody td', (tds) => tds.map((t) => t.textContent).find((t) => t.startsWith('evil')));
  check(evil !== undefined && evil.includes('<script>alert(1)</script>'), 'web: a name with <script> is shown as text');
  check(await count(page, 'script') === 5, 'web: no script element came from the data');
  const html = fs.readFileSync(file, 'utf8');
  check(!html.includes('\u2028') && html.includes('\\u2028'), 'web: U+2028 in a name is escaped in the data');
  check(!html.includes('<script>alert'), 'web: <script> in a name is escaped in the data');
  // Clicking the bucket shows its neighbourhood: it is referenced by the
  // object (dependency, deletedWith...), the policy, the CDN; it has a
  // parent and a provider.
  await page.$$eval('#rows tbody tr', (trs) => trs.find((t) => t.children[0].textContent === 'assets').click());
  await page.waitForSelector('#neighbourhood');
  const nodes = await count(page, '#neighbourhood g.node');
  check(nodes === 6, 'web: the bucket\'s neighbourhood draws 6 nodes (got ' + nodes + ')');
  const list = await text(page, '#neighbour-list');
  check(list.includes('deletedWith') && list.includes('replaceWith') && list.includes('provider'),
    'web: the neighbourhood lists deletedWith, replaceWith and provider references');
  await page.screenshot({ path: path.join(artifacts, 'web-resource.png') });
  // A click on a neighbour selects it.
  await page.$$eval('#neighbourhood g.node:not(.center)', (gs) => gs[0].dispatchEvent(new MouseEvent('click')));
  check(!(await text(page, '#details h2')).startsWith('assets'), 'web: clicking a neighbour selects it');
  await tab(page, 'tree');
  check(await count(page, '#tree > details, #tree > .leaf') === 2, 'web: the tree has the stack and the provider as roots');
  await page.$$eval('#tree details > summary', (s) => s.forEach((x) => x.click()));
  await page.$$eval('#tree details > summary', (s) => s.forEach((x) => { if (!x.parentElement.open) x.click(); }));
  await page.$$eval('#tree details > summary', (s) => s.forEach((x) => { if (!x.parentElement.open) x.click(); }));
  check(await count(page, '#tree [data-row]') === 7, 'web: the opened tree shows all 7 resources');
  await tab(page, 'sizes');
  check(await count(page, '#treemap .tm:not(.tm-group)') === 7, 'web: the treemap has a tile per resource');
  await page.select('#treemap-by', 'type');
  check(await count(page, '#treemap .tm:not(.tm-group)') === 7, 'web: the treemap by type too');
  await page.select('#treemap-by', 'section');
  check(await count(page, '#treemap .tm:not(.tm-group)') > 0, 'web: the treemap by section has tiles');
  const sectionGroups = await page.$$eval('#treemap .tm-group', (gs) => gs.map((g) => g.textContent).join(' '));
  check(sectionGroups.includes('dependencies') && sectionGroups.includes('other'),
        'web: the treemap by section shows the sections the state has');
  await page.screenshot({ path: path.join(artifacts, 'web-sizes.png') });
  check(await page.$eval('#diff-tab', (e) => e.hidden), 'web: no diff tab for one state');
  await page.finish('web');
}

// ---- two states: the diff view
{
  const file = report('diff', [path.join(fixtures, 'inspect/base.json'), path.join(fixtures, 'inspect/changed.json')]);
  const page = await open(file);
  check(!(await page.$eval('#diff-tab', (e) => e.hidden)), 'diff: the diff tab is shown');
  await tab(page, 'diff');
  check(await text(page, '#diff-added .value') === '1', 'diff: 1 added');
  check(await text(page, '#diff-removed .value') === '1', 'diff: 1 removed');
  check(await text(page, '#diff-renamed .value') === '1', 'diff: 1 renamed');
  check(await text(page, '#diff-changed .value') === '1', 'diff: 1 changed');
  check(await count(page, '#diff-list .change') === 4, 'diff: 4 resources listed');
  const changes = await text(page, '#diff-list');
  check(changes.includes('inputs.tags.env') && changes.includes('"dev" \u2192 "prod"'), 'diff: a property change is listed with its values');
  check(changes.includes('protect'), 'diff: a field change is listed');
  await page.screenshot({ path: path.join(artifacts, 'diff.png'), fullPage: true });
  await page.finish('diff');
}

// ---- secrets never appear
{
  const cases = [
    ['b64', [path.join(fixtures, 'secrets/b64.json')], ['secrets/b64.json', 'secrets/b64-plain.json']],
    ['passphrase', [path.join(fixtures, 'secrets/passphrase.json')], ['secrets/passphrase.json', 'secrets/passphrase-plain.json']],
    ['b64-diff', [path.join(fixtures, 'inspect/b64-secrets.json'), path.join(fixtures, 'inspect/b64-secrets-changed.json')],
      ['inspect/b64-secrets.json', 'inspect/b64-secrets-changed.json']],
    ['passphrase-diff', [path.join(fixtures, 'secrets/b64.json'), path.join(fixtures, 'secrets/passphrase.json'),
      '--passphrase-file', path.join(fixtures, 'secrets/passphrase.txt')],
      ['secrets/b64.json', 'secrets/passphrase.json', 'secrets/passphrase-plain.json']],
  ];
  for (const [name, args, inputs] of cases) {
    const html = fs.readFileSync(report('secrets-' + name, args), 'utf8');
    const secrets = inputs.flatMap((f) => secretsOf(path.join(fixtures, f)));
    const found = secrets.filter((s) => html.includes(s));
    check(secrets.length > 0 && found.length === 0,
      'secrets ' + name + ': none of ' + secrets.length + ' secret values appears' + (found.length ? ' (' + found.length + ' found)' : ''));
  }
  const page = await open(path.join(work, 'secrets-passphrase-diff.html'));
  await page.finish('secrets-passphrase-diff');
}

// ---- Mermaid: every graph parses; a broken one does not
{
  const page = await browser.newPage();
  await page.goto('file://' + path.join(work, 'web.html'));
  await page.goto('about:blank');
  await page.addScriptTag({ path: path.join(root, 'node_modules/mermaid/dist/mermaid.min.js') });
  const graphs = [
    ['web-all', [path.join(fixtures, 'graph/web.json'), '--edges', 'all']],
    ['web-group', [path.join(fixtures, 'graph/web.json'), '--group', 'type', '--edges', 'all']],
    ['web-focus', [path.join(fixtures, 'graph/web.json'), '--name', 'policy', '--depth', '2']],
    ['base', [path.join(fixtures, 'inspect/base.json'), '--edges', 'all']],
    ['example', [path.join(fixtures, 'states/valid/example.json'), '--edges', 'all']],
    ['full-export', [path.join(fixtures, 'states/valid/full-export.json'), '--edges', 'all']],
  ];
  const parse = (src) => page.evaluate(async (s) => {
    try { await window.mermaid.parse(s); return 'ok'; } catch (e) { return String(e.message || e); }
  }, src);
  for (const [name, args] of graphs) {
    const src = run(['graph', ...args, '--format', 'mermaid']);
    const result = await parse(src);
    check(result === 'ok', 'mermaid ' + name + ': parsed' + (result === 'ok' ? '' : ' (' + result.split('\n')[0] + ')'));
  }
  check(await parse('flowchart LR\n  n0["a"b"]\n') !== 'ok', 'mermaid: a broken graph is refused');
  await page.close();
}

// ---- 100,000 resources
{
  const n = 100000;
  const stack = 'urn:pulumi:big::p::pulumi:pulumi:Stack::p-big';
  const prov = 'urn:pulumi:big::p::pulumi:providers:aws::default';
  const res = [{ urn: stack, custom: false, type: 'pulumi:pulumi:Stack' },
    { urn: prov, custom: true, id: 'p1', type: 'pulumi:providers:aws' }];
  for (let i = 0; i < n - 2; i++) {
    const t = ['aws:s3/bucket:Bucket', 'aws:iam/role:Role', 'aws:ec2/instance:Instance'][i % 3];
    const urn = 'urn:pulumi:big::p::pulumi:pulumi:Stack$' + t + '::r' + i;
    // Lean resources: the page's cost is per resource, the report's
    // (five reads of the state) per byte.
    const r = { urn, custom: true, id: 'id-' + i, type: t, parent: stack, provider: prov + '::p1',
      outputs: { size: i } };
    if (i > 0) r.dependencies = ['urn:pulumi:big::p::pulumi:pulumi:Stack$' + ['aws:s3/bucket:Bucket', 'aws:iam/role:Role', 'aws:ec2/instance:Instance'][(i - 1) % 3] + '::r' + (i - 1)];
    res.push(r);
  }
  const big = path.join(work, 'big.json');
  fs.writeFileSync(big, JSON.stringify({ version: 3, deployment: { manifest: { time: '2024-01-01T00:00:00Z', magic: '', version: '' }, resources: res } }));
  const file = report('big', [big]);
  const ratio = fs.statSync(file).size / fs.statSync(big).size;
  console.log('info 100,000 resources: state ' + fs.statSync(big).size + ' bytes, report ' + fs.statSync(file).size + ' bytes');
  check(ratio < 1.2, 'big: the report is not much bigger than the state (ratio ' + ratio.toFixed(2) + ')');
  const page = await open(file, 'big');
  console.log('info 100,000 resources: the page loaded in ' + page.loadMs + ' ms (not asserted)');
  check(await text(page, '#sum-resources .value') === String(n), 'big: summary counts 100000 resources');
  await tab(page, 'resources');
  check(await count(page, '#rows tbody tr') === 200, 'big: the table draws its first page only');
  await page.type('#search', 'r99997');
  check(await count(page, '#rows tbody tr') === 1, 'big: search finds one resource');
  await page.click('#rows tbody tr');
  await page.waitForSelector('#neighbourhood');
  check(await count(page, '#neighbourhood g.node') >= 3, 'big: its neighbourhood is drawn');
  await tab(page, 'sizes');
  check(await count(page, '#treemap .tm') > 100, 'big: the treemap is drawn');
  await page.finish('big');
}

await browser.close();
fs.rmSync(work, { recursive: true, force: true });
console.log(failures === 0 ? 'all browser checks passed' : failures + ' browser checks failed');
process.exit(failures === 0 ? 0 : 1);
