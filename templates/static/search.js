// Full-text search over rules, examples and the glossary with the Pagefind index built with
// the site (no request leaves it): a result is a rule or a glossary term. A rule number also
// links straight to that rule.
const form = document.getElementById("search-form");
const input = document.getElementById("q");
const status = document.getElementById("search-status");
const results = document.getElementById("search-results");
const language = document.getElementById("lang");
const root = new URL(".", document.baseURI);
// The page's words in each language (the message catalogues'), shown as the language chosen.
const wording = JSON.parse(document.getElementById("search-messages").textContent);
function say(key, values = {}) {
  const words = (wording[language.value] || wording.en)[key];
  return words.replace(/\{(\w+)\}/g, (_, name) => values[name]);
}
function speak() {
  window.rulesarchiveSpeak(wording[language.value] || wording.en, language.value, root.href);
  document.title = `${say("search")} · rulesarchive`;
  document.getElementById("search-heading").textContent = say("search");
  document.getElementById("search-label").textContent = say("search_label");
  document.getElementById("search-button").textContent = say("search");
  input.placeholder = say("search_placeholder");
}

// Pagefind instances by language. Where a language is written without spaces (Chinese), the
// index holds the words Pagefind's own segmenter found, but Pagefind splits a query with the
// browser's, which may cut finer ("连击" into "连" and "击", found together nowhere): a second
// instance, made under the neutral language code "und", takes the query as one word.
const engines = {};

// Pagefind writes a file per result; the build gathers them in a file per first two characters
// of their name (site_builder/search.py, bundle_fragments), keeping the site within the 20,000
// files a static host takes. Pagefind's fetch of a result is answered from those.
const bundles = new Map();
const fetchFile = window.fetch.bind(window);
window.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
  const match = url.pathname.match(/^(.*\/)fragment\/([^/]+)\.pf_fragment$/);
  if (!match) return fetchFile(input, init);
  const [, base, name] = match;
  const bundle = new URL(`${base}fragments/${name.slice(name.lastIndexOf("_") + 1).slice(0, 2)}.json`, url);
  if (!bundles.has(bundle.href)) bundles.set(bundle.href, fetchFile(bundle).then((r) => r.json()));
  return bundles.get(bundle.href).then(
    (fragments) => new Response(`pagefind_dcd${JSON.stringify(fragments[name])}`),
  );
};

async function engine(code, segmented = true) {
  const key = segmented ? code : `${code} as typed`;
  if (!engines[key]) {
    const base = new URL(`pagefind/${code}/`, root);
    const module = await import(new URL("pagefind.js", base).href);
    const html = document.documentElement;
    const spoken = html.lang;
    if (!segmented) html.lang = "und"; // Pagefind reads the page's language as it is made
    try {
      // In this page's thread, not a worker: its fetch of a result is the one above.
      engines[key] = module.createInstance({
        basePath: base.pathname,
        baseUrl: root.pathname,
        noWorker: true,
      });
    } finally {
      html.lang = spoken;
    }
    // A word as typed outranks the longer words it begins ("치명타" the rule titled so, before
    // "치명타는" in its sub-rules, rarer and so weighing more by frequency alone).
    await engines[key].options({ ranking: { termSimilarity: 5 } });
  }
  return engines[key];
}
const UNSPACED = /\p{Script=Han}/u;

function entry(href, title, excerptHtml, found = {}) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = href;
  a.textContent = title;
  li.appendChild(a);
  if (found.rule) li.dataset.rule = found.rule;
  if (found.term) li.dataset.term = found.term;
  if (found.gone) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = found.gone;
    li.append(" ", badge);
  }
  if (excerptHtml) {
    const p = document.createElement("p");
    p.innerHTML = excerptHtml; // Pagefind's excerpt: our own escaped text with <mark> added
    li.appendChild(p);
  }
  return li;
}

// Pagefind matches words and their beginnings only: a word the language's rules never use
// ("deathtuch") is replaced by the nearest word they do use, and a query with a word near
// none of them ("asdfghjkl") finds nothing rather than whatever shares a few letters.
const vocabularies = {};
async function vocabulary(code) {
  if (!(code in vocabularies)) {
    const response = await fetch(new URL(`data/${code}/words.json`, root));
    vocabularies[code] = response.ok ? await response.json() : null;
  }
  return vocabularies[code];
}

