// Full-text search over rules, examples and the glossary with the Pagefind index built with
// the site (no request leaves it). A rule number also links straight to that rule.
const form = document.getElementById("search-form");
const input = document.getElementById("q");
const status = document.getElementById("search-status");
const results = document.getElementById("search-results");
const root = new URL(".", document.baseURI);

let pagefind;
async function engine() {
  if (!pagefind) {
    pagefind = await import(new URL("pagefind/pagefind.js", root).href);
    await pagefind.options({ baseUrl: root.pathname });
  }
  return pagefind;
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
  status.textContent = "Searching…";
  const number = query.trim().match(/^[0-9]{3}\.[0-9]+[a-z]*$/);
  if (number) results.appendChild(entry(new URL(`en/n/${number[0]}/index.html`, root).href, `Rule ${number[0]}`, ""));
  try {
    const found = await (await engine()).search(query);
    const data = await Promise.all(found.results.slice(0, 30).map((result) => result.data()));
    for (const page of data) results.appendChild(entry(page.url, page.meta.title || page.url, page.excerpt));
    status.textContent = `${found.results.length} pages match “${query}”.`;
  } catch (error) {
    status.textContent = "Search needs the site to be served over HTTP (rulesarchive serve).";
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  history.replaceState(null, "", `?q=${encodeURIComponent(input.value)}`);
  search(input.value);
});
const query = new URLSearchParams(location.search).get("q") || "";
input.value = query;
search(query);
