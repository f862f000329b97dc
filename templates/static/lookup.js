// Resolve a rule number (?n=702.19b, with a date as "502.2 as of 2005" or &date=2005, or the
// path of an old number page, /en/n/502.2/, that the site no longer has a file for) to the
// rule holding it, from the language's map of numbers (data/<lang>/numbers.js). A number
// several rules held opens none of them unless a date picks one: the page lists them. A
// translated language falls back to English for a number only English has, and says so; a
// number that never existed gets the nearest that did.
(function () {
  "use strict";
  var settings = window.RULESARCHIVE;
  var messages = settings.messages;
  var status = document.getElementById("goto-status");
  var list = document.getElementById("goto-suggestions");
  var language = settings.language;
  var query = new URLSearchParams(location.search);
  var typed = query.get("n");
  if (settings.notFound) {
    // The page missing is of a language when its path says so: say it in that language.
    var byLanguage = settings.messagesByLanguage || {};
    var segments = location.pathname.split("/");
    for (var i = 0; i < segments.length; i++) {
      if (byLanguage[segments[i]]) { language = segments[i]; break; }
    }
    if (!typed) {
      var match = location.pathname.match(/\/([A-Za-z-]+)\/n\/([^/]+)\/?(?:index\.html)?$/);
      if (match && byLanguage[match[1]]) { language = match[1]; typed = decodeURIComponent(match[2]); }
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
  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? values[name] : whole;
    });
  }
  function item(href, text, lang) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (lang && lang !== language) a.hreflang = lang;
    li.appendChild(a);
    list.appendChild(li);
    return li;
  }
  function lookup(lang, number) {
    return settings.root + lang + "/goto.html?n=" + encodeURIComponent(number);
  }
  // Where a number of a language leads: a rule's page by its id, a chapter, a section.
  function page(lang, number, id) {
    if (id) return settings.root + lang + "/r/" + id + "/index.html";
    if (number.length === 3) return settings.root + lang + "/chapters/" + number + "/index.html";
    return settings.root + lang + "/chapters/index.html#s" + number;
  }
  if (!typed) { if (!settings.notFound) status.textContent = messages.ask; return; }
  // The maps of the language asked and of English (a translation's fallback): the lookup
  // page has them already, the not-found page, of any language, loads the two it needs.
  function load(lang) {
    return new Promise(function (loaded) {
      if ((window.RULESARCHIVE_NUMBERS || {})[lang]) { loaded(); return; }
      var script = document.createElement("script");
      script.src = settings.root + "data/" + lang + "/numbers.js";
      script.onload = script.onerror = function () { loaded(); };
      document.head.appendChild(script);
    });
  }
  Promise.all([load(language), load("en")]).then(resolve);
  function resolve() {
    var all = window.RULESARCHIVE_NUMBERS || {};
    var dated = typed.match(/^(.*?)\s*(?:\bas\s+of\b|\bin\b|@|,)?\s*(\d{4}(?:-\d{2}(?:-\d{2})?)?)\s*$/i);
    if (dated && window.ruleNumber.normalise(dated[1])) {
      typed = dated[1];
      query.set("date", dated[2]);
      history.replaceState(null, "", "?" + query.toString());
    }
    var asked = window.rulesarchiveAsOf.asked();
    var wanted = window.ruleNumber.normalise(typed);
    var numbers = all[language] || {};
    if (wanted && Object.prototype.hasOwnProperty.call(numbers, wanted)) {
      var periods = numbers[wanted];
      if (!periods) {  // a chapter or a section
        status.textContent = say(messages.going, { number: wanted });
        location.replace(page(language, wanted));
        return;
      }
      var held = periods.length === 1 ? periods[0] : null;
      if (asked) {
        held = null;
        periods.forEach(function (period) {
          if (period[1] <= asked.day && (held === null || period[1] > held[1])) held = period;
        });
      }
      if (held) {
        status.textContent = say(messages.going, { number: wanted });
        location.replace(page(language, wanted, held[0]));
        return;
      }
      // Several rules held it (an old citation would land on today's holder unwarned): list
      // them, newest first, each with its period.
      status.textContent = asked ? say(messages.noneThen, { number: wanted, date: asked.text })
        : say(messages.holders, { number: wanted }) + " " + say(messages.asOf, { number: wanted });
      list.className = "holders";
      periods.forEach(function (period) {
        var li = item(page(language, wanted, period[0]), period[3] || wanted);
        li.appendChild(document.createTextNode(": " + wanted + " " + messages.from + " " + period[1] + " " +
          messages.to + " " + (period[2] || messages.now)));
      });
      return;
    }
    if (wanted && language !== "en" && Object.prototype.hasOwnProperty.call(all.en || {}, wanted)) {
      status.textContent = say(messages.english, { number: wanted });
      item(lookup("en", wanted), say(messages.englishLink, { number: wanted }), "en").firstChild.focus();
      return;
    }
    var known = Object.keys(numbers);
    var prefix = wanted || "";
    var near = [];
    while (prefix.length > 2 && near.length === 0) {
      near = known.filter(function (n) { return n.indexOf(prefix) === 0; });
      prefix = prefix.slice(0, -1);
    }
    status.textContent = (wanted ? say(messages.missing, { number: wanted }) : say(messages.unreadable, { number: typed })) +
      (near.length ? " " + messages.perhaps : "");
    near.slice(0, 12).forEach(function (number) { item(lookup(language, number), number); });
  }
})();
