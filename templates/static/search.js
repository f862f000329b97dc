// Full-text search over rules, examples and the glossary with the Pagefind index built with
// the site (no request leaves it). A rule number also links straight to that rule.
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

const engines = {};
async function engine(code) {
  if (!engines[code]) {
    engines[code] = await import(new URL(`pagefind/${code}/pagefind.js`, root).href);
    await engines[code].options({ baseUrl: root.pathname });
  }
  return engines[code];
}

function entry(href, title, excerptHtml) {
  const li = document.createElement("li");
  const a = document.createElement("a");
  a.href = href;
  a.textContent = title;
  li.appendChild(a);
  if (excerptHtml) {
    const p = document.createElement("p");
    p.innerHTML = excerptHtml; // Pagefind's excerpt: our own escaped text with <mark> added
    li.appendChild(p);
  }
  return li;
}

async function search(query) {
  results.textContent = "";
  if (!query.trim()) { status.textContent = ""; return; }
  status.textContent = say("search_searching");
  const number = window.ruleNumber.normalise(query);
  if (number) {
    const goto = new URL(`${language.value}/goto.html`, root);
    goto.searchParams.set("n", number);
    results.appendChild(entry(goto.href, say("search_rule", { number }), ""));
  }
  try {
    // Current rules and terms first, then removed ones, each in Pagefind's order of relevance.
    const pagefind = await engine(language.value);
    const found = [];
    for (const status of ["current", "removed"]) {
      found.push(...(await pagefind.search(query, { filters: { status } })).results);
    }
    // A page is a chapter, the removed rules or the glossary: each rule or term in it is a
    // sub-result (a heading with an anchor), listed by how often it matches.
    const pages = await Promise.all(found.slice(0, 20).map((result) => result.data()));
    let count = 0;
    for (const page of pages) {
      const parts = (page.sub_results || []).filter((sub) => sub.url.includes("#"));
      parts.sort((a, b) => (b.weighted_locations || []).length - (a.weighted_locations || []).length);
      for (const sub of parts.length ? parts : [page]) {
        if (count < 50) results.appendChild(entry(sub.url, sub.title || page.meta.title, sub.excerpt));
        count++;
      }
    }
    status.textContent = say(count === 1 ? "search_matches_one" : "search_matches", { count, query });
  } catch (error) {
    status.textContent = say("search_needs_http");
  }
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
