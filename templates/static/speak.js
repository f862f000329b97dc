// The site's one-for-every-language pages (search, not found) put their header and footer in
// the language asked for: its words, and its pages' links (base.html's header, in order).
window.rulesarchiveSpeak = function (words, language, root) {
  "use strict";
  document.documentElement.lang = language;
  var header = document.querySelector("header.site");
  var navigation = header.querySelector("nav:not(.languages)");
  var pages = [
    ["releases", "index.html"],
    ["rules", "chapters/index.html"],
    ["glossary", "glossary/index.html"],
    ["compare", "compare.html"],
    ["search", null],
  ];
  navigation.setAttribute("aria-label", words.site_nav);
  navigation.querySelectorAll("a").forEach(function (link, at) {
    var page = pages[at];
    if (!page) return;
    link.textContent = words[page[0]];
    link.href = page[1] ? root + language + "/" + page[1] : root + "search.html?lang=" + language;
  });
  var form = header.querySelector("form.goto");
  form.setAttribute("aria-label", words.goto_title);
  form.action = root + language + "/goto.html";
  form.querySelector("label").textContent = words.rule_box;
  form.querySelector("button").textContent = words.go;
  document.querySelector("footer.site p").textContent = words.footer;
};