// Edits (insert, delete, substitute, swap two neighbours) from a to b, or limit + 1 past it.
function distance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = null;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + cost);
      if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2] + 1);
      }
      next.push(value);
      least = Math.min(least, value);
    }
    if (least > limit) return limit + 1;
    [before, row] = [row, next];
  }
  return row[b.length];
}

function nearest(word, words) {
  if (words.some((known) => known.startsWith(word))) return word;
  const limit = word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
  let best = null;
  let bestDistance = limit + 1;
  for (const known of words) { // most frequent first: the first at the least distance wins
    const d = distance(word, known, Math.min(limit, bestDistance - 1));
    if (d < bestDistance) [best, bestDistance] = [known, d];
    if (bestDistance === 1) break;
  }
  return best;
}

// The query with its unknown Latin-script words corrected; null if one is near no word.
async function corrected(query) {
  const words = await vocabulary(language.value);
  if (!words) return query;
  const parts = [];
  for (const part of query.trim().split(/\s+/)) {
    const word = part.toLowerCase();
    if (!/^[a-z][a-z'’-]*$/.test(word)) { parts.push(part); continue; }
    const known = nearest(word, words);
    if (known === null) return null;
    parts.push(known);
  }
  return parts.join(" ");
}

async function search(query) {
  results.textContent = "";
  results.setAttribute("aria-busy", "true");
  if (!query.trim()) { status.textContent = ""; results.setAttribute("aria-busy", "false"); return; }
  status.textContent = say("search_searching");
  // A rules text other than the CR (the MTR, the IPG) has no map of rule numbers to go to.
  const numbered = !language.selectedOptions[0]?.hasAttribute("data-document");
  const number = numbered ? window.ruleNumber.normalise(query) : null;
  let count = 0;
  if (number) {
    const goto = new URL(`${language.value}/goto.html`, root);
    goto.searchParams.set("n", number);
    results.appendChild(entry(goto.href, say("search_rule", { number }), "", { rule: number }));
    count++;
  }
  try {
    // Each page is one rule or one glossary term. Current ones first, then removed ones,
    // each in Pagefind's order of relevance.
    const asked = number ? query : await corrected(query);
    const found = [];
    // Chinese typed as one word is searched both as typed and as the browser splits it, the
    // two lists merged by score (one index, one scale).
    const ways = UNSPACED.test(query) && !/\s/.test(query.trim()) ? [false, true] : [true];
    for (const status of asked === null ? [] : ["current", "removed"]) {
      const scored = new Map();
      for (const segmented of ways) {
        const pagefind = await engine(language.value, segmented);
        for (const result of (await pagefind.search(asked, { filters: { status } })).results) {
          if (!scored.has(result.id) || scored.get(result.id).score < result.score) {
            scored.set(result.id, result);
          }
        }
      }
      found.push(...[...scored.values()].sort((a, b) => b.score - a.score));
    }
    const pages = await Promise.all(found.slice(0, 50).map((result) => result.data()));
    for (const page of pages) {
      if (number && page.meta.rule === number) continue; // listed first already
      results.appendChild(entry(page.url, page.meta.title, page.excerpt, page.meta));
      count++;
    }
    count += Math.max(0, found.length - pages.length);
    const shown = asked && asked !== query.trim() ? asked : query;
    status.textContent = say(count === 1 ? "search_matches_one" : "search_matches", { count, query: shown });
  } catch (error) {
    status.textContent = say("search_needs_http");
  }
  results.setAttribute("aria-busy", "false");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  history.replaceState(null, "", `?q=${encodeURIComponent(input.value)}&lang=${language.value}`);
  search(input.value);
});
const params = new URLSearchParams(location.search);
const query = params.get("q") || "";
if (params.get("lang")) language.value = params.get("lang");
speak();
language.addEventListener("change", () => {
  speak();
  history.replaceState(null, "", `?q=${encodeURIComponent(input.value)}&lang=${language.value}`);
  search(input.value); // the results of the language chosen, not the one before
});
input.value = query;
search(query);
