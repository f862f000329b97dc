// Resolve a rule number (?n=702.19b, or the path of a page that does not exist) to its number
// page, or suggest the nearest numbers that do exist. A translated language falls back to
// English for a number only English has, and says so.
(function () {
  "use strict";
  var settings = window.RULESARCHIVE;
  var messages = settings.messages;
  var all = window.RULESARCHIVE_NUMBERS || {};
  var status = document.getElementById("goto-status");
  var list = document.getElementById("goto-suggestions");
  var language = settings.language;
  var typed = new URLSearchParams(location.search).get("n");
  if (settings.notFound) {
    // The page missing is of a language when its path says so: say it in that language.
    var byLanguage = settings.messagesByLanguage || {};
    var segments = location.pathname.split("/");
    for (var i = 0; i < segments.length; i++) {
      if (byLanguage[segments[i]]) { language = segments[i]; break; }
    }
    if (!typed) {
      var match = location.pathname.match(/\/([A-Za-z-]+)\/n\/([^/]+)\/?(?:index\.html)?$/);
      if (match && all[match[1]]) { language = match[1]; typed = decodeURIComponent(match[2]); }
    }
    if (byLanguage[language]) {
      messages = byLanguage[language];
      window.rulesarchiveSpeak(messages, language, settings.root);
      document.title = messages.notFound + " · rulesarchive";
      document.querySelector("main h1").textContent = messages.notFound;
      status.textContent = messages.notFoundText;
      document.getElementById("all-releases").textContent = messages.allReleases;
      document.getElementById("search-link").textContent = messages.search;
    }
  }
  function say(template, number) { return template.replace("{number}", number); }
  function link(lang, number, text) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = settings.root + lang + "/n/" + number + "/index.html";
    a.textContent = text || number;
    if (lang !== language) a.hreflang = lang;
    li.appendChild(a);
    list.appendChild(li);
    return a;
  }
  if (!typed) { if (!settings.notFound) status.textContent = messages.ask; return; }
  var dated = typed.match(/^(.*?)\s*(?:\bas\s+of\b|\bin\b|@|,)?\s*(\d{4}(?:-\d{2}(?:-\d{2})?)?)\s*$/i);
  var when = "";
  if (dated && window.ruleNumber.normalise(dated[1])) { typed = dated[1]; when = "?date=" + dated[2]; }
  var wanted = window.ruleNumber.normalise(typed);
  var numbers = all[language] || [];
  if (wanted && numbers.indexOf(wanted) >= 0) {
    status.textContent = say(messages.going, wanted);
    location.replace(settings.root + language + "/n/" + wanted + "/index.html" + when);
    return;
  }
  if (wanted && language !== "en" && (all.en || []).indexOf(wanted) >= 0) {
    status.textContent = say(messages.english, wanted);
    link("en", wanted, say(messages.englishLink, wanted)).focus();
    return;
  }
  var prefix = wanted || "";
  var near = [];
  while (prefix.length > 2 && near.length === 0) {
    near = numbers.filter(function (n) { return n.indexOf(prefix) === 0; });
    prefix = prefix.slice(0, -1);
  }
  status.textContent = (wanted ? say(messages.missing, wanted) : say(messages.unreadable, typed)) +
    (near.length ? " " + messages.perhaps : "");
  near.slice(0, 12).forEach(function (number) { link(language, number); });
})();
